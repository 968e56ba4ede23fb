/**
 * resilientStream: keeps a server stream alive. It subscribes to `factory(attempt)` and, when that stream
 * errors, completes unexpectedly or stays silent for `silenceTimeoutMs`, drops it and subscribes to a fresh
 * `factory(attempt + 1)` after an exponential backoff with full jitter. Because each attempt goes through the
 * factory, the caller sends fresh auth headers and resume tokens every time. Generic over T: used for the
 * gateway's NDJSON streams and, later, gRPC streams.
 *
 * Lifecycle events let consumers mark state stale and reconcile:
 * - `connected` when an attempt delivers its first message (proof the stream is live; usually the snapshot);
 * - `message` for every message not dropped as a duplicate;
 * - `disconnected` with the reason ('error' | 'completed' | 'silence' | 'unauthenticated'), the error, and
 *   whether and when it reconnects.
 * Errors of kind authentication await `onUnauthenticated` (token refresh) before the next attempt (after a
 * first-failure delay when it returned a promise that resolved: the renewal reached the venue); without
 * the hook, or after `maxConsecutiveAuthFailures`, they are fatal. `isFatal` errors (default: rejection,
 * permission, config) stop the stream: a `disconnected` event with willReconnect false, then the error.
 * `wake` (e.g. a successful login: the venue is reachable again) cuts a backoff being waited out: the next
 * attempt comes after a first-failure delay (`baseDelayMs` ceiling) and the failure count restarts, so a stream
 * that climbed to the 30 s ceiling while the venue was down does not keep waiting once it is back; `onWake`
 * says when the next try now is.
 * All timing goes through the injected scheduler (virtual time in tests).
 */
import { Observable, asyncScheduler, from } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import { isTradebotError } from '../../errors.ts';
import { TransportError, TransportErrorCode } from './errors.ts';
import { fullJitterDelay, validateBackoff } from './backoff.ts';
import type { RandomSource } from './backoff.ts';
import { LruSet } from '../../util/lru-set.ts';
import { checkNumber } from './scheduling.ts';
import type { DisconnectReason } from '../../domain/stream-events.ts';

export type { DisconnectReason };

export type StreamEvent<T> =
  | { readonly type: 'connected'; readonly attempt: number }
  | { readonly type: 'message'; readonly attempt: number; readonly message: T }
  | {
      readonly type: 'disconnected';
      readonly attempt: number;
      readonly reason: DisconnectReason;
      readonly error: unknown;
      readonly willReconnect: boolean;
      /** Backoff before the next attempt (after onUnauthenticated, when that runs). */
      readonly retryInMs: number | undefined;
    };

export interface ResilientStreamOptions<T> {
  /** Clock/timer. Default asyncScheduler. */
  scheduler?: SchedulerLike;
  /** Silence (no message) that means the stream is dead, ms. Default 180 000; 0 disables the watchdog. */
  silenceTimeoutMs?: number;
  /** Backoff ceiling of the first reconnect, ms. Default 500. */
  baseDelayMs?: number;
  /** Largest backoff ceiling, ms. Default 30 000. */
  maxDelayMs?: number;
  random?: RandomSource;
  /** Consecutive attempts without a message before giving up (STREAM_RECONNECT_EXHAUSTED). Default Infinity. */
  maxConsecutiveFailures?: number;
  /** True when completion of this attempt is the normal end (e.g. snapshot_only): the result completes. */
  expectCompletion?: boolean | ((attempt: number) => boolean);
  /** Errors that stop the stream for good. Default: TradebotError of kind rejection, permission or config. */
  isFatal?: (error: unknown) => boolean;
  /** Awaited after an authentication error, before the next attempt (refresh the token here). */
  onUnauthenticated?: (error: unknown, attempt: number) => void | Promise<void>;
  /** Authentication errors in a row (no message between) before they become fatal. Default 3. */
  maxConsecutiveAuthFailures?: number;
  /** Key identifying a message; a key seen before (in any attempt) is dropped. `undefined` keys always pass. */
  dedupeKey?: (message: T) => string | undefined;
  /** Keys remembered for deduplication. Default 10 000. */
  dedupeCapacity?: number;
  /** Emits when the venue is known reachable again (a successful login): a pending backoff is cut short. */
  wake?: Observable<unknown>;
  /** Called when `wake` rescheduled the next attempt: the attempt that failed and the new delay, ms. */
  onWake?: (event: { readonly attempt: number; readonly retryInMs: number }) => void;
}

