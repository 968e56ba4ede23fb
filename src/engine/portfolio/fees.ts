/**
 * Commissions: basis points of notional, the taker rate when the bot took liquidity (or when that is
 * unknown, the conservative choice), the maker rate otherwise. Exact: bps / 10000 is a decimal shift.
 * Not rounded to the exchange's commission scale (reports may round for display).
 */
import { type Decimal, ZERO } from '../../domain/decimal.ts';
import type { FeeRates, PortfolioFill } from './types.ts';

export const NO_FEES: FeeRates = { takerBps: ZERO, makerBps: ZERO };

export function commission(notional: Decimal, aggressor: boolean | undefined, rates: FeeRates): Decimal {
  const bps = aggressor === false ? rates.makerBps : rates.takerBps;
  return notional.abs().times(bps).div(10_000);
}

/** The fee to book for `fill`: the reported one when asked for and present, else from the rates. */
export function feeOf(fill: PortfolioFill, rates: FeeRates, source: 'rates' | 'reported'): Decimal {
  if (source === 'reported' && fill.fee !== undefined) return fill.fee;
  return commission(fill.qty.times(fill.price), fill.aggressor, rates);
}
