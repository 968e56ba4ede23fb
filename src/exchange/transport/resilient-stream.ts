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
import type { SchedulerLike, Subscriber, Subscription } from 'rxjs';
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

/** What resilientStream settled from its options (checked once, when the stream is made). */
interface Settings {
  readonly scheduler: SchedulerLike;
  readonly silenceMs: number;
  readonly backoff: { readonly baseDelayMs: number; readonly maxDelayMs: number };
  readonly maxFailures: number;
  readonly maxAuthFailures: number;
  readonly random: RandomSource;
  readonly isFatal: (error: unknown) => boolean;
  readonly expectCompletion: boolean | ((attempt: number) => boolean);
}

/** The options with their defaults; INVALID_OPTIONS naming every bad number. */
function settingsOf<T>(options: ResilientStreamOptions<T>): Settings {
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
  return { scheduler, silenceMs, backoff, maxFailures, maxAuthFailures, random, isFatal, expectCompletion };
}

/** A self-healing view of `factory`'s streams as lifecycle events; see the module header. */
export function resilientStream<T>(
  factory: (attempt: number) => Observable<T>,
  options: ResilientStreamOptions<T> = {},
): Observable<StreamEvent<T>> {
  const settings = settingsOf(options);
  return new Observable<StreamEvent<T>>((subscriber) => {
    const session = new StreamSession(subscriber, factory, options, settings);
    const wakeSub = options.wake?.subscribe(() => session.wake());
    session.start();
    return () => {
      wakeSub?.unsubscribe();
      session.close();
    };
  });
}

/** One subscription to a resilient stream: its attempts, failure counts, dedupe memory and pending wait. */
class StreamSession<T> {
  private readonly seen: LruSet | undefined;
  private attemptCount = 0;
  private failures = 0;
  private authFailures = 0;
  private current: Attempt | undefined;
  private pending: Subscription | undefined; // the backoff timer or the onUnauthenticated wait
  private backingOff: Attempt | undefined; // set while `pending` is a plain backoff timer (what `wake` may cut)

  constructor(
    private readonly subscriber: Subscriber<StreamEvent<T>>,
    private readonly factory: (attempt: number) => Observable<T>,
    private readonly options: ResilientStreamOptions<T>,
    private readonly settings: Settings,
  ) {
    this.seen = options.dedupeKey === undefined ? undefined : new LruSet(options.dedupeCapacity ?? 10_000);
  }

  /** A new attempt (scheduled as a plain function: the scheduler calls it with its own `this`). */
  readonly start = (): void => {
    this.pending = undefined;
    if (this.subscriber.closed) return;
    this.attemptCount += 1;
    const attempt: Attempt = {
      n: this.attemptCount,
      done: false,
      live: false,
      lastMessageAt: this.settings.scheduler.now(),
      sub: undefined,
      watchdog: undefined,
    };
    this.current = attempt;
    let source: Observable<T>;
    try {
      source = this.factory(attempt.n);
    } catch (error) {
      this.end(attempt, 'error', error);
      return;
    }
    if (this.settings.silenceMs > 0) this.armWatchdog(attempt);
    const sub = source.subscribe({
      next: (message) => this.onMessage(attempt, message),
      error: (error: unknown) => this.end(attempt, 'error', error),
      complete: () => this.end(attempt, 'completed', undefined),
    });
    if (attempt.done) sub.unsubscribe();
    else attempt.sub = sub;
  };

  /** The unsubscribe: the pending wait and the current attempt end. */
  close(): void {
    this.pending?.unsubscribe();
    if (this.current !== undefined) {
      this.current.done = true;
      this.current.watchdog?.unsubscribe();
      this.current.sub?.unsubscribe();
    }
  }

