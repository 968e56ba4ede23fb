/**
 * The pipeline's only source of time. Live runs use the wall clock (RxJS asyncScheduler); backtests use a
 * VirtualClock whose time moves only when the replay says so, so a day of history runs in seconds and is
 * deterministic. Pipeline code asks `clock.now()` and schedules through `clock.scheduler`, never the wall
 * clock or Node's timers directly.
 */
import { asyncScheduler, VirtualTimeScheduler, VirtualAction, type SchedulerLike } from 'rxjs';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  readonly scheduler: SchedulerLike;
}

export function liveClock(): Clock {
  return { now: () => asyncScheduler.now(), scheduler: asyncScheduler };
}

/**
 * Virtual time starting at `startMs`: `advanceTo(t)` runs every action scheduled up to `t` in order and
 * leaves the clock at `t`. Time never moves backwards.
 */
export class VirtualClock implements Clock {
  private readonly virtual: VirtualTimeScheduler;
  private readonly origin: number;

  constructor(startMs: number) {
    this.origin = startMs;
    this.virtual = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
  }

  get scheduler(): SchedulerLike {
    return this.offsetScheduler;
  }

  now(): number {
    return this.origin + this.virtual.now();
  }

  /** When the earliest scheduled action is due (epoch ms), +Infinity when none is. */
  nextActionTime(): number {
    const next = this.virtual.actions[0];
    return next === undefined ? Number.POSITIVE_INFINITY : this.origin + next.delay;
  }

  /**
   * Runs the earliest scheduled action (and whatever is due at that same instant), moving the clock to it.
   * By the scheduler's own frame, not through epoch ms: `origin + delay` cannot hold a fractional delay
   * exactly at epoch magnitudes, and a rounded-down time would run nothing.
   */
  runNextAction(): void {
    const next = this.virtual.actions[0];
    if (next === undefined) return;
    const target = Math.max(next.delay, this.virtual.frame);
    this.virtual.maxFrames = target;
    this.virtual.flush();
    this.virtual.frame = target;
  }

  advanceTo(timeMs: number): void {
    const target = timeMs - this.origin;
    if (target < this.virtual.frame) return;
    // a backtest moves the clock on every trade: when no action is due by then, flushing would run none
    const next = this.virtual.actions[0];
    if (next === undefined || next.delay > target) {
      this.virtual.frame = target;
      return;
    }
    this.virtual.maxFrames = target;
    this.virtual.flush();
    this.virtual.frame = target;
  }

  private readonly offsetScheduler: SchedulerLike = {
    now: () => this.now(),
    schedule: (work, delay, state) => this.virtual.schedule(work as never, delay, state),
  } as SchedulerLike;
}
