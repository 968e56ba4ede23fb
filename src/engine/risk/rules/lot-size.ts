/** Instrument rule: the order quantity must be a whole number of lots (qtyIncrement) (RISK_LOT_SIZE). */
import { isMultipleOf } from '../../../domain/decimal.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function lotSizeRule(): OrderRule {
  return {
    name: 'instrument.qtyIncrement',
    check: ({ candidate, instrument }) => {
      if (!candidate.qtyChanged || isMultipleOf(candidate.qty, instrument.qtyIncrement)) return undefined;
      return {
        code: 'RISK_LOT_SIZE',
        message: `qty ${fmt(candidate.qty)} is not a multiple of the lot ${fmt(instrument.qtyIncrement)} of ${candidate.symbol}`,
      };
    },
  };
}
