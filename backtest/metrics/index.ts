/**
 * Backtest metrics, one module each: per-period returns (returns.ts, taken per period by period-returns.ts),
 * the period ratios are computed over (ratio-period.ts), sharpe.ts, sortino.ts, max-drawdown.ts, turnover.ts.
 * Money and ratios are Decimal; each works online (an accumulator) so a long replay keeps no arrays, and each
 * has a plain function form for tests and tools.
 */
export { ReturnStats, periodsPerYear } from './returns.ts';
export { PeriodReturns } from './period-returns.ts';
export { choosePeriod, enough, MIN_RETURNS, periodText, ratioReasons, scaleOf, type RatioPeriod } from './ratio-period.ts';
export { sharpe } from './sharpe.ts';
export { sortino } from './sortino.ts';
export { DrawdownTracker, maxDrawdown } from './max-drawdown.ts';
export { TurnoverCounter, turnover } from './turnover.ts';
