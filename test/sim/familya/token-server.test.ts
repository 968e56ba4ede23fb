// The family A token server: every assertion rule refused with its own OAuth error code and description,
// and the happy path with form and JSON bodies. Times are the injected clock's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { CLIENT, CLIENT_NO_L2, startFamilyA, tokenFields, unsecuredAssertion, type FamilyAHarness } from './helpers/harness.ts';

let h: FamilyAHarness;

beforeAll(async () => {
  h = await startFamilyA();
});
afterAll(async () => {
  await h.close();
});

const now = () => Math.floor(h.clock.now() / 1000);

async function refused(assertion: string, clientId = CLIENT) {
  return h.tokenRequest(tokenFields(h, clientId, assertion));
}

describe('token endpoint: a good assertion', () => {
  it('issues a Bearer token for a JSON body', async () => {
    const response = await h.tokenRequest(tokenFields(h, CLIENT, await h.assertion()));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 180 });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const claims = decodeJwt(String(response.body['access_token']));
    expect(claims).toMatchObject({
      sub: CLIENT,
      client_id: CLIENT,
      participant: 'firms/demo/users/alice',
      firm: 'demo',
      iss: h.auth,
      aud: h.api,
    });
    expect(String(claims['scope']).split(' ')).toContain('read:l2marketdata');
    expect(claims.exp).toBe(now() + 180);
  });

  it('issues a token for a form-encoded body', async () => {
    const response = await h.tokenRequest(tokenFields(h, CLIENT, await h.assertion()), true);
    expect(response.status).toBe(200);
    expect(typeof response.body['access_token']).toBe('string');
  });

  it('puts only the configured scopes in the token', async () => {
    const token = await h.token(CLIENT_NO_L2);
    expect(String(decodeJwt(token)['scope']).split(' ')).not.toContain('read:l2marketdata');
  });

  it('publishes the signing key as a JWKS', async () => {
    const response = await fetch(`${h.auth}/.well-known/jwks.json`);
    const body = (await response.json()) as { keys: { kty: string; alg: string }[] };
    expect(body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
  });
});

describe('token endpoint: refused assertions', () => {
  it('wrong key (signature mismatch) is invalid_client, 401', async () => {
    const response = await refused(await h.assertion(CLIENT, { key: h.otherKey }));
    expect(response.status).toBe(401);
    expect(response.body['error']).toBe('invalid_client');
    expect(response.body['error_description']).toMatch(/signature does not verify/);
  });

  it('wrong aud (the API address instead of the token endpoint) is invalid_client_assertion, 400', async () => {
    const response = await refused(await h.assertion(CLIENT, { claims: { aud: h.api } }));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
    expect(response.body['error_description']).toMatch(/aud must be the token endpoint URL/);
  });

  it('exp more than 5 minutes after iat is refused', async () => {
    const response = await refused(await h.assertion(CLIENT, { claims: { exp: now() + 301 } }));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
    expect(response.body['error_description']).toMatch(/at most 300 s/);
  });

  it('an expired assertion is refused (clock moved past exp)', async () => {
    const assertion = await h.assertion(CLIENT, { claims: { exp: now() + 60 } });
    h.clock.advance(61_000);
    const response = await refused(assertion);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
    expect(response.body['error_description']).toMatch(/expired/);
  });

  it('a reused jti is refused the second time', async () => {
    const assertion = await h.assertion();
    expect((await refused(assertion)).status).toBe(200);
    const again = await refused(assertion);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_client_assertion' });
    expect(again.body['error_description']).toMatch(/jti was already used/);
  });

  it('alg none is refused', async () => {
    const t = now();
    const assertion = unsecuredAssertion({ iss: CLIENT, sub: CLIENT, aud: h.tokenEndpoint, iat: t, exp: t + 300, jti: 'none-1' });
    const response = await refused(assertion);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
    expect(response.body['error_description']).toMatch(/alg "none" is not accepted/);
  });

  it('HS256 signed with the public key PEM as the HMAC secret (alg confusion) is refused', async () => {
    const t = now();
    const assertion = await new SignJWT({ iss: CLIENT, sub: CLIENT, aud: h.tokenEndpoint, iat: t, exp: t + 300, jti: 'hs-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(h.demoPublicPem));
    const response = await refused(assertion);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
    expect(response.body['error_description']).toMatch(/alg "HS256" is not accepted/);
  });

  it('iss or sub other than the client id is refused', async () => {
    const wrongIss = await refused(await h.assertion(CLIENT, { claims: { iss: 'someone-else' } }));
    expect(wrongIss.body['error_description']).toMatch(/iss must be the client id/);
    const wrongSub = await refused(await h.assertion(CLIENT, { claims: { sub: 'someone-else' } }));
    expect(wrongSub.body['error_description']).toMatch(/sub must be the client id/);
  });

  it('iat in the future is refused', async () => {
    const response = await refused(await h.assertion(CLIENT, { claims: { iat: now() + 120, exp: now() + 200 } }));
    expect(response.body['error_description']).toMatch(/iat .* is in the future/);
  });

  it('a missing jti is refused', async () => {
    const response = await refused(await h.assertion(CLIENT, { omit: ['jti'] }));
    expect(response.body['error_description']).toMatch(/jti is missing/);
  });

  it('garbage instead of a JWS is invalid_client_assertion', async () => {
    const response = await refused('not-a-jwt');
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
  });

  it('an unknown client is invalid_client, 401', async () => {
    const response = await refused(await h.assertion('nobody'), 'nobody');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'invalid_client' });
  });
});

describe('token endpoint: request fields', () => {
  it('audience other than the API base is invalid_request', async () => {
    const fields = { ...tokenFields(h, CLIENT, await h.assertion()), audience: 'https://elsewhere.example' };
    const response = await h.tokenRequest(fields);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_request' });
    expect(response.body['error_description']).toMatch(/audience must be the API base address/);
  });

  it('a wrong client_assertion_type is invalid_request', async () => {
    const fields = { ...tokenFields(h, CLIENT, await h.assertion()), client_assertion_type: 'password' };
    const response = await h.tokenRequest(fields);
    expect(response.body).toMatchObject({ error: 'invalid_request' });
  });

  it('another grant type is unsupported_grant_type', async () => {
    const fields = { ...tokenFields(h, CLIENT, await h.assertion()), grant_type: 'password' };
    const response = await h.tokenRequest(fields);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('a client_id that differs from the assertion issuer is refused', async () => {
    const response = await h.tokenRequest(tokenFields(h, CLIENT_NO_L2, await h.assertion(CLIENT)));
    expect(response.body).toMatchObject({ error: 'invalid_client_assertion' });
  });

  it('never echoes the assertion in an error', async () => {
    const assertion = await h.assertion(CLIENT, { claims: { aud: h.api } });
    const response = await refused(assertion);
    expect(response.text).not.toContain(assertion.split('.')[2]);
  });
});
