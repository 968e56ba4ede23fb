/**
 * Sharpe ratio of per-period equity returns: mean / sample standard deviation x sqrt(periods per year) when
 * annualised (pass 1 for a ratio per period, not annualised: ratio-period.ts), risk-free rate 0. Undefined with
 * fewer than two returns or no variation.
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import type { ReturnStats } from './returns.ts';

export function sharpe(stats: ReturnStats, periodsPerYear: Decimal): Decimal | undefined {
  const n = stats.count;
  const mean = stats.mean();
  if (n < 2 || mean === undefined) return undefined;
  const variance = stats.sumSquares.minus(mean.times(mean).times(n)).div(n - 1);
  if (variance.lte(0)) return undefined;
  return mean.div(variance.sqrt()).times(periodsPerYear.sqrt());
}
