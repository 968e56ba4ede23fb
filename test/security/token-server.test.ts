/**
 * Attacks on the family A token server that test/sim/familya/token-server.test.ts does not already make
 * (that suite covers alg none, HS256 keyed with the public PEM, wrong key, wrong aud, expired, exp too
 * far, future iat, missing and reused jti): other signing algorithms with the right key, a key smuggled
 * in the header (jwk, jku, x5u, kid), an unknown critical header, iat long past, nbf ahead, a replay later
 * in the assertion's life and after a refusal, and a token request asking for scopes the client lacks.
 * Each is refused with the right OAuth code, and none yields a token.
 */
import { randomUUID, sign } from 'node:crypto';
import { CompactSign, decodeJwt, exportJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEC_ALL, SEC_READ_ONLY, startSecuritySim, type SecuritySim } from './helpers/security-sim.ts';
import { rsaKeyPairSync } from '../../src/sim/familya/rsa-key-pair.ts';

let s: SecuritySim;
beforeAll(async () => {
  s = await startSecuritySim();
});
afterAll(() => s.close());

const now = () => Math.floor(s.clock.now() / 1000);

async function exchange(assertion: string, clientId = SEC_ALL) {
  return s.tokenRequest(s.tokenFields(clientId, assertion));
}

/** Signs `claims` with any JWS algorithm and key (jose refuses to sign RS256 claims with a wrong alg). */
async function signWith(
  alg: string,
  key: Parameters<CompactSign['sign']>[0],
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ ...header, alg }).sign(key);
}

const claims = (over: Record<string, unknown> = {}) => ({
  iss: SEC_ALL,
  sub: SEC_ALL,
  aud: s.sim.tokenEndpoint,
  iat: now(),
  exp: now() + 120,
  jti: randomUUID(),
  ...over,
});

describe('assertions signed with the right key but not RS256', () => {
  it.each(['RS384', 'RS512', 'PS256', 'PS512'])('%s is refused before any key is used (invalid_client_assertion)', async (alg) => {
    const response = await exchange(await signWith(alg, s.key, claims()));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
    expect(response.body['error_description']).toContain(`alg "${alg}" is not accepted`);
  });
});

describe('keys smuggled in the JOSE header', () => {
  const attacker = rsaKeyPairSync();

  it('an embedded jwk of the attacker is ignored: the signature is checked with the onboarded key (invalid_client)', async () => {
    const jwk = await exportJWK(attacker.publicKey);
    const response = await exchange(await signWith('RS256', attacker.privateKey, claims(), { jwk }));
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'invalid_client' });
  });

  it.each([
    ['jku', { jku: 'https://attacker.example/jwks.json' }],
    ['x5u', { x5u: 'https://attacker.example/cert.pem' }],
    ['kid', { kid: '../../etc/passwd' }],
  ])('a %s pointing elsewhere changes nothing: the attacker-signed assertion is refused', async (_name, header) => {
    const response = await exchange(await signWith('RS256', attacker.privateKey, claims(), header));
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'invalid_client' });
  });

  it('an unknown critical header parameter is refused even when correctly signed', async () => {
    // Signed by hand: jose itself refuses to produce a JWS with a `crit` it does not understand.
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ alg: 'RS256', crit: ['x-must-understand'], 'x-must-understand': true })}.${part(claims())}`;
    const response = await exchange(`${input}.${sign('sha256', Buffer.from(input), s.key).toString('base64url')}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
  });
});

describe('assertion times', () => {
  it('an iat ten minutes old with an exp still ahead is refused (an assertion lives at most 300 s)', async () => {
    const response = await exchange(await s.assertion(SEC_ALL, { iat: now() - 600, exp: now() + 60 }));
    expect(response.status).toBe(400);
    expect(response.body['error_description']).toMatch(/at most 300 s/);
  });

  it('an nbf in the future is refused', async () => {
    const response = await exchange(await s.assertion(SEC_ALL, { nbf: now() + 120 }));
    expect(response.status).toBe(400);
    expect(response.body['error_description']).toMatch(/nbf .* is in the future/);
  });

  it('times as strings are refused, not coerced', async () => {
    const response = await exchange(await s.assertion(SEC_ALL, { exp: String(now() + 60) }));
    expect(response.status).toBe(400);
    expect(response.body['error_description']).toMatch(/claim exp is not a number/);
  });
});

describe('replays', () => {
  it('an accepted assertion replayed 200 s later (still unexpired) is refused', async () => {
    const assertion = await s.assertion(SEC_ALL, { exp: now() + 290 });
    expect((await exchange(assertion)).status).toBe(200);
    s.clock.advance(200_000);
    const replay = await exchange(assertion);
    expect(replay.status).toBe(400);
    expect(replay.body['error_description']).toMatch(/jti was already used/);
  });

  it('a refused assertion does not burn its jti, an accepted one does', async () => {
    const jti = randomUUID();
    const refused = await exchange(await s.assertion(SEC_ALL, { jti, aud: s.sim.ready.api }));
    expect(refused.status).toBe(400);
    expect((await exchange(await s.assertion(SEC_ALL, { jti }))).status).toBe(200);
    const again = await exchange(await s.assertion(SEC_ALL, { jti }));
    expect(again.status).toBe(400);
    expect(again.body['error_description']).toMatch(/jti was already used/);
  });

  it("another client's assertion presented under this client id is refused", async () => {
    const response = await exchange(await s.assertion(SEC_READ_ONLY), SEC_ALL);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
  });
});

describe('scope escalation at the token endpoint', () => {
  it('asking for scopes in the token request grants only the onboarded ones', async () => {
    const fields = {
      ...s.tokenFields(SEC_READ_ONLY, await s.assertion(SEC_READ_ONLY)),
      scope: 'write:orders read:positions write:funding',
    };
    const response = await s.tokenRequest(fields);
    expect(response.status).toBe(200);
    expect(String(decodeJwt(String(response.body['access_token']))['scope'])).toBe('read:instruments');
  });

  it('scope claims inside the assertion are ignored too', async () => {
    const response = await exchange(
      await s.assertion(SEC_READ_ONLY, { scope: 'write:orders', participant: 'firms/other/users/carol', firm: 'other' }),
      SEC_READ_ONLY,
    );
    expect(response.status).toBe(200);
    const token = decodeJwt(String(response.body['access_token']));
    expect(token).toMatchObject({ scope: 'read:instruments', firm: 'demo', participant: 'firms/demo/users/alice' });
  });
});
