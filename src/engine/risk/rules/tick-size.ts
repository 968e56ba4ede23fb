/** Instrument rule: a limit price must be a multiple of the instrument's tick size (RISK_TICK_SIZE). */
import { isMultipleOf } from '../../../domain/decimal.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function tickSizeRule(): OrderRule {
  return {
    name: 'instrument.tickSize',
    check: ({ candidate, instrument }) => {
      if (candidate.price === undefined || isMultipleOf(candidate.price, instrument.tickSize)) return undefined;
      return {
        code: 'RISK_TICK_SIZE',
        message: `price ${fmt(candidate.price)} is not a multiple of the tick size ${fmt(instrument.tickSize)} of ${candidate.symbol}`,
      };
    },
  };
}
