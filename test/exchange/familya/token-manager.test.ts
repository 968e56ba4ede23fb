// TokenManager against a fake token server: the assertion's claims (RS256, iss/sub/aud, exp - iat <= 300,
// a fresh jti each time), caching and refresh before the margin, one exchange for concurrent callers,
// invalidate(), OAuth errors as typed errors, and no secrets in errors.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport, TransportErrorCode, withRateLimit } from '../../../src/exchange/transport/index.ts';
import { FamilyAErrorCode, TokenManager, scopesOfToken } from '../../../src/exchange/familya/index.ts';
import type { TokenManagerOptions } from '../../../src/exchange/familya/index.ts';
import { startFakeExchange } from './helpers/fake-exchange.ts';
import type { FakeExchange } from './helpers/fake-exchange.ts';
import { makeKeys, testClock } from './helpers/keys.ts';

const CLIENT = 'client-123';
const keys = makeKeys();
let clock = testClock();
let fake: FakeExchange;
const transports: HttpTransport[] = [];

beforeAll(async () => {
  fake = await startFakeExchange({
    clientId: CLIENT,
    publicKey: keys.publicKey,
    now: () => clock.now(),
    scopes: ['read:marketdata', 'read:l2marketdata', 'write:orders'],
  });
});
afterAll(() => fake.close());
afterEach(async () => {
  clock = testClock();
  fake.tokenRequests.length = 0;
  fake.tokenFailures.length = 0;
  fake.tokenTtlSeconds = 180;
  fake.holdTokens = undefined;
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

function manager(over: Partial<TokenManagerOptions> = {}): TokenManager {
  const http = new HttpTransport({ baseUrl: over.authUrl ?? fake.authUrl });
  transports.push(http);
  return new TokenManager({
    clientId: CLIENT,
    authUrl: fake.authUrl,
    apiUrl: fake.apiUrl,
    privateKey: keys.privateKey,
    transport: withRateLimit(http),
    now: () => clock.now(),
    ...over,
  });
}

describe('client assertion', () => {
  it('is RS256 with iss = sub = client id, aud = the token endpoint, exp at most 5 minutes after iat', async () => {
    await manager().getToken();
    const [request] = fake.tokenRequests;
    expect(request?.header).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(request?.claims).toMatchObject({ iss: CLIENT, sub: CLIENT, aud: fake.tokenEndpoint, iat: Math.floor(clock.now() / 1000) });
    const { iat, exp } = request?.claims as { iat: number; exp: number };
    expect(exp - iat).toBeGreaterThan(0);
    expect(exp - iat).toBeLessThanOrEqual(300);
  });

  it('sends the token request the spec describes, with the API base as audience', async () => {
    await manager().getToken();
    expect(fake.tokenRequests[0]?.body).toEqual({
      client_id: CLIENT,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: expect.stringMatching(/^eyJ/),
      audience: fake.apiUrl,
      grant_type: 'client_credentials',
    });
  });

  it('carries a fresh random jti on every exchange', async () => {
    const tokens = manager();
    for (let i = 0; i < 4; i++) {
      await tokens.getToken();
      tokens.invalidate();
    }
    const jtis = fake.tokenRequests.map((r) => r.claims.jti);
    expect(jtis).toHaveLength(4);
    expect(new Set(jtis).size).toBe(4);
    for (const jti of jtis) expect(jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('strips a trailing slash from the API base for the audience', async () => {
    await manager({ apiUrl: `${fake.apiUrl}/` }).getToken();
    expect(fake.tokenRequests[0]?.body['audience']).toBe(fake.apiUrl);
  });
});

describe('caching and refresh', () => {
  it('reuses the token until 30 s before expiry, then renews it', async () => {
    const tokens = manager();
    const first = await tokens.getToken();
    expect(tokens.info()).toMatchObject({
      expiresInSeconds: 180,
      tokenType: 'Bearer',
      expiresAt: clock.now() + 180_000,
      refreshAt: clock.now() + 150_000,
    });
    clock.advance(149_999);
    expect(await tokens.getToken()).toBe(first);
    expect(fake.tokenRequests).toHaveLength(1);
    clock.advance(1);
    const second = await tokens.getToken();
    expect(second).not.toBe(first);
    expect(fake.tokenRequests).toHaveLength(2);
    expect(tokens.exchanges).toBe(2);
  });

  it('honours a configured margin, capped at half a short lifetime', async () => {
    const tokens = manager({ refreshMarginSeconds: 60 });
    await tokens.getToken();
    expect(tokens.info()?.refreshAt).toBe(clock.now() + 120_000);
    fake.tokenTtlSeconds = 20;
    tokens.invalidate();
    await tokens.getToken();
    expect(tokens.info()?.refreshAt).toBe(clock.now() + 10_000);
  });

  it('runs one exchange for concurrent callers, who all get the same token', async () => {
    let release!: () => void;
    fake.holdTokens = new Promise<void>((resolve) => (release = resolve));
    const tokens = manager();
    const calls = Array.from({ length: 8 }, () => tokens.getToken());
    release();
    const results = await Promise.all(calls);
    expect(new Set(results).size).toBe(1);
    expect(fake.tokenRequests).toHaveLength(1);
  });

  it('tokens$ emits once per token obtained (the signal that wakes gRPC streams waiting out a backoff)', async () => {
    const tokens = manager();
    let obtained = 0;
    const subscription = tokens.tokens$.subscribe(() => (obtained += 1));
    try {
      const first = await tokens.getToken();
      await tokens.getToken(); // cached: no exchange, no emission
      expect(obtained).toBe(1);
      tokens.invalidate(first);
      await tokens.getToken();
      expect(obtained).toBe(2);
      fake.tokenFailures.push({ status: 503 });
      tokens.invalidate();
      await expect(tokens.getToken()).rejects.toThrow();
      expect(obtained).toBe(2); // a failed exchange says nothing of the venue being back
    } finally {
      subscription.unsubscribe();
    }
  });

  it('invalidate(token) drops only the token that was refused', async () => {
    const tokens = manager();
    const first = await tokens.getToken();
    tokens.invalidate(first);
    const second = await tokens.getToken();
    expect(second).not.toBe(first);
    tokens.invalidate(first);
    expect(await tokens.getToken()).toBe(second);
    expect(fake.tokenRequests).toHaveLength(2);
  });

  it('exposes the scopes of the token and never the token itself', async () => {
    const tokens = manager();
    const token = await tokens.getToken();
    expect(tokens.info()?.scopes).toEqual(['read:marketdata', 'read:l2marketdata', 'write:orders']);
    expect(JSON.stringify(tokens.info())).not.toContain(token);
    expect(scopesOfToken('not-a-jwt')).toEqual([]);
  });
});

describe('failures', () => {
  it('maps invalid_client to FAMILY_A_TOKEN_REJECTED carrying the OAuth code', async () => {
    fake.tokenFailures.push({ status: 401, body: { error: 'invalid_client', error_description: 'unknown key' } });
    const error = await manager()
      .getToken()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: FamilyAErrorCode.TokenRejected,
      kind: 'authentication',
      oauthError: 'invalid_client',
      httpStatus: 401,
      retryable: false,
    });
    expect((error as Error).message).toContain('privateKeyFile');
  });

  it('maps invalid_client_assertion to FAMILY_A_TOKEN_REJECTED with a hint about aud, exp and jti', async () => {
    fake.tokenFailures.push({ status: 400, body: { error: 'invalid_client_assertion', error_description: 'aud mismatch' } });
    const error = await manager()
      .getToken()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: FamilyAErrorCode.TokenRejected, oauthError: 'invalid_client_assertion' });
    expect((error as Error).message).toMatch(/aud mismatch.*jti/);
  });

  it('reports a signature that does not match the onboarded key', async () => {
    const other = makeKeys();
    const error = await manager({ privateKey: other.privateKey })
      .getToken()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: FamilyAErrorCode.TokenRejected, oauthError: 'invalid_client' });
  });

  it('never puts the assertion, the private key or a token in an error', async () => {
    fake.tokenFailures.push({ status: 400, body: { error: 'invalid_client_assertion', error_description: 'bad' } });
    const error = await manager()
      .getToken()
      .catch((e: unknown) => e);
    const assertion = fake.tokenRequests[0]?.body['client_assertion'] as string;
    const text = JSON.stringify({
      message: (error as Error).message,
      details: (error as { details?: unknown }).details,
      cause: String((error as Error).cause),
    });
    expect(text).not.toContain(assertion);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(keys.privatePem.split('\n')[1]);
  });

  it('passes connectivity failures through as retryable, and the next call tries again', async () => {
    const tokens = manager({ authUrl: 'http://127.0.0.1:1' });
    const error = await tokens.getToken().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: TransportErrorCode.ConnectFailed, retryable: true });
  });

  it('keeps using a still-valid token when a renewal inside the margin fails retryably', async () => {
    const tokens = manager();
    const first = await tokens.getToken();
    clock.advance(160_000);
    fake.tokenFailures.push({ status: 503, body: { error: 'server_error' } });
    expect(await tokens.getToken()).toBe(first);
    clock.advance(20_000);
    fake.tokenFailures.push({ status: 503, body: { error: 'server_error' } });
    await expect(tokens.getToken()).rejects.toMatchObject({ code: TransportErrorCode.ServerError });
    expect(await tokens.getToken()).not.toBe(first);
  });

  it('refuses a token response without a token', async () => {
    fake.tokenFailures.push({ status: 200, body: { token_type: 'Bearer', expires_in: 180 } });
    await expect(manager().getToken()).rejects.toMatchObject({ code: FamilyAErrorCode.BadResponse });
  });

  it('validates its options', () => {
    expect(() => manager({ clientId: '' })).toThrow(expect.objectContaining({ code: FamilyAErrorCode.InvalidOptions }));
    expect(() => manager({ refreshMarginSeconds: -1 })).toThrow(expect.objectContaining({ code: FamilyAErrorCode.InvalidOptions }));
  });
});
