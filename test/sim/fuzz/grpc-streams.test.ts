/**
 * Fuzzing the simulator's gRPC server streams (order updates, market data, positions, drop copy, trade
 * capture, instrument states): mutated and random subscription requests, wrong message types, damaged
 * bytes, bad or missing metadata. A refusal is a clear status before any message; an accepted stream's
 * first message comes at once and decodes with the client codecs. Subscribing never changes the exchange
 * state, no stream slot leaks (the firm can open all its 20 concurrent streams after the run), and the
 * server keeps serving.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, startFuzzSim, Tally, type FuzzSim } from './helpers/fuzz-sim.ts';
import { GrpcFuzzTarget, STREAM_METHODS, grpcCase } from './helpers/grpc-requests.ts';

/** The simulator's default concurrent stream limit per firm. */
const FIRM_STREAM_LIMIT = 20;

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

describe('gRPC streams under bad input', () => {
  it('refuses bad subscriptions with a clear status and opens good ones with a decodable first message', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(grpcCase(STREAM_METHODS), (c) => target.run(STREAM_METHODS, true, c, tally)),
      { numRuns: fuzzRuns(150) },
    );
    console.log(
      `${expect.getState().currentTestName ?? ''}: ${tally.summary()}; ` +
        `objects fitted to the schema ${target.fitted}, unserializable ${target.unserializable}`,
    );
    expect(target.unserializable).toBe(0);
    expect(tally.refused).toBeGreaterThan(50);
    expect(tally.ok, 'some subscriptions were valid and streamed').toBeGreaterThan(10);
    await target.expectServing();
    // no slot leaked: the firm can open its 20 concurrent streams (once the cancelled ones are closed)
    await expect.poll(() => target.streamsAvailable(FIRM_STREAM_LIMIT), { timeout: 15_000, interval: 50 }).toBe(FIRM_STREAM_LIMIT);
  });
});