export function defaultIsFatal(error: unknown): boolean {
  return isTradebotError(error) && (error.kind === 'rejection' || error.kind === 'permission' || error.kind === 'config');
}

interface Attempt {
  readonly n: number;
  done: boolean;
  live: boolean;
  lastMessageAt: number;
  sub: Subscription | undefined;
  watchdog: Subscription | undefined;
}

/** A self-healing view of `factory`'s streams as lifecycle events; see the module header. */
export function resilientStream<T>(
  factory: (attempt: number) => Observable<T>,
  options: ResilientStreamOptions<T> = {},
): Observable<StreamEvent<T>> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const silenceMs = options.silenceTimeoutMs ?? 180_000;
  const backoff = { baseDelayMs: options.baseDelayMs ?? 500, maxDelayMs: options.maxDelayMs ?? 30_000 };
  const maxFailures = options.maxConsecutiveFailures ?? Infinity;
  const maxAuthFailures = options.maxConsecutiveAuthFailures ?? 3;
  const problems = [
    checkNumber('resilientStream.silenceTimeoutMs', silenceMs),
    checkNumber('resilientStream.maxConsecutiveFailures', maxFailures, { min: 1, integer: true, allowInfinity: true }),
    checkNumber('resilientStream.maxConsecutiveAuthFailures', maxAuthFailures, { min: 0, integer: true, allowInfinity: true }),
  ].filter((p): p is string => p !== undefined);
  if (problems.length > 0) throw new TransportError(TransportErrorCode.InvalidOptions, problems.join('; '));
  validateBackoff('resilientStream', backoff);
  const random = options.random ?? Math.random;
  const isFatal = options.isFatal ?? defaultIsFatal;
  const expectCompletion = options.expectCompletion ?? false;

  return new Observable<StreamEvent<T>>((subscriber) => {
    const seen = options.dedupeKey === undefined ? undefined : new LruSet(options.dedupeCapacity ?? 10_000);
    let attemptCount = 0;
    let failures = 0;
    let authFailures = 0;
    let current: Attempt | undefined;
    let pending: Subscription | undefined; // the backoff timer or the onUnauthenticated wait
    let backingOff: Attempt | undefined; // set while `pending` is a plain backoff timer (what `wake` may cut)

    const start = (): void => {
      pending = undefined;
      if (subscriber.closed) return;
      attemptCount += 1;
      const attempt: Attempt = {
        n: attemptCount,
        done: false,
        live: false,
        lastMessageAt: scheduler.now(),
        sub: undefined,
        watchdog: undefined,
      };
      current = attempt;
      let source: Observable<T>;
      try {
        source = factory(attempt.n);
      } catch (error) {
        end(attempt, 'error', error);
        return;
      }
      if (silenceMs > 0) armWatchdog(attempt);
      const sub = source.subscribe({
        next: (message) => onMessage(attempt, message),
        error: (error: unknown) => end(attempt, 'error', error),
        complete: () => end(attempt, 'completed', undefined),
      });
      if (attempt.done) sub.unsubscribe();
      else attempt.sub = sub;
    };

    const armWatchdog = (attempt: Attempt): void => {
      const check = (): void => {
        if (attempt.done) return;
        const idle = scheduler.now() - attempt.lastMessageAt;
        if (idle >= silenceMs) {
          end(
            attempt,
            'silence',
            new TransportError(TransportErrorCode.StreamSilence, `no stream message for ${idle} ms (limit ${silenceMs} ms)`, {
              details: { silenceTimeoutMs: silenceMs, attempt: attempt.n },
            }),
          );
        } else {
          attempt.watchdog = scheduler.schedule(check, silenceMs - idle);
        }
      };
      attempt.watchdog = scheduler.schedule(check, silenceMs);
    };

    const onMessage = (attempt: Attempt, message: T): void => {
      if (attempt.done) return;
      attempt.lastMessageAt = scheduler.now();
      if (!attempt.live) {
        attempt.live = true;
        failures = 0;
        authFailures = 0;
        subscriber.next({ type: 'connected', attempt: attempt.n });
      }
      const key = seen === undefined ? undefined : options.dedupeKey?.(message);
      if (key !== undefined && seen?.checkAndAdd(key) === true) return;
      subscriber.next({ type: 'message', attempt: attempt.n, message });
    };

    /** Final 'disconnected' event, then error (or complete, for an expected completion). */
    const stop = (attempt: Attempt, reason: DisconnectReason, error: unknown, failed = true): void => {
      subscriber.next({ type: 'disconnected', attempt: attempt.n, reason, error, willReconnect: false, retryInMs: undefined });
      if (failed) subscriber.error(error);
      else subscriber.complete();
    };

    const end = (attempt: Attempt, reason: DisconnectReason, error: unknown): void => {
      if (attempt.done || subscriber.closed) return;
      attempt.done = true;
      attempt.watchdog?.unsubscribe();
      attempt.sub?.unsubscribe();

      if (reason === 'completed') {
        const expected = typeof expectCompletion === 'function' ? expectCompletion(attempt.n) : expectCompletion;
        if (expected) return stop(attempt, reason, undefined, false);
      }
      if (reason === 'error' && isFatal(error)) return stop(attempt, reason, error);
      const unauthenticated = reason === 'error' && isTradebotError(error) && error.kind === 'authentication';
      if (unauthenticated) {
        authFailures += 1;
        if (options.onUnauthenticated === undefined || authFailures > maxAuthFailures) return stop(attempt, 'unauthenticated', error);
      }
      failures += 1;
      if (failures > maxFailures) {
        const exhausted = new TransportError(
          TransportErrorCode.StreamReconnectExhausted,
          `stream failed ${failures} times in a row without a message; giving up`,
          { cause: error, details: { failures, lastReason: reason } },
        );
        return stop(attempt, reason, exhausted);
      }
      const delay = fullJitterDelay(failures, backoff, random);
      subscriber.next({
        type: 'disconnected',
        attempt: attempt.n,
        reason: unauthenticated ? 'unauthenticated' : reason,
        error,
        willReconnect: true,
        retryInMs: delay,
      });
      if (subscriber.closed) return;
      if (unauthenticated) refreshThen(attempt, error, delay);
      else backOff(attempt, delay);
    };

    const backOff = (attempt: Attempt, delay: number): void => {
      backingOff = attempt;
      pending = scheduler.schedule(() => {
        backingOff = undefined;
        start();
      }, delay);
    };

    const onWake = (): void => {
      const attempt = backingOff;
      if (attempt === undefined || subscriber.closed) return;
      pending?.unsubscribe();
      failures = 0;
      const delay = fullJitterDelay(1, backoff, random);
      options.onWake?.({ attempt: attempt.n, retryInMs: delay });
      backOff(attempt, delay);
    };

    /**
     * Runs onUnauthenticated (sync or async), then waits `delay`. A hook failure is fatal: the 'disconnected'
     * event was already sent, so the stream just errors with the hook's error.
     */
    const refreshThen = (attempt: Attempt, error: unknown, delay: number): void => {
      let result: void | Promise<void>;
      try {
        result = options.onUnauthenticated?.(error, attempt.n);
      } catch (hookError) {
        subscriber.error(hookError);
        return;
      }
      if (result === undefined || typeof (result as { then?: unknown }).then !== 'function') {
        backOff(attempt, delay);
        return;
      }
      // a renewal that went through reached the venue: the next attempt gets a first-failure delay
      pending = from(result).subscribe({
        error: (hookError: unknown) => subscriber.error(hookError),
        complete: () => {
          failures = 0;
          const sooner = Math.min(delay, fullJitterDelay(1, backoff, random));
          if (sooner < delay) options.onWake?.({ attempt: attempt.n, retryInMs: sooner });
          backOff(attempt, sooner);
        },
      });
    };

    const wakeSub = options.wake?.subscribe(onWake);
    start();
    return () => {
      wakeSub?.unsubscribe();
      pending?.unsubscribe();
      if (current !== undefined) {
        current.done = true;
        current.watchdog?.unsubscribe();
        current.sub?.unsubscribe();
      }
    };
  });
}
