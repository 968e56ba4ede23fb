/**
 * Samples the portfolio every `intervalMs` of market time (boundaries from the start of the data): the
 * equity feeds the returns (sharpe, sortino) and the drawdown tracker, and every sample goes to the
 * chart series with the positions and last prices. The valuation is taken only when the portfolio changed
 * since the previous sample, so long quiet stretches cost nothing.
 */
import type { Subscription } from 'rxjs';
import { ZERO, type Decimal } from '../../src/domain/decimal.ts';
import type { Portfolio } from '../../src/engine/portfolio/index.ts';
import { DrawdownTracker, ReturnStats } from '../metrics/index.ts';
import type { SeriesCollector } from './series.ts';

export interface SamplerOptions {
  readonly portfolio: Portfolio;
  readonly intervalMs: number;
  readonly start: number;
  readonly symbols: readonly string[];
  readonly series: SeriesCollector;
  readonly prices: () => ReadonlyMap<string, Decimal>;
}

export class EquitySampler {
  readonly returns = new ReturnStats();
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
    this.subscription = options.portfolio.changes$.subscribe(() => {
      this.changed = true;
    });
  }

  /** Takes the sample due at `nextTime` and moves to the next boundary. */
  sampleNext(): void {
    this.sample(this.nextTime);
    this.nextTime += this.options.intervalMs;
  }

  /**
   * A last sample at the end of the run (when it is not on a boundary already sampled). A closing part of an
   * interval (the data ending between boundaries, the stop's cancels a latency after the end) is not a period
   * of its own for sharpe and sortino: it stretches the last interval (ReturnStats.extendLastInterval).
   */
  finish(time: number): void {
    this.changed = true;
    if (time > this.lastSampleTime) this.sample(time, this.samples > 0 && time - this.lastSampleTime < this.options.intervalMs);
    this.subscription.unsubscribe();
  }

  private sample(time: number, stretchLast = false): void {
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
    if (stretchLast) this.returns.extendLastInterval(this.equity);
    else this.returns.addEquity(this.equity);
    this.drawdown.add(this.equity);
    this.options.series.sample(time, this.equity, this.drawdown.current(), this.positions, this.options.prices());
  }
}
