// The logger factory: JSON lines by default, and secrets masked whatever way they reach a log call.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.ts';
import { redactSecrets, REDACTED } from '../../src/logging/redact.ts';
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
    lines: () => chunks.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>),
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

  it('masks secrets under secret-named keys at any depth', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: false, level: 'debug' });
    log.debug(
      { user: { username: 'alice', password: 'hunter2', mfaSecret: 'JBSWY3DPEHPK3PXP' }, headers: { Authorization: 'abc' }, refresh_token: 'r1', otp: '123456' },
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
});
