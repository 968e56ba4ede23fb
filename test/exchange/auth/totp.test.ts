// RFC 6238 codes: generation and the verifier's replay protection (a code is accepted once, section 5.2).
import { describe, expect, it } from 'vitest';
import { acceptTotp, generateTotp, matchTotpStep, totpStep } from '../../../src/exchange/auth/totp.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const T = Date.UTC(2026, 0, 5, 10, 0, 15); // 15 s into a period

describe('totp', () => {
  it('matches a code to its time step within one period either side', () => {
    const step = totpStep(T);
    expect(step).toBe(Math.floor(T / 30_000));
    expect(matchTotpStep(SECRET, generateTotp(SECRET, T), T)).toBe(step);
    expect(matchTotpStep(SECRET, generateTotp(SECRET, T - 30_000), T)).toBe(step - 1);
    expect(matchTotpStep(SECRET, generateTotp(SECRET, T + 30_000), T)).toBe(step + 1);
    expect(matchTotpStep(SECRET, generateTotp(SECRET, T - 90_000), T)).toBeUndefined();
    expect(matchTotpStep(SECRET, 'abcdef', T)).toBeUndefined();
  });

  it('accepts a code only for a step after the last accepted one', () => {
    const code = generateTotp(SECRET, T);
    const step = acceptTotp(SECRET, code, T, undefined);
    expect(step).toBe(totpStep(T));
    expect(acceptTotp(SECRET, code, T, step)).toBeUndefined();
    expect(acceptTotp(SECRET, code, T + 10_000, step)).toBeUndefined();
    expect(acceptTotp(SECRET, generateTotp(SECRET, T - 30_000), T, step)).toBeUndefined();
    expect(acceptTotp(SECRET, generateTotp(SECRET, T + 30_000), T + 30_000, step)).toBe((step as number) + 1);
    // a code from the next period, accepted early, blocks the current period's code afterwards
    const ahead = acceptTotp(SECRET, generateTotp(SECRET, T + 30_000), T, undefined);
    expect(acceptTotp(SECRET, generateTotp(SECRET, T), T, ahead)).toBeUndefined();
  });
});
