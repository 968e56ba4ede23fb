/**
 * Config rule `maxPosition`: per symbol and account, the worst-case position on the order's side (position
 * + every open order on that side + this order) stays within ±maxPosition (RISK_MAX_POSITION). Orders on the
 * other side are not counted: they may be cancelled, so they cannot be relied on to offset.
 */
import type { Decimal } from '../../../domain/decimal.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function maxPositionRule(maxPosition: Decimal): OrderRule {
  const floor = maxPosition.negated();
  return {
    name: 'maxPosition',
    check: ({ candidate, exposure }) => {
      const worst = exposure.worstAfter(candidate);
      const within = candidate.side === 'BUY' ? worst.lte(maxPosition) : worst.gte(floor);
      if (within) return undefined;
      const position = exposure.position(candidate.symbol, candidate.account);
      const open = exposure.openQty(candidate.symbol, candidate.account, candidate.side, candidate.replaces);
      return {
        code: 'RISK_MAX_POSITION',
        message:
          `position ${fmt(worst)} in ${candidate.symbol} (${candidate.account}) would exceed maxPosition ${fmt(maxPosition)}: ` +
          `position ${fmt(position)}, open ${candidate.side} orders ${fmt(open)}, this order ${fmt(candidate.qty)}`,
      };
    },
  };
}
