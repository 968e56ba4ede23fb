/**
 * Errors the Portfolio throws on invalid input (stable codes; a caller bug, not exchange data).
 */
import { TradebotError } from '../../errors.ts';

export const PortfolioErrorCode = {
  /** A fill with a non-positive quantity, a negative price or an unknown side. */
  INVALID_FILL: 'PORTFOLIO_INVALID_FILL',
  /** A settlement price outside [0, 1] (event contracts settle at 0 or 1). */
  INVALID_SETTLEMENT_PRICE: 'PORTFOLIO_INVALID_SETTLEMENT_PRICE',
  /** A negative mark price. */
  INVALID_MARK: 'PORTFOLIO_INVALID_MARK',
  /** Negative commission rates. */
  INVALID_OPTIONS: 'PORTFOLIO_INVALID_OPTIONS',
} as const;

export type PortfolioErrorCode = (typeof PortfolioErrorCode)[keyof typeof PortfolioErrorCode];

export function portfolioError(code: PortfolioErrorCode, message: string, details: Record<string, unknown>): TradebotError {
  return new TradebotError(code, message, { kind: 'validation', details });
}
