/**
 * Public API of the engine's portfolio: the Portfolio, its snapshots and change events, the pure
 * average-cost accounting and fee functions (exported for reports and tests) and its error codes.
 */
export { Portfolio } from './portfolio.ts';
export { PortfolioErrorCode } from './errors.ts';
export { commission } from './fees.ts';
export { moneyDigitsOf } from './money-digits.ts';
export { FLAT, type PositionState, type TradeEffect, averagePrice, settle, trade } from './position.ts';
export type {
  AccountSnapshot,
  CashDifference,
  FeeRates,
  PnlTotals,
  PortfolioChange,
  PortfolioChangeCause,
  PortfolioFill,
  PortfolioOptions,
  PortfolioSnapshot,
  PositionDifference,
  PositionSnapshot,
  ReconcileResult,
} from './types.ts';
