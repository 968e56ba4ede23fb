/**
 * Token bucket rate limiter with a FIFO wait queue. `acquire()` resolves when the caller may send: at once
 * while tokens remain and nobody is queued, otherwise in arrival order as tokens refill at `ratePerSecond`.
 * The bucket holds at most `burst` tokens, so over any interval of length T at most `burst + rate * T` calls
 * pass. The queue is bounded (TRANSPORT_RATE_LIMIT_QUEUE_FULL beyond it) and each wait can be aborted.
 * Time comes from the injected scheduler. One bucket may be shared by several transports (per-firm limit).
 */
import { asyncScheduler } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import { TransportError, TransportErrorCode, abortedError } from './errors.ts';
import { checkNumber } from './scheduling.ts';

export interface TokenBucketOptions {
  /** Sustained rate. Default 80/s: below the venue's 100 messages/s per firm. */
  ratePerSecond?: number;
  /** Bucket size: calls that may pass back to back after a quiet period. Default 10. */
  burst?: number;
  /** Most callers that may wait; more are refused at once. Default 1 000. */
  maxQueue?: number;
  /** Clock/timer. Default asyncScheduler. */
  scheduler?: SchedulerLike;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class TokenBucket {
  readonly ratePerSecond: number;
  readonly burst: number;
  readonly maxQueue: number;
  private readonly scheduler: SchedulerLike;
  private tokens: number;
  private updatedAt: number;
  private readonly queue: Waiter[] = [];
  private timer: Subscription | undefined;
  private closed = false;

  constructor(options: TokenBucketOptions = {}) {
    this.ratePerSecond = options.ratePerSecond ?? 80;
    this.burst = options.burst ?? 10;
    this.maxQueue = options.maxQueue ?? 1_000;
    const problems = [
      checkNumber('rateLimit.ratePerSecond', this.ratePerSecond, { min: Number.MIN_VALUE }),
      checkNumber('rateLimit.burst', this.burst, { min: 1, integer: true }),
      checkNumber('rateLimit.maxQueue', this.maxQueue, { min: 0, integer: true, allowInfinity: true }),
    ].filter((p): p is string => p !== undefined);
    if (problems.length > 0) throw new TransportError(TransportErrorCode.InvalidOptions, problems.join('; '));
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.tokens = this.burst;
    this.updatedAt = this.scheduler.now();
  }

  /** Callers waiting for a token. */
  get queued(): number {
    return this.queue.length;
  }

  /** Resolves when a call may be sent; rejects with TRANSPORT_ABORTED, ..._QUEUE_FULL or TRANSPORT_CLOSED. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(new TransportError(TransportErrorCode.Closed, 'the rate limiter is closed'));
    if (signal?.aborted === true) return Promise.reject(abortedError(signal, 'rate-limit wait'));
    this.refill();
    if (this.queue.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new TransportError(
          TransportErrorCode.RateLimitQueueFull,
          `client-side rate limit queue is full (${this.maxQueue} waiting at ${this.ratePerSecond}/s); slow down or raise maxQueue`,
          { details: { maxQueue: this.maxQueue, ratePerSecond: this.ratePerSecond } },
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.queue.indexOf(waiter);
          if (i !== -1) this.queue.splice(i, 1);
          reject(abortedError(signal, 'rate-limit wait'));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
      this.armTimer();
    });
  }

  /** Rejects every waiter with TRANSPORT_CLOSED and refuses new ones. */
  close(): void {
    this.closed = true;
    this.timer?.unsubscribe();
    this.timer = undefined;
    for (const waiter of this.queue.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new TransportError(TransportErrorCode.Closed, 'the rate limiter was closed while waiting'));
    }
  }

  private refill(): void {
    const now = this.scheduler.now();
    const elapsed = now - this.updatedAt;
    if (elapsed > 0) {
      this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.ratePerSecond) / 1000);
      this.updatedAt = now;
    }
  }

  private release(): void {
    this.timer = undefined;
    this.refill();
    while (this.queue.length > 0 && this.tokens >= 1) {
      this.tokens -= 1;
      const waiter = this.queue.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve();
    }
    this.armTimer();
  }

  /** Schedules the next release for when one whole token will be there (at least 1 ms away). */
  private armTimer(): void {
    if (this.timer !== undefined || this.queue.length === 0 || this.closed) return;
    const waitMs = Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.ratePerSecond));
    this.timer = this.scheduler.schedule(() => this.release(), waitMs);
  }
}
