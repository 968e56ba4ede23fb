/**
 * Backtest metrics, one module each: per-interval returns (returns.ts), sharpe.ts, sortino.ts,
 * max-drawdown.ts, turnover.ts. Money and ratios are Decimal; each works online (an accumulator) so a
 * long replay keeps no arrays, and each has a plain function form for tests and tools.
 */
export { ReturnStats, periodsPerYear } from './returns.ts';
export { sharpe } from './sharpe.ts';
export { sortino } from './sortino.ts';
export { DrawdownTracker, maxDrawdown } from './max-drawdown.ts';
export { TurnoverCounter, turnover } from './turnover.ts';
