/** Instrument rule: the order quantity must reach the instrument's minimum quantity (RISK_MIN_QTY). */
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function minQtyRule(): OrderRule {
  return {
    name: 'instrument.minimumQty',
    check: ({ candidate, instrument }) => {
      if (!candidate.qtyChanged || candidate.qty.gte(instrument.minimumQty)) return undefined;
      return {
        code: 'RISK_MIN_QTY',
        message: `qty ${fmt(candidate.qty)} is below the minimum quantity ${fmt(instrument.minimumQty)} of ${candidate.symbol}`,
      };
    },
  };
}
