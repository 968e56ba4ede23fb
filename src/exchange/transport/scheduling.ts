/**
 * Time for the promise-based transport modules, through an injected RxJS SchedulerLike: `scheduler.now()` is
 * the clock and `scheduler.schedule()` the timer. Production passes `asyncScheduler`; tests pass a virtual-time
 * scheduler (or use fake timers), so no module here calls Date.now() or setTimeout directly.
 */
import type { SchedulerLike, Subscription } from 'rxjs';
import { abortedError } from './errors.ts';

/**
 * Resolves after `ms` of scheduler time. Rejects with TRANSPORT_ABORTED when `signal` fires first; the
 * timer is cancelled either way, so nothing is left scheduled.
 */
export function sleep(scheduler: SchedulerLike, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortedError(signal, 'wait'));
  return new Promise<void>((resolve, reject) => {
    const handle: { timer?: Subscription } = {};
    const onAbort = (): void => {
      handle.timer?.unsubscribe();
      reject(abortedError(signal, 'wait'));
    };
    // Listen first: a scheduler that runs the work synchronously must still remove the listener.
    signal?.addEventListener('abort', onAbort, { once: true });
    handle.timer = scheduler.schedule(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
  });
}

/** Validates a numeric option; returns the fix-it message when it is wrong, otherwise undefined. */
export function checkNumber(
  name: string,
  value: number,
  { min = 0, integer = false, allowInfinity = false }: { min?: number; integer?: boolean; allowInfinity?: boolean } = {},
): string | undefined {
  if (Number.isNaN(value) || (!allowInfinity && !Number.isFinite(value))) {
    return `${name} must be a finite number (got ${String(value)})`;
  }
  if (value < min) return `${name} must be >= ${min} (got ${value})`;
  if (integer && Number.isFinite(value) && !Number.isInteger(value)) {
    return `${name} must be an integer (got ${value})`;
  }
  return undefined;
}
