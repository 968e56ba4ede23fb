/**
 * Exponential backoff with full jitter ("AWS full jitter"): the n-th consecutive failure waits a uniformly
 * random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))). Shared by the retry wrapper and the resilient
 * stream; the random source is injected so tests are deterministic.
 */
import { TransportError, TransportErrorCode } from './errors.ts';
import { checkNumber } from './scheduling.ts';

export interface BackoffOptions {
  /** Ceiling of the first wait, in ms. */
  baseDelayMs: number;
  /** Largest ceiling, in ms. */
  maxDelayMs: number;
}

/** A source of uniform random numbers in [0, 1), like Math.random. */
export type RandomSource = () => number;

/** The wait before retry number `failure` (1 for the first retry), in whole ms. */
export function fullJitterDelay(failure: number, options: BackoffOptions, random: RandomSource): number {
  const exponent = Math.max(0, failure - 1);
  // 2^exponent overflows to Infinity for large exponents; Math.min caps it at maxDelayMs.
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * ceiling);
}

/** Throws TRANSPORT_INVALID_OPTIONS when the backoff options cannot work. */
export function validateBackoff(owner: string, options: BackoffOptions): void {
  const problems = [
    checkNumber(`${owner}.baseDelayMs`, options.baseDelayMs),
    checkNumber(`${owner}.maxDelayMs`, options.maxDelayMs),
    options.maxDelayMs < options.baseDelayMs
      ? `${owner}.maxDelayMs (${options.maxDelayMs}) must be >= baseDelayMs (${options.baseDelayMs})`
      : undefined,
  ].filter((p): p is string => p !== undefined);
  if (problems.length > 0) {
    throw new TransportError(TransportErrorCode.InvalidOptions, problems.join('; '));
  }
}
