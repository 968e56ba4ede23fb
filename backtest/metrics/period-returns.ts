/**
 * The returns behind sharpe and sortino taken once per period from equity samples: a sample at or after the
 * next period boundary (boundaries from `start`) closes a period; a run's final sample less than a period after
 * the last one taken is the closing part of that period and stretches it (ReturnStats.extendLastInterval)
 * instead of counting as a period of its own. One rule for the backtest's sampler (results/sampler.ts) and the
 * walk-forward's joined curve (walk-forward/stitch-series.ts), so one window stitched alone gives its own ratios.
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import { ReturnStats } from './returns.ts';

export class PeriodReturns {
  readonly stats = new ReturnStats();
  /** When the last return period ended (undefined: no equity taken yet), and the next boundary. */
  private lastTime: number | undefined;
  private nextTime: number;

  constructor(
    start: number,
    private readonly periodMs: number,
  ) {
    this.nextTime = start;
  }

  /** One equity sample at `time`; `final` for a run's last sample (see the module comment). */
  add(time: number, equity: Decimal, final: boolean): void {
    const last = this.lastTime;
    if (final && last !== undefined && time - last < this.periodMs) {
      if (time > last) this.stats.extendLastInterval(equity);
    } else if (final || time >= this.nextTime) {
      this.stats.addEquity(equity);
      this.lastTime = time;
      while (this.nextTime <= time) this.nextTime += this.periodMs;
    }
  }
}
