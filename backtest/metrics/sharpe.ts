/**
 * Sharpe ratio of per-interval equity returns, annualised: mean / sample standard deviation x
 * sqrt(periods per year), risk-free rate 0. Undefined with fewer than two returns or no variation.
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
