/**
 * Retry wrapper: a Transport that repeats failed IDEMPOTENT calls with exponential backoff and full jitter.
 *
 * A call is repeated only when `request.idempotent` is true AND the error is retryable (kind connectivity or
 * rate-limited: connect failures, timeouts, resets, 5xx, 429). A non-idempotent call is never sent twice,
 * whatever failed. Order inserts count as idempotent only when the caller reuses the same clord_id for every
 * attempt (see HttpRequest.idempotent). A server Retry-After (429/503) is a floor for the wait; one longer than
 * `maxRetryAfterMs` ends the retries with that error. Waits go through the injected scheduler and stop at once
 * when the request's AbortSignal fires.
 */
import { asyncScheduler } from 'rxjs';
import type { SchedulerLike } from 'rxjs';
import { isTradebotError } from '../../errors.ts';
import { TransportError, TransportErrorCode } from './errors.ts';
import { fullJitterDelay, validateBackoff } from './backoff.ts';
import type { RandomSource } from './backoff.ts';
import { checkNumber, sleep } from './scheduling.ts';
import type { HttpRequest, HttpResponse, Transport } from './http-types.ts';

export interface RetryInfo {
  /** The attempt that failed (1 = the first call). */
  attempt: number;
  /** Wait before the next attempt, ms. */
  delayMs: number;
  error: unknown;
  request: Pick<HttpRequest, 'method' | 'path'>;
}

export interface RetryOptions {
  /** Total attempts including the first. Default 4. */
  maxAttempts?: number;
  /** Ceiling of the first backoff, ms. Default 200. */
  baseDelayMs?: number;
  /** Largest backoff ceiling, ms. Default 10 000. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown. Default 60 000. */
  maxRetryAfterMs?: number;
  /** Uniform [0,1) source for the jitter. Default Math.random. */
  random?: RandomSource;
  /** Clock/timer for the waits. Default asyncScheduler. */
  scheduler?: SchedulerLike;
  /** Which errors may be retried (idempotency is always required on top). Default: TradebotError.retryable. */
  isRetryable?: (error: unknown) => boolean;
  /** Called before each wait (for logging: it sees method and path only). */
  onRetry?: (info: RetryInfo) => void;
}

export function defaultIsRetryable(error: unknown): boolean {
  return isTradebotError(error) && error.retryable;
}

function retryAfterOf(error: unknown): number | undefined {
  if (!isTradebotError(error)) return undefined;
  const value = error.details?.['retryAfterMs'];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Wraps `transport` so idempotent calls that fail retryably are repeated; see the module header. */
export function withRetry(transport: Transport, options: RetryOptions = {}): Transport {
  const maxAttempts = options.maxAttempts ?? 4;
  const backoff = { baseDelayMs: options.baseDelayMs ?? 200, maxDelayMs: options.maxDelayMs ?? 10_000 };
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const problems = [
    checkNumber('retry.maxAttempts', maxAttempts, { min: 1, integer: true }),
    checkNumber('retry.maxRetryAfterMs', maxRetryAfterMs),
  ].filter((p): p is string => p !== undefined);
  if (problems.length > 0) throw new TransportError(TransportErrorCode.InvalidOptions, problems.join('; '));
  validateBackoff('retry', backoff);
  const random = options.random ?? Math.random;
  const scheduler = options.scheduler ?? asyncScheduler;
  const isRetryable = options.isRetryable ?? defaultIsRetryable;

  const request = async (req: HttpRequest): Promise<HttpResponse> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transport.request(req);
      } catch (error) {
        if (!req.idempotent || attempt >= maxAttempts || !isRetryable(error)) throw error;
        const retryAfter = retryAfterOf(error);
        if (retryAfter !== undefined && retryAfter > maxRetryAfterMs) throw error;
        const delayMs = Math.max(retryAfter ?? 0, fullJitterDelay(attempt, backoff, random));
        options.onRetry?.({ attempt, delayMs, error, request: { method: req.method, path: req.path } });
        await sleep(scheduler, delayMs, req.signal);
      }
    }
  };
  return { request, close: () => transport.close() };
}
