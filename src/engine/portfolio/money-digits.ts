/**
 * The Portfolio's `moneyDigits` from instruments: the decimal places of a money figure in each symbol, its
 * price places plus its quantity places (a price of cents times whole contracts: 2). Released costs are
 * rounded to them (position.ts), so every cost and PnL figure is exact at the instrument's scales.
 */
import { scalesOf } from '../../domain/index.ts';

export function moneyDigitsOf(
  instruments: Iterable<{ readonly symbol: string; readonly priceScale: number; readonly fractionalQtyScale: number }>,
): Record<string, number> {
  const digits: Record<string, number> = {};
  for (const instrument of instruments) {
    const scales = scalesOf(instrument);
    digits[instrument.symbol] = scales.priceDigits + scales.qtyDigits;
  }
  return digits;
}
