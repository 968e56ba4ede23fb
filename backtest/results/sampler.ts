/**
 * Samples the portfolio every `intervalMs` of market time (boundaries from the start of the data): every
 * sample feeds the drawdown tracker and the chart series (with the positions and last prices); the returns
 * behind sharpe and sortino are taken once per `returnsPeriodMs` (default the interval; an hour or a day for
 * long data: metrics/ratio-period.ts), from the first sample at or after each period boundary. The valuation
 * is taken only when the portfolio changed since the previous sample, so long quiet stretches cost nothing.
 */
import type { Subscription } from 'rxjs';
import { ZERO, type Decimal } from '../../src/domain/decimal.ts';
import type { Portfolio } from '../../src/engine/portfolio/index.ts';
import { DrawdownTracker, PeriodReturns, type ReturnStats } from '../metrics/index.ts';
import type { SeriesCollector } from './series.ts';

export interface SamplerOptions {
  readonly portfolio: Portfolio;
  readonly intervalMs: number;
  readonly start: number;
  readonly symbols: readonly string[];
  readonly series: SeriesCollector;
  readonly prices: () => ReadonlyMap<string, Decimal>;
  /** The period of the returns (sharpe, sortino); default intervalMs. */
  readonly returnsPeriodMs?: number;
}

export class EquitySampler {
  private readonly periodReturns: PeriodReturns;
  readonly drawdown = new DrawdownTracker();
  nextTime: number;
  samples = 0;
  private changed = true;
  private lastSampleTime = Number.NEGATIVE_INFINITY;
  private equity: Decimal = ZERO;
  private positions = new Map<string, Decimal>();
  private readonly subscription: Subscription;

  constructor(private readonly options: SamplerOptions) {
    this.nextTime = options.start;
    this.periodReturns = new PeriodReturns(options.start, options.returnsPeriodMs ?? options.intervalMs);
    this.subscription = options.portfolio.changes$.subscribe(() => {
      this.changed = true;
    });
  }

  /** The returns behind sharpe and sortino (metrics/period-returns.ts). */
  get returns(): ReturnStats {
    return this.periodReturns.stats;
  }

  /** Takes the sample due at `nextTime` and moves to the next boundary. */
  sampleNext(): void {
    this.sample(this.nextTime);
    this.nextTime += this.options.intervalMs;
  }

  /**
   * A last sample at the end of the run (when it is not on a boundary already sampled). A closing part of a
   * period (the data ending between boundaries, the stop's cancels a latency after the end) is not a period
   * of its own for sharpe and sortino: it stretches the last period (ReturnStats.extendLastInterval).
   */
  finish(time: number): void {
    this.changed = true;
    if (time > this.lastSampleTime) this.sample(time, true);
    this.subscription.unsubscribe();
  }

  private sample(time: number, final = false): void {
    if (this.changed) {
      // the snapshot's equity and positions without building the snapshot (same arithmetic, same order)
      const valuation = this.options.portfolio.valuation();
      this.equity = valuation.equity;
      const positions = new Map<string, Decimal>();
      for (const p of valuation.positions) positions.set(p.symbol, (positions.get(p.symbol) ?? ZERO).plus(p.qty));
      for (const s of this.options.symbols) if (!positions.has(s)) positions.set(s, ZERO);
      this.positions = positions;
      this.changed = false;
    }
    this.samples++;
    this.lastSampleTime = time;
    this.periodReturns.add(time, this.equity, final);
    this.drawdown.add(this.equity);
    this.options.series.sample(time, this.equity, this.drawdown.current(), this.positions, this.options.prices());
  }
}
