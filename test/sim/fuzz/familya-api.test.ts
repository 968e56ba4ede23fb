/**
 * Fuzzing every family A `/v1` endpoint: path parameters, query parameters and bodies mutated from valid
 * requests, random encodings and content types, Authorization variants (no Bearer, lower case, a client
 * without the scope, another firm's client, an allowlisted client, a gateway token, tampered, alg none,
 * HS256 signed with the published public key) and `x-participant-id` of the firm, another firm or garbage.
 * Every answer is a 2xx (valid by chance) or a 4xx `{error: {code, status, message, details}}` with a
 * non-empty message; refused requests change nothing; health answers afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, send, startFuzzSim, Tally, type FuzzSim } from './helpers/fuzz-sim.ts';
import { ApiTokens, apiCase, runApiCase } from './helpers/familya-requests.ts';

let sim: FuzzSim;
let tokens: ApiTokens;
beforeAll(async () => {
  sim = await startFuzzSim();
  tokens = new ApiTokens(sim);
});
afterAll(() => sim.close());

describe('family A /v1 under bad input', () => {
  it('answers every mutated request with a clear 4xx (or 2xx when valid by chance) and leaves state alone', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(apiCase, (c) => runApiCase(sim, tokens, c, tally)),
      { numRuns: fuzzRuns(300) },
    );
    console.log(`family A /v1: ${tally.summary()}`);
    expect(tally.refused).toBeGreaterThan(100);
    expect(tally.ok, 'some requests were valid and executed').toBeGreaterThan(20);
    const health = await send(sim.api, { method: 'GET', path: '/v1/health', headers: {} });
    expect(health.status).toBe(200);
    const whoAmI = await send(sim.api, {
      method: 'GET',
      path: '/v1/whoami',
      headers: { authorization: `Bearer ${await tokens.of('demo-bot')}` },
    });
    expect(whoAmI.status, whoAmI.text).toBe(200);
  });
});
