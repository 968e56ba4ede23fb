/** Config rule `maxOrderQty`: no single order above this quantity (RISK_MAX_ORDER_QTY). */
import type { Decimal } from '../../../domain/decimal.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function maxOrderQtyRule(maxOrderQty: Decimal): OrderRule {
  return {
    name: 'maxOrderQty',
    check: ({ candidate }) => {
      if (candidate.qty.lte(maxOrderQty)) return undefined;
      return { code: 'RISK_MAX_ORDER_QTY', message: `qty ${fmt(candidate.qty)} exceeds maxOrderQty ${fmt(maxOrderQty)}` };
    },
  };
}
