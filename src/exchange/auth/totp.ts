/**
 * RFC 6238 time-based one-time passwords (via otpauth): SHA-1, 6 digits, 30-second period, the defaults
 * authenticator apps use. The client generates codes from a configured base32 secret; the simulator
 * validates them with a window of one period either side and hands out `otpauth://totp/...` enrolment URLs.
 * A verifier must not accept one OTP twice (RFC 6238 section 5.2): `acceptTotp` takes the last time step the
 * verifier accepted for the user and refuses a code of that step or an earlier one, so a client that logs in
 * twice within one 30-second period must wait for the next code.
 */
import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;
const DIGITS = 6;

export function generateTotp(secretBase32: string, nowMs: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secretBase32), digits: DIGITS, period: PERIOD, algorithm: 'SHA1', timestamp: nowMs });
}

/** The RFC 6238 time step (counter) of `nowMs`: whole periods since the Unix epoch. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / PERIOD);
}

/** The time step whose code `code` is (the period of `nowMs` or one either side), or undefined. */
export function matchTotpStep(secretBase32: string, code: string, nowMs: number): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    digits: DIGITS,
    period: PERIOD,
    algorithm: 'SHA1',
    timestamp: nowMs,
    window: 1,
  });
  return delta === null ? undefined : totpStep(nowMs) + delta;
}

/**
 * Verifies `code` with replay protection: the time step it belongs to when it is valid now and later than
 * `lastAcceptedStep` (the step of the user's previous accepted code), else undefined. The caller stores the
 * returned step as the user's new last accepted step.
 */
export function acceptTotp(secretBase32: string, code: string, nowMs: number, lastAcceptedStep: number | undefined): number | undefined {
  const step = matchTotpStep(secretBase32, code, nowMs);
  if (step === undefined) return undefined;
  return lastAcceptedStep !== undefined && step <= lastAcceptedStep ? undefined : step;
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function enrollmentUrl(secretBase32: string, issuer: string, account: string): string {
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secretBase32),
    digits: DIGITS,
    period: PERIOD,
    algorithm: 'SHA1',
  }).toString();
}

/** The secret carried by an `otpauth://totp/...?secret=...` URL. */
export function secretFromEnrollmentUrl(url: string): string {
  const secret = new URL(url).searchParams.get('secret');
  if (secret === null || secret === '') throw new Error('the enrollment URL carries no secret');
  return secret;
}
