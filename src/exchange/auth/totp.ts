/**
 * RFC 6238 time-based one-time passwords (via otpauth): SHA-1, 6 digits, 30-second period, the defaults
 * authenticator apps use. The client generates codes from a configured base32 secret; the simulator
 * validates them with a window of one period either side and hands out `otpauth://totp/...` enrolment URLs.
 */
import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;
const DIGITS = 6;

export function generateTotp(secretBase32: string, nowMs: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secretBase32), digits: DIGITS, period: PERIOD, algorithm: 'SHA1', timestamp: nowMs });
}

/** True when `code` is valid for the period of `nowMs` or one period before or after. */
export function validateTotp(secretBase32: string, code: string, nowMs: number): boolean {
  if (!/^[0-9]{6}$/.test(code)) return false;
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secretBase32), digits: DIGITS, period: PERIOD, algorithm: 'SHA1', timestamp: nowMs, window: 1 });
  return delta !== null;
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function enrollmentUrl(secretBase32: string, issuer: string, account: string): string {
  return new TOTP({ issuer, label: account, secret: Secret.fromBase32(secretBase32), digits: DIGITS, period: PERIOD, algorithm: 'SHA1' }).toString();
}

/** The secret carried by an `otpauth://totp/...?secret=...` URL. */
export function secretFromEnrollmentUrl(url: string): string {
  const secret = new URL(url).searchParams.get('secret');
  if (secret === null || secret === '') throw new Error('the enrollment URL carries no secret');
  return secret;
}
