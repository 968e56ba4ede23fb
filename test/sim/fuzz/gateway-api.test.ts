/**
 * Fuzzing the gateway's order entry and lookup endpoints (`/api/v1beta1/*`): valid bodies (orders, lists,
 * crosses, cancels and replaces of a working order, searches, positions, balances) mutated field by field,
 * sent with random encodings, content types and Authorization values (bare token, "Bearer", refresh or
 * registration tokens, another user's, tampered, alg none, wrong secret, garbage). Every answer is a 2xx
 * (valid by chance) or a 4xx in the gateway shape; refused requests leave orders, trades, positions and
 * cash exactly as they were (list calls validate everything before executing anything).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, startFuzzSim, Tally, type FuzzSim } from './helpers/fuzz-sim.ts';
import { API_ENDPOINTS, expectGatewayServing, gatewayCase, runGatewayCase } from './helpers/gateway-requests.ts';

let sim: FuzzSim;
beforeAll(async () => {
  sim = await startFuzzSim();
});
afterAll(() => sim.close());

describe('gateway /api/v1beta1 under bad input', () => {
  it('answers every mutated request with a clear 4xx (or 2xx when valid by chance) and leaves state alone', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(gatewayCase(API_ENDPOINTS, 12), (c) => runGatewayCase(sim, API_ENDPOINTS, c, tally)),
      { numRuns: fuzzRuns(300) },
    );
    console.log(`${expect.getState().currentTestName ?? ''}: ${tally.summary()}`);
    expect(tally.refused).toBeGreaterThan(150);
    expect(tally.ok, 'some requests were valid and executed').toBeGreaterThan(10);
    await expectGatewayServing(sim);
  });
});
