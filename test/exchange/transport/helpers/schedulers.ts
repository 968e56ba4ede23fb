/**
 * Virtual-time schedulers for the promise-based transport modules (retry, token bucket, deadlines).
 * - ManualScheduler: time moves only when the test calls advanceBy/advanceTo; between due actions it lets
 *   pending promise callbacks run, so async code scheduled by an action is seen at the right virtual time.
 * - InstantScheduler: every scheduled action runs on the next microtask at its virtual due time, so waits
 *   (retry backoff, Retry-After) take no real time.
 */
import { VirtualTimeScheduler } from 'rxjs';
import type { SchedulerAction, Subscription } from 'rxjs';

/** Lets queued promise callbacks and I/O callbacks run (one macrotask turn). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class ManualScheduler extends VirtualTimeScheduler {
  /** Moves virtual time forward by `ms`, running every action that falls due on the way, in order. */
  async advanceBy(ms: number): Promise<void> {
    await this.advanceTo(this.frame + ms);
  }

  async advanceTo(target: number): Promise<void> {
    await settle();
    for (let next = this.actions[0]; next !== undefined && next.delay <= target; next = this.actions[0]) {
      this.maxFrames = next.delay;
      this.flush();
      await settle();
    }
    if (this.frame < target) this.frame = target;
  }

  /** Actions still scheduled (e.g. timers a module forgot to cancel). */
  get pending(): number {
    return this.actions.length;
  }
}

export class InstantScheduler extends VirtualTimeScheduler {
  override schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const subscription = super.schedule(work, delay, state);
    queueMicrotask(() => this.flush());
    return subscription;
  }
}
