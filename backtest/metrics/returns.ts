/**
 * Per-interval equity returns, accumulated online (count, sum, sum of squares, sum of squared losses)
 * so sharpe and sortino need no array of the whole run. A return is equity(t) / equity(t - interval) - 1,
 * in Decimal; an interval that starts at zero or negative equity has no return and is skipped.
 */
import { Decimal, ZERO } from '../../src/domain/decimal.ts';

export class ReturnStats {
  count = 0;
  sum: Decimal = ZERO;
  sumSquares: Decimal = ZERO;
  /** Sum of min(r, 0)^2. */
  downsideSquares: Decimal = ZERO;
  /** Returns below zero (none: sortino is undefined, its downside deviation 0). */
  losing = 0;
  private previous: Decimal | undefined;
  /** The equity at the start of the last interval, and that interval's return (undefined: none counted). */
  private lastStart: Decimal | undefined;
  private lastReturn: Decimal | undefined;

  /** Adds the equity at the end of the next interval. */
  addEquity(equity: Decimal): void {
    const previous = this.previous;
    this.previous = equity;
    this.lastStart = previous;
    this.lastReturn = undefined;
    if (previous === undefined || previous.lte(0)) return;
    this.lastReturn = equity.div(previous).minus(1);
    this.addReturn(this.lastReturn);
  }

  /**
   * The equity a little later than the last interval's end (a run's closing part of an interval): the last
   * interval is stretched to end there, its return recomputed, instead of a short period counted as a whole
   * one. With no interval yet, the same as addEquity.
   */
  extendLastInterval(equity: Decimal): void {
    const start = this.lastStart;
    if (start === undefined) {
      this.addEquity(equity);
      return;
    }
    this.previous = equity;
    if (this.lastReturn !== undefined) this.removeReturn(this.lastReturn);
    this.lastReturn = undefined;
    if (start.lte(0)) return;
    this.lastReturn = equity.div(start).minus(1);
    this.addReturn(this.lastReturn);
  }

  addReturn(r: Decimal): void {
    this.count++;
    this.sum = this.sum.plus(r);
    this.sumSquares = this.sumSquares.plus(r.times(r));
    if (r.isNegative() && !r.isZero()) {
      this.downsideSquares = this.downsideSquares.plus(r.times(r));
      this.losing++;
    }
  }

  private removeReturn(r: Decimal): void {
    this.count--;
    this.sum = this.sum.minus(r);
    this.sumSquares = this.sumSquares.minus(r.times(r));
    if (r.isNegative() && !r.isZero()) {
      this.downsideSquares = this.downsideSquares.minus(r.times(r));
      this.losing--;
    }
  }

  static of(returns: readonly Decimal[]): ReturnStats {
    const stats = new ReturnStats();
    for (const r of returns) stats.addReturn(r);
    return stats;
  }

  mean(): Decimal | undefined {
    return this.count === 0 ? undefined : this.sum.div(this.count);
  }
}

/** Intervals per year of `intervalMs` (365 days: event contracts trade every day). */
export function periodsPerYear(intervalMs: number): Decimal {
  return new Decimal(365 * 24 * 3600 * 1000).div(intervalMs);
}
