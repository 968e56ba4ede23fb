/** Instrument rule: a limit price must be a multiple of the instrument's tick size (RISK_TICK_SIZE). */
import { multipleOfTick, type Decimal } from '../../../domain/decimal.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function tickSizeRule(): OrderRule {
  const tests = new Map<string, (value: Decimal) => boolean>();
  return {
    name: 'instrument.tickSize',
    check: ({ candidate, instrument }) => {
      let onTick = tests.get(instrument.symbol);
      if (onTick === undefined) tests.set(instrument.symbol, (onTick = multipleOfTick(instrument.tickSize)));
      if (candidate.price === undefined || onTick(candidate.price)) return undefined;
      return {
        code: 'RISK_TICK_SIZE',
        message: `price ${fmt(candidate.price)} is not a multiple of the tick size ${fmt(instrument.tickSize)} of ${candidate.symbol}`,
      };
    },
  };
}
