/**
 * A strategy's timers on the engine clock: `every(name, ms)` fires each period, `after(name, ms)` fires
 * once; both run on the injected clock's scheduler (virtual time in backtests). A name is one timer:
 * setting it again (either kind) replaces it, `cancel(name)` stops it, `cancelAll()` stops every one and
 * `close()` also refuses new ones (the strategy stopped). A periodic timer schedules each period anew for
 * its due time (no drift, and a virtual-time scheduler keeps no chain of finished actions).
 */
import type { Subscription } from 'rxjs';
import type { Clock } from '../clock.ts';
import { RenewingMap } from '../../util/renewing-collections.ts';

/** One timer: re-armed for each period at its due time until cancelled (`periodMs` undefined: fires once). */
class StrategyTimer {
  private subscription: Subscription | undefined;
  private due: number;

  constructor(
    private readonly clock: Clock,
    delayMs: number,
    private readonly periodMs: number | undefined,
    private readonly fire: () => void,
  ) {
    this.due = clock.now() + delayMs;
    this.arm();
  }

  cancel(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  private arm(): void {
    this.subscription = this.clock.scheduler.schedule(
      () => {
        if (this.subscription === undefined) return;
        if (this.periodMs === undefined) {
          this.subscription = undefined;
        } else {
          this.due += this.periodMs;
          this.arm();
        }
        this.fire();
      },
      Math.max(0, this.due - this.clock.now()),
    );
  }
}

function checkDelay(what: string, name: string, ms: number, allowZero: boolean): void {
  const ok = Number.isFinite(ms) && (allowZero ? ms >= 0 : ms > 0);
  if (!ok)
    throw new RangeError(
      `${what}(${name}): the ` +
        `${allowZero ? 'delay must be a number of milliseconds >= 0' : 'period must be a positive number of milliseconds'}, got ${ms}`,
    );
}

export class StrategyTimers {
  private readonly timers = new RenewingMap<string, StrategyTimer>();
  private closed = false;

  /** `fire(name)` runs each firing (the runtime makes it an engine step). */
  constructor(
    private readonly clock: Clock,
    private readonly fire: (name: string) => void,
  ) {}

  every(name: string, periodMs: number): void {
    checkDelay('every', name, periodMs, false);
    this.set(name, periodMs, periodMs);
  }

  after(name: string, delayMs: number): void {
    checkDelay('after', name, delayMs, true);
    this.set(name, delayMs, undefined);
  }

  cancel(name: string): void {
    this.timers.get(name)?.cancel();
    this.timers.delete(name);
  }

  cancelAll(): void {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  /** Cancels every timer; later `every`/`after` calls set nothing. */
  close(): void {
    this.closed = true;
    this.cancelAll();
  }

  private set(name: string, delayMs: number, periodMs: number | undefined): void {
    this.timers.get(name)?.cancel();
    if (this.closed) return;
    const timer: StrategyTimer = new StrategyTimer(this.clock, delayMs, periodMs, () => {
      if (periodMs === undefined && this.timers.get(name) === timer) this.timers.delete(name);
      this.fire(name);
    });
    this.timers.set(name, timer);
  }
}
