/** Instrument rule: a limit price must lie within the instrument's price limits, inclusive (RISK_PRICE_LIMITS). */
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export function priceLimitsRule(): OrderRule {
  return {
    name: 'instrument.priceLimits',
    check: ({ candidate, instrument }) => {
      const price = candidate.price;
      if (price === undefined) return undefined;
      if (price.gte(instrument.lowPriceLimit) && price.lte(instrument.highPriceLimit)) return undefined;
      return {
        code: 'RISK_PRICE_LIMITS',
        message:
          `price ${fmt(price)} is outside the price limits ` +
          `${fmt(instrument.lowPriceLimit)}..${fmt(instrument.highPriceLimit)} of ${candidate.symbol}`,
      };
    },
  };
}
