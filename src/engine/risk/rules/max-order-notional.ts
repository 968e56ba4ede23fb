/**
 * Config rule `maxOrderNotional`: |price| x qty of one order at most this (RISK_MAX_ORDER_NOTIONAL). A market
 * order has no price, so it is valued at the instrument's high price limit, the most it can pay per unit.
 */
import { notional, type Decimal } from '../../../domain/decimal.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function maxOrderNotionalRule(maxOrderNotional: Decimal): OrderRule {
  return {
    name: 'maxOrderNotional',
    check: ({ candidate, instrument }) => {
      const price = candidate.price ?? instrument.highPriceLimit;
      const value = notional(price.isNegative() ? price.abs() : price, candidate.qty);
      if (value.lte(maxOrderNotional)) return undefined;
      const priced = candidate.price === undefined ? `market order valued at the high price limit ${fmt(price)}` : `price ${fmt(price)}`;
      return {
        code: 'RISK_MAX_ORDER_NOTIONAL',
        message: `notional ${fmt(value)} (${priced} x qty ${fmt(candidate.qty)}) exceeds maxOrderNotional ${fmt(maxOrderNotional)}`,
      };
    },
  };
}
