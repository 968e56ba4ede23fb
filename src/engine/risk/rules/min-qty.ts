/** Instrument rule: the order quantity must reach the instrument's minimum quantity (RISK_MIN_QTY). */
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';
import { compare } from '../../decimal-compare.ts';

export function minQtyRule(): OrderRule {
  return {
    name: 'instrument.minimumQty',
    check: ({ candidate, instrument }) => {
      if (!candidate.qtyChanged || compare(candidate.qty, instrument.minimumQty) >= 0) return undefined;
      return {
        code: 'RISK_MIN_QTY',
        message: `qty ${fmt(candidate.qty)} is below the minimum quantity ${fmt(instrument.minimumQty)} of ${candidate.symbol}`,
      };
    },
  };
}
