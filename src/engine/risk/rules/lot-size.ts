/** Instrument rule: the order quantity must be a whole number of lots (qtyIncrement) (RISK_LOT_SIZE). */
import { multipleOfTick, type Decimal } from '../../../domain/decimal.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function lotSizeRule(): OrderRule {
  const tests = new Map<string, (value: Decimal) => boolean>();
  return {
    name: 'instrument.qtyIncrement',
    check: ({ candidate, instrument }) => {
      if (!candidate.qtyChanged) return undefined;
      let onLot = tests.get(instrument.symbol);
      if (onLot === undefined) tests.set(instrument.symbol, (onLot = multipleOfTick(instrument.qtyIncrement)));
      if (onLot(candidate.qty)) return undefined;
      return {
        code: 'RISK_LOT_SIZE',
        message: `qty ${fmt(candidate.qty)} is not a multiple of the lot ${fmt(instrument.qtyIncrement)} of ${candidate.symbol}`,
      };
    },
  };
}
