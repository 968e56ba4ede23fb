/**
 * Fuzzing the family A token server (`POST /oauth/token`). Two suites:
 * - request fields: a valid token request (fresh assertion) with its fields mutated, sent as JSON or
 *   form, with random content types. Every answer is 200 or an OAuth error `{error, error_description}`
 *   with a 4xx status; a refusal changes nothing.
 * - assertion claims: the claims of a valid assertion mutated (types, values, missing, extra fields, deep
 *   nesting) and signed with the client's real key, so only the claim rules stand between the fuzzer and
 *   a token. A model of the rules (iss = sub = client, aud holds the token endpoint, exp in the future
 *   and at most 300 s after iat, iat / nbf not in the future, a fresh non-empty jti) predicts the answer:
 *   a token is issued exactly when the model says the assertion is valid.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { CompactSign } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, tokenFields } from '../familya/helpers/harness.ts';
import { applyMutations, hostileString, isDeepMarker, mutation, toJsonText, type Json } from './helpers/arbitraries.ts';
import {
  bodyEncodingWithOversize,
  checkOAuth,
  contentType,
  encodeBody,
  fuzzRuns,
  headerSafe,
  send,
  startFuzzSim,
  stateOf,
  Tally,
  type FuzzSim,
} from './helpers/fuzz-sim.ts';

let sim: FuzzSim;
beforeAll(async () => {
  sim = await startFuzzSim();
});
afterAll(() => sim.close());

const ASSERTION_MAX_LIFETIME_S = 300;
const SKEW_S = 5;

function validClaims(): Record<string, Json> {
  const now = Math.floor(sim.h.clock.now() / 1000);
  return { iss: CLIENT, sub: CLIENT, aud: sim.h.tokenEndpoint, iat: now, exp: now + 120, jti: randomUUID() };
}

async function sign(payload: Json, header: Record<string, Json> = {}): Promise<string> {
  return new CompactSign(new TextEncoder().encode(toJsonText(payload))).setProtectedHeader({ ...header, alg: 'RS256' }).sign(sim.h.demoKey);
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The token server's claim rules, restated independently; `used` holds the jtis already accepted. */
function modelAccepts(payload: Json, used: ReadonlySet<string>): boolean {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return false;
  const now = sim.h.clock.now() / 1000;
  const { iss, sub, aud, iat, exp, nbf, jti } = payload;
  if (iss !== CLIENT || sub !== CLIENT) return false;
  if (!(Array.isArray(aud) ? aud : [aud]).includes(sim.h.tokenEndpoint)) return false;
  if (!isNumber(iat) || !isNumber(exp)) return false;
  if (exp <= now || exp - iat > ASSERTION_MAX_LIFETIME_S || exp <= iat || iat > now + SKEW_S) return false;
  if (nbf !== undefined && (!isNumber(nbf) || nbf > now + SKEW_S)) return false;
  // A deep marker is a string here but nested arrays or objects on the wire.
  return typeof jti === 'string' && !isDeepMarker(jti) && jti !== '' && !used.has(jti);
}

async function post(body: Buffer, type: string | undefined) {
  return send(sim.auth, { method: 'POST', path: '/oauth/token', headers: type === undefined ? {} : { 'content-type': type }, body });
}

describe('token endpoint under bad input', () => {
  it('answers mutated token requests with 200 or a 4xx OAuth error, changing nothing when it refuses', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { maxLength: 4 }),
        bodyEncodingWithOversize,
        contentType,
        fc.boolean(),
        async (mutations, encoding, type, form) => {
          const fields = tokenFields(sim.h, CLIENT, await sim.h.assertion(CLIENT));
          const body = mutations.length === 0 ? fields : applyMutations(fields, mutations);
          const before = stateOf(sim.h);
          const response = await post(
            encodeBody(body, form ? { kind: 'form' } : encoding),
            form ? 'application/x-www-form-urlencoded' : type,
          );
          const outcome = checkOAuth(response, {
            what: `POST /oauth/token (${form ? 'form' : encoding.kind}, ${type ?? 'no content-type'})`,
          });
          if (outcome === 'refused') expect(stateOf(sim.h)).toBe(before);
          tally.add(outcome, response.status);
        },
      ),
      { numRuns: fuzzRuns(200) },
    );
    console.log(`token request fields: ${tally.summary()}`);
    expect(tally.ok).toBeGreaterThan(5);
    expect(tally.refused).toBeGreaterThan(100);
  });

  it('issues a token exactly for the assertions whose claims satisfy every rule', async () => {
    const used = new Set<string>();
    const tally = new Tally();
    const extraHeader = fc.option(
      fc.dictionary(
        hostileString.map((k) => headerSafe(k, 40)),
        fc.oneof(hostileString, fc.integer()),
        { maxKeys: 2 },
      ),
      { nil: undefined, freq: 5 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { maxLength: 3 }), extraHeader, async (mutations, header) => {
        const payload = applyMutations(validClaims(), mutations);
        const expected = modelAccepts(payload, used);
        // jose refuses unknown `crit` parameters and `b64: false` when signing; such headers test nothing here.
        const signed = await sign(
          payload,
          header === undefined
            ? {}
            : Object.fromEntries(Object.entries(header).filter(([k]) => k !== 'crit' && k !== 'b64' && k !== 'alg')),
        );
        const response = await post(Buffer.from(JSON.stringify(tokenFields(sim.h, CLIENT, signed))), 'application/json');
        const outcome = checkOAuth(response, { what: `assertion ${toJsonText(payload).slice(0, 200)}` });
        tally.add(outcome, response.status);
        expect(outcome, `claims ${toJsonText(payload).slice(0, 300)}: ${response.text.slice(0, 300)}`).toBe(expected ? 'ok' : 'refused');
        if (outcome === 'ok' && payload !== null && typeof payload === 'object' && !Array.isArray(payload))
          used.add(String(payload['jti']));
      }),
      { numRuns: fuzzRuns(200) },
    );
    console.log(`assertion claims: ${tally.summary()}`);
    expect(tally.ok, 'valid assertions were accepted').toBeGreaterThan(5);
    expect(tally.refused).toBeGreaterThan(50);
  });
});
