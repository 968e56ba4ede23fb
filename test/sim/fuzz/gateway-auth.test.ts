/**
 * Fuzzing the gateway's authentication endpoints (`/auth/v1beta1/*` and the sim's registration-token
 * endpoint): valid bodies with fields deleted, retyped, nested, inflated or added, random encodings,
 * content types and Authorization values. Every answer is a 2xx (valid by chance) or a 4xx in the
 * `{code, message, details}` shape with a non-empty details text, within the deadline; a refused request
 * changes no user, order or balance; the server still logs users in afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, startFuzzSim, Tally, type FuzzSim } from './helpers/fuzz-sim.ts';
import { AUTH_ENDPOINTS, expectGatewayServing, gatewayCase, runGatewayCase } from './helpers/gateway-requests.ts';

let sim: FuzzSim;
beforeAll(async () => {
  sim = await startFuzzSim();
});
afterAll(() => sim.close());

describe('gateway /auth/v1beta1 under bad input', () => {
  it('answers every mutated request with a clear 4xx (or 2xx when valid by chance) and leaves state alone', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(gatewayCase(AUTH_ENDPOINTS, 2), (c) => runGatewayCase(sim, AUTH_ENDPOINTS, c, tally)),
      { numRuns: fuzzRuns(200) },
    );
    console.log(`${expect.getState().currentTestName ?? ''}: ${tally.summary()}`);
    expect(tally.refused).toBeGreaterThan(100);
    expect(tally.ok, 'some valid bodies were sent and accepted (the fuzzer is not only sending garbage)').toBeGreaterThan(0);
    await expectGatewayServing(sim);
  });
});