  private armWatchdog(attempt: Attempt): void {
    const { scheduler, silenceMs } = this.settings;
    const check = (): void => {
      if (attempt.done) return;
      const idle = scheduler.now() - attempt.lastMessageAt;
      if (idle >= silenceMs) {
        this.end(
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
  }

  private onMessage(attempt: Attempt, message: T): void {
    if (attempt.done) return;
    attempt.lastMessageAt = this.settings.scheduler.now();
    if (!attempt.live) {
      attempt.live = true;
      this.failures = 0;
      this.authFailures = 0;
      this.subscriber.next({ type: 'connected', attempt: attempt.n });
    }
    const key = this.seen === undefined ? undefined : this.options.dedupeKey?.(message);
    if (key !== undefined && this.seen?.checkAndAdd(key) === true) return;
    this.subscriber.next({ type: 'message', attempt: attempt.n, message });
  }

  /** Final 'disconnected' event, then error (or complete, for an expected completion). */
  private stop(attempt: Attempt, reason: DisconnectReason, error: unknown, failed = true): void {
    this.subscriber.next({ type: 'disconnected', attempt: attempt.n, reason, error, willReconnect: false, retryInMs: undefined });
    if (failed) this.subscriber.error(error);
    else this.subscriber.complete();
  }

  private end(attempt: Attempt, reason: DisconnectReason, error: unknown): void {
    if (attempt.done || this.subscriber.closed) return;
    attempt.done = true;
    attempt.watchdog?.unsubscribe();
    attempt.sub?.unsubscribe();
    const { expectCompletion, isFatal } = this.settings;
    if (reason === 'completed') {
      const expected = typeof expectCompletion === 'function' ? expectCompletion(attempt.n) : expectCompletion;
      if (expected) return this.stop(attempt, reason, undefined, false);
    }
    if (reason === 'error' && isFatal(error)) return this.stop(attempt, reason, error);
    const unauthenticated = reason === 'error' && isTradebotError(error) && error.kind === 'authentication';
    if (unauthenticated) {
      this.authFailures += 1;
      if (this.options.onUnauthenticated === undefined || this.authFailures > this.settings.maxAuthFailures)
        return this.stop(attempt, 'unauthenticated', error);
    }
    this.failures += 1;
    if (this.failures > this.settings.maxFailures) {
      const exhausted = new TransportError(
        TransportErrorCode.StreamReconnectExhausted,
        `stream failed ${this.failures} times in a row without a message; giving up`,
        { cause: error, details: { failures: this.failures, lastReason: reason } },
      );
      return this.stop(attempt, reason, exhausted);
    }
    this.reconnect(attempt, unauthenticated ? 'unauthenticated' : reason, error, unauthenticated);
  }

  /** A 'disconnected' event that announces the next attempt, after the backoff (and the token refresh). */
  private reconnect(attempt: Attempt, reason: DisconnectReason, error: unknown, unauthenticated: boolean): void {
    const delay = fullJitterDelay(this.failures, this.settings.backoff, this.settings.random);
    this.subscriber.next({ type: 'disconnected', attempt: attempt.n, reason, error, willReconnect: true, retryInMs: delay });
    if (this.subscriber.closed) return;
    if (unauthenticated) this.refreshThen(attempt, error, delay);
    else this.backOff(attempt, delay);
  }

  /** The next attempt after `delay`, a wait `wake` may cut short. */
  private backOff(attempt: Attempt, delay: number): void {
    this.backingOff = attempt;
    this.pending = this.settings.scheduler.schedule(() => {
      this.backingOff = undefined;
      this.start();
    }, delay);
  }

  /** The venue is reachable again: a backoff being waited out restarts with a first-failure delay. */
  wake(): void {
    const attempt = this.backingOff;
    if (attempt === undefined || this.subscriber.closed) return;
    this.pending?.unsubscribe();
    this.failures = 0;
    const delay = fullJitterDelay(1, this.settings.backoff, this.settings.random);
    this.options.onWake?.({ attempt: attempt.n, retryInMs: delay });
    this.backOff(attempt, delay);
  }

  /**
   * Runs onUnauthenticated (sync or async), then waits `delay`. A hook failure is fatal: the 'disconnected'
   * event was already sent, so the stream just errors with the hook's error.
   */
  private refreshThen(attempt: Attempt, error: unknown, delay: number): void {
    let result: void | Promise<void>;
    try {
      result = this.options.onUnauthenticated?.(error, attempt.n);
    } catch (hookError) {
      this.subscriber.error(hookError);
      return;
    }
    if (result === undefined || typeof (result as { then?: unknown }).then !== 'function') {
      this.backOff(attempt, delay);
      return;
    }
    // a renewal that went through reached the venue: the next attempt gets a first-failure delay
    this.pending = from(result).subscribe({
      error: (hookError: unknown) => this.subscriber.error(hookError),
      complete: () => {
        this.failures = 0;
        const sooner = Math.min(delay, fullJitterDelay(1, this.settings.backoff, this.settings.random));
        if (sooner < delay) this.options.onWake?.({ attempt: attempt.n, retryInMs: sooner });
        this.backOff(attempt, sooner);
      },
    });
  }
}
