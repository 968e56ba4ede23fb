// The logger factory: JSON lines by default, and secrets masked whatever way they reach a log call.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.ts';
import { isSecretKey, keyWords, redactSecrets, REDACTED } from '../../src/logging/redact.ts';
import { TradebotError } from '../../src/errors.ts';

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJib3QiLCJleHAiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';

function capture(): { lines: () => Record<string, unknown>[]; raw: () => string; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return {
    stream,
    raw: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('logger', () => {
  it('writes JSON lines with level labels and ISO times', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false });
    log.info({ symbol: 'ABC' }, 'hello');
    const [line] = out.lines();
    expect(line).toMatchObject({ level: 'info', msg: 'hello', symbol: 'ABC', name: 'tradebot' });
    expect(String(line?.['time'])).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("takes each record's time from the clock it is given (a backtest's market time)", () => {
    const out = capture();
    let now = Date.UTC(2026, 10, 30, 14, 25, 0);
    const log = createLogger({ destination: out.stream, pretty: false, now: () => now });
    log.warn('first');
    now += 1500;
    log.warn('second');
    expect(out.lines().map((l) => l['time'])).toEqual(['2026-11-30T14:25:00.000Z', '2026-11-30T14:25:01.500Z']);
  });

  it('masks secrets under secret-named keys at any depth', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false, level: 'debug' });
    log.debug(
      {
        user: { username: 'alice', password: 'hunter2', mfaSecret: 'JBSWY3DPEHPK3PXP' },
        headers: { Authorization: 'abc' },
        refresh_token: 'r1',
        otp: '123456',
      },
      'login',
    );
    const text = out.raw();
    for (const secret of ['hunter2', 'JBSWY3DPEHPK3PXP', '"abc"', 'r1', '123456']) expect(text).not.toContain(secret);
    expect(out.lines()[0]).toMatchObject({ user: { username: 'alice', password: REDACTED } });
  });

  it('masks JWTs, PEM keys and otpauth URLs inside messages and innocent fields', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false });
    log.info({ note: `got ${JWT}`, body: PEM, url: 'otpauth://totp/x?secret=ABC' }, `token is ${JWT}`);
    const text = out.raw();
    expect(text).not.toContain(JWT);
    expect(text).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    expect(text).not.toContain('secret=ABC');
  });

  it('masks secrets in logged errors, keeping the stable code', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false });
    log.error({ err: new TradebotError('AUTH_FAILED', `bad token ${JWT}`, { details: { password: 'pw' } }) }, 'failed');
    const text = out.raw();
    expect(text).not.toContain(JWT);
    expect(text).not.toContain('"pw"');
    expect(out.lines()[0]?.['err']).toMatchObject({ code: 'AUTH_FAILED' });
  });

  it('writes readable lines when pretty', () => {
    const out = capture();
    createLogger({ destination: out.stream, pretty: true }).warn({ password: 'hunter2' }, 'careful');
    expect(out.raw()).toContain('careful');
    expect(out.raw()).not.toContain('hunter2');
  });

  it('redactSecrets copies without mutating and survives cycles', () => {
    const input: Record<string, unknown> = { token: 't', nested: { ok: 1 } };
    input['self'] = input;
    const output = redactSecrets(input) as Record<string, unknown>;
    expect(output['token']).toBe(REDACTED);
    expect(output['self']).toBe('[Circular]');
    expect(input['token']).toBe('t');
  });

  it('masks keys by the words of their name, not only exact names', () => {
    const secretNames = [
      'signingSecret',
      'apiSecret',
      'secretKey',
      'sessionToken',
      'clientSecret',
      'refresh_token',
      'otpSeed',
      'privateKeyPem',
      'privateKeyPEM',
      'mfaSecret',
      'mfa_secret',
      'OTPSeed',
      'x-api-key',
      'apiKey',
      'apikey',
      'client_assertion',
      'clientAssertion',
      'Authorization',
      'proxy-authorization',
      'set-cookie',
      'cookie',
      'db_passwd',
      'newPassword',
      'old_password',
      'passphrase',
      'idToken',
      'accessToken',
      'registrationToken',
      'enrollmentUrl',
      'otpauth_url',
      'mfaCode',
      'totp',
      'otp',
      'seed',
      'walletSeed',
      'jwt',
      'credentials',
      'signingKey',
      'hmacKey',
      'bearer',
      'tokens',
    ];
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false });
    const record = Object.fromEntries(secretNames.map((name, i) => [name, `s3cr3t-value-${i}`]));
    log.info({ sim: { signingSecret: 'sim-signing-secret-xyz' }, ...record }, 'config');
    const text = out.raw();
    expect(text).not.toContain('s3cr3t-value-');
    expect(text).not.toContain('sim-signing-secret-xyz');
    const line = out.lines()[0] as Record<string, unknown>;
    for (const name of secretNames) expect(line[name], name).toBe(REDACTED);
    for (const name of secretNames) expect(isSecretKey(name), name).toBe(true);
  });

  it('leaves keys that only describe a secret readable', () => {
    const harmless = [
      'tokenType',
      'token_type',
      'expires_in',
      'accessTokenTtlSeconds',
      'refreshTokenTtlSeconds',
      'privateKeyFile',
      'publicKeyFile',
      'mfaEnabled',
      'client_assertion_type',
      'tokenUrl',
      'username',
      'symbol',
      'key',
      'code',
      'clientId',
      'passwordPolicy',
      'otpLength',
      'keyId',
      'bypass',
      'passed',
      'participant',
    ];
    for (const name of harmless) expect(isSecretKey(name), name).toBe(false);
    const out = capture();
    createLogger({ destination: out.stream, pretty: false }).info({ token_type: 'Bearer', expires_in: 900, tokenType: 'access' }, 'token');
    expect(out.lines()[0]).toMatchObject({ token_type: 'Bearer', expires_in: 900, tokenType: 'access' });
  });

  it('splits key names at camelCase humps and separators', () => {
    expect(keyWords('privateKeyPEM')).toEqual(['private', 'key', 'pem']);
    expect(keyWords('OTPSeed')).toEqual(['otp', 'seed']);
    expect(keyWords('x-api-key')).toEqual(['x', 'api', 'key']);
    expect(keyWords('refresh_token')).toEqual(['refresh', 'token']);
  });
});
