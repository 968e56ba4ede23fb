/**
 * Config rule `maxOpenOrders`: the bot's working and in-flight orders, after this order and after any
 * self-match cancels sent before it, stay within the limit (RISK_MAX_OPEN_ORDERS). A replace keeps the
 * count; cross legs never rest.
 */
import type { OrderRule } from './rule.ts';

export function maxOpenOrdersRule(maxOpenOrders: number): OrderRule {
  return {
    name: 'maxOpenOrders',
    check: ({ candidate, exposure, withdrawn }) => {
      if (!candidate.rests || candidate.replaces !== undefined) return undefined;
      const open = exposure.openOrders.length - withdrawn.length;
      if (open + 1 <= maxOpenOrders) return undefined;
      return { code: 'RISK_MAX_OPEN_ORDERS', message: `${open} open orders: one more would exceed maxOpenOrders ${maxOpenOrders}` };
    },
  };
}
