/**
 * Fuzzing the gateway's NDJSON stream endpoints (order, market data and instrument state subscriptions):
 * mutated subscription bodies and random headers. A refusal is a 4xx JSON reply in the gateway shape
 * before any stream starts; an accepted subscription answers 200 `application/x-ndjson` whose first line
 * (a snapshot, an update or a heartbeat, which comes every 50 ms here) is a JSON `{"result": ...}` within
 * the deadline. Subscribing changes nothing, and the server keeps serving after the run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, startFuzzSim, Tally, type FuzzSim } from './helpers/fuzz-sim.ts';
import { STREAM_ENDPOINTS, expectGatewayServing, gatewayCase, runGatewayCase } from './helpers/gateway-requests.ts';

let sim: FuzzSim;
beforeAll(async () => {
  sim = await startFuzzSim();
});
afterAll(() => sim.close());

describe('gateway streams under bad input', () => {
  it('refuses bad subscriptions with a clear 4xx and opens good ones with a JSON first line', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(gatewayCase(STREAM_ENDPOINTS, 12), (c) => runGatewayCase(sim, STREAM_ENDPOINTS, c, tally)),
      { numRuns: fuzzRuns(150) },
    );
    console.log(`${expect.getState().currentTestName ?? ''}: ${tally.summary()}`);
    expect(tally.refused).toBeGreaterThan(50);
    expect(tally.ok, 'some subscriptions were valid and streamed').toBeGreaterThan(5);
    await expectGatewayServing(sim);
  });
});
