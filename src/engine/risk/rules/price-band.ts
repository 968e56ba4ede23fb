/**
 * Config rule `priceBand`: a limit price within a band around a reference price (the book's mid or the last
 * trade) (RISK_PRICE_BAND). The half-width is absolute, a number of ticks, or a percent of the reference;
 * the band is inclusive. A market order cannot be kept inside a band, so it is refused while a band is
 * configured. With no reference price the order is refused (RISK_NO_REFERENCE_PRICE) or, if configured,
 * let through unchecked.
 */
import { Decimal } from '../../../domain/decimal.ts';
import type { ReferencePriceSource, RiskInstrument } from '../context.ts';
import type { OrderRule } from './rule.ts';
import { fmt } from './rule.ts';

export type BandWidth =
  | { readonly kind: 'absolute'; readonly value: Decimal }
  | { readonly kind: 'ticks'; readonly value: number }
  | { readonly kind: 'percent'; readonly value: Decimal };

export interface PriceBandOptions {
  readonly reference: ReferencePriceSource;
  readonly width: BandWidth;
  readonly whenNoReference: 'refuse' | 'allow';
}

/** Half-width of the band around `reference` for this instrument. */
export function bandHalfWidth(width: BandWidth, reference: Decimal, instrument: RiskInstrument): Decimal {
  switch (width.kind) {
    case 'absolute':
      return new Decimal(width.value);
    case 'ticks':
      return new Decimal(instrument.tickSize).times(width.value);
    case 'percent':
      return new Decimal(reference).abs().times(width.value).div(100);
  }
}

function describeWidth(width: BandWidth): string {
  switch (width.kind) {
    case 'absolute':
      return `±${fmt(width.value)}`;
    case 'ticks':
      return `±${width.value} ticks`;
    case 'percent':
      return `±${fmt(width.value)}%`;
  }
}

export function priceBandRule(options: PriceBandOptions): OrderRule {
  // absolute and tick widths do not depend on the reference: computed once per symbol
  const fixed = new Map<string, Decimal>();
  const halfWidth = (reference: Decimal, instrument: RiskInstrument): Decimal => {
    if (options.width.kind === 'percent') return bandHalfWidth(options.width, reference, instrument);
    let half = fixed.get(instrument.symbol);
    if (half === undefined) fixed.set(instrument.symbol, (half = bandHalfWidth(options.width, reference, instrument)));
    return half;
  };
  return {
    name: 'priceBand',
    check: ({ candidate, instrument, context }) => {
      if (candidate.price === undefined) {
        return {
          code: 'RISK_PRICE_BAND',
          message: `a market order cannot be kept inside the price band; give ${candidate.symbol} a limit price`,
        };
      }
      const reference = context.referencePrice(candidate.symbol, options.reference);
      if (reference === undefined) {
        if (options.whenNoReference === 'allow') return undefined;
        return {
          code: 'RISK_NO_REFERENCE_PRICE',
          message: `no ${options.reference} price for ${candidate.symbol} to check the price band against`,
        };
      }
      const half = halfWidth(reference, instrument);
      const low = reference.minus(half);
      const high = reference.plus(half);
      if (candidate.price.gte(low) && candidate.price.lte(high)) return undefined;
      return {
        code: 'RISK_PRICE_BAND',
        message:
          `price ${fmt(candidate.price)} is outside the band ${fmt(low)}..${fmt(high)} ` +
          `around ${options.reference} ${fmt(reference)} (${describeWidth(options.width)})`,
      };
    },
  };
}
