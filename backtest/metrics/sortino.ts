/**
 * Sortino ratio of per-period equity returns: mean / downside deviation, x sqrt(periods per year) when
 * annualised (pass 1 otherwise: ratio-period.ts), where the downside deviation is sqrt(sum(min(r, 0)^2) / n)
 * (target 0). Undefined with fewer than two returns or no losing period.
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import type { ReturnStats } from './returns.ts';

export function sortino(stats: ReturnStats, periodsPerYear: Decimal): Decimal | undefined {
  const n = stats.count;
  const mean = stats.mean();
  if (n < 2 || mean === undefined || stats.downsideSquares.lte(0)) return undefined;
  const downside = stats.downsideSquares.div(n).sqrt();
  return mean.div(downside).times(periodsPerYear.sqrt());
}
