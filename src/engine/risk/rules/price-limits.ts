/** Instrument rule: a limit price must lie within the instrument's price limits, inclusive (RISK_PRICE_LIMITS). */
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';
import { compare } from '../../decimal-compare.ts';

export function priceLimitsRule(): OrderRule {
  return {
    name: 'instrument.priceLimits',
    check: ({ candidate, instrument }) => {
      const price = candidate.price;
      if (price === undefined) return undefined;
      if (compare(price, instrument.lowPriceLimit) >= 0 && compare(price, instrument.highPriceLimit) <= 0) return undefined;
      return {
        code: 'RISK_PRICE_LIMITS',
        message: `price ${fmt(price)} is outside the price limits ${fmt(instrument.lowPriceLimit)}..${fmt(instrument.highPriceLimit)} of ${candidate.symbol}`,
      };
    },
  };
}
