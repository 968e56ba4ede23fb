/**
 * Fuzzing the simulator's gRPC door (issue 8, "every sim endpoint" over gRPC): every unary method of
 * proto/exchange.proto with mutated request objects, random objects, other methods' requests, flipped,
 * truncated, extended or random bytes, and bad or missing metadata. Each call is answered OK (valid by
 * chance, with an answer the client codecs decode) or refused with a clear status and details; a refusal
 * leaves orders, trades, positions and cash exactly as they were; the server keeps serving after the run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, startFuzzSim, Tally, type FuzzSim } from './helpers/fuzz-sim.ts';
import {
  GrpcFuzzTarget,
  STREAM_METHODS,
  UNARY_METHODS,
  fuzzedMethodNames,
  grpcCase,
  protocolMethodNames,
} from './helpers/grpc-requests.ts';

let sim: FuzzSim;
let target: GrpcFuzzTarget;
beforeAll(async () => {
  sim = await startFuzzSim();
  target = new GrpcFuzzTarget(sim);
});
afterAll(async () => {
  target.close();
  await sim.close();
});

describe('gRPC unary methods under bad input', () => {
  it('every method of the protocol is fuzzed', () => {
    expect(fuzzedMethodNames()).toEqual(protocolMethodNames());
    expect(UNARY_METHODS.length + STREAM_METHODS.length).toBe(15);
  });

  it('answers every fuzzed call OK or with a clear status, and a refusal changes nothing', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(grpcCase(UNARY_METHODS), (c) => target.run(UNARY_METHODS, false, c, tally)),
      { numRuns: fuzzRuns(300) },
    );
    console.log(
      `${expect.getState().currentTestName ?? ''}: ${tally.summary()}; ` +
        `objects fitted to the schema ${target.fitted}, unserializable ${target.unserializable}`,
    );
    expect(target.unserializable).toBe(0);
    expect(tally.refused).toBeGreaterThan(100);
    expect(tally.ok, 'some calls were valid and executed').toBeGreaterThan(10);
    await target.expectServing();
  });
});
