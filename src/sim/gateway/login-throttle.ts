/**
 * The gateway's limit on password and one-time-code guessing, per username: the first FREE_FAILURES failures
 * in a row cost nothing; from then on every failure locks the username for a back-off that doubles (1 s, 2 s,
 * 4 s, ... up to MAX_BACKOFF_MS). While locked, every attempt (login, enroll_mfa, confirm_mfa,
 * change_password) is answered 429 RESOURCE_EXHAUSTED with `retry-after`, as the gateway's other limits are,
 * before the password is even looked at, so an attempt during a lockout tells nothing. A success resets the
 * count; failures older than FORGET_AFTER_MS are forgotten. Unknown usernames are counted like known ones (a
 * lockout must not reveal which names exist). Time is the sim's clock.
 */
import { SimHttpError } from '../http/errors.ts';

export const FREE_FAILURES = 5;
export const MAX_BACKOFF_MS = 15 * 60_000;
const FORGET_AFTER_MS = 15 * 60_000;
/** Usernames remembered at most (the oldest idle ones are dropped first). */
const MAX_ENTRIES = 10_000;

interface Entry {
  failures: number;
  lastFailure: number;
  lockedUntil: number;
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: { now(): number }) {}

  /** Throws 429 RESOURCE_EXHAUSTED while `username` is locked out. */
  check(username: string): void {
    const entry = this.entries.get(username);
    const now = this.clock.now();
    if (entry === undefined || now >= entry.lockedUntil) return;
    const seconds = Math.max(1, Math.ceil((entry.lockedUntil - now) / 1000));
    throw new SimHttpError(
      'RESOURCE_EXHAUSTED',
      `too many failed attempts for this username: locked for ${seconds} s; retry after ${seconds} s`,
      { 'retry-after': String(seconds) },
    );
  }

  /** Counts a failed password or one-time code for `username`, locking it from the FREE_FAILURES-th on. */
  failure(username: string): void {
    const now = this.clock.now();
    let entry = this.entries.get(username);
    if (entry === undefined || now - entry.lastFailure > FORGET_AFTER_MS) entry = { failures: 0, lastFailure: now, lockedUntil: 0 };
    entry.failures += 1;
    entry.lastFailure = now;
    if (entry.failures >= FREE_FAILURES) entry.lockedUntil = now + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (entry.failures - FREE_FAILURES));
    this.entries.delete(username);
    this.entries.set(username, entry);
    if (this.entries.size > MAX_ENTRIES) this.forgetIdle(now);
  }

  /** A success: the username's count starts again from zero. */
  success(username: string): void {
    this.entries.delete(username);
  }

  /** Drops entries neither locked nor recent, then the oldest ones beyond the bound (Map order: last failure). */
  private forgetIdle(now: number): void {
    for (const [username, entry] of this.entries) {
      if (now >= entry.lockedUntil && now - entry.lastFailure > FORGET_AFTER_MS) this.entries.delete(username);
    }
    for (const username of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES) break;
      this.entries.delete(username);
    }
  }
}
