/**
 * Maximum drawdown of the equity curve, online: the largest fall from a running peak, as money
 * (peak - equity) and as a fraction of that peak. `current()` is the drawdown now (<= 0 as equity - peak),
 * for the underwater chart.
 */
import { ZERO, type Decimal } from '../../src/domain/decimal.ts';

export class DrawdownTracker {
  private peak: Decimal | undefined;
  private last: Decimal = ZERO;
  maxAmount: Decimal = ZERO;
  maxFraction: Decimal = ZERO;

  add(equity: Decimal): void {
    if (this.peak === undefined || equity.gt(this.peak)) this.peak = equity;
    const drop = this.peak.minus(equity);
    this.last = drop.neg();
    if (drop.gt(this.maxAmount)) this.maxAmount = drop;
    if (this.peak.gt(0)) {
      const fraction = drop.div(this.peak);
      if (fraction.gt(this.maxFraction)) this.maxFraction = fraction;
    }
  }

  /** equity - peak at the last point (0 at a new high). */
  current(): Decimal {
    return this.last;
  }
}

/** The maximum drawdown (money) of a whole curve. */
export function maxDrawdown(equity: readonly Decimal[]): Decimal {
  const tracker = new DrawdownTracker();
  for (const e of equity) tracker.add(e);
  return tracker.maxAmount;
}
