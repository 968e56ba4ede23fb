/**
 * What `ctx.instrument(symbol)` gives a strategy: the venue's reference data for a traded symbol in the
 * terms a quoting rule needs (tick, price limits, minimum and lot quantity as Decimal, the scales, the state
 * and the event), plus the price helpers every maker writes: snap to the tick, keep within the limits. Plain
 * frozen data; the same view live and in backtests (both take it from the venue's `instruments()`).
 */
import { Decimal, ONE, roundToTick, type TickRounding } from '../../domain/decimal.ts';
import type { Instrument, InstrumentState } from '../../domain/index.ts';

export interface InstrumentView {
  readonly symbol: string;
  readonly description: string;
  /** The instrument's trading state in the reference data loaded at start (e.g. INSTRUMENT_STATE_OPEN). */
  readonly state: InstrumentState;
  /** Prices are multiples of this, e.g. 0.01. */
  readonly tickSize: Decimal;
  /** Lowest and highest accepted limit prices (inclusive), e.g. 0.01 and 0.99. */
  readonly lowPriceLimit: Decimal;
  readonly highPriceLimit: Decimal;
  /** Smallest order quantity the exchange accepts. */
  readonly minimumQty: Decimal;
  /** Quantities are multiples of this (1 / fractionalQtyScale; 1 for whole contracts). */
  readonly lotSize: Decimal;
  /** Wire scales (powers of ten): price = scaled integer / priceScale. */
  readonly priceScale: number;
  readonly fractionalQtyScale: number;
  /** The event this contract belongs to ('' when none) and its description. */
  readonly eventId: string;
  readonly eventDescription: string;
  /** When trading stops, epoch ms (undefined when the reference data has none). */
  readonly expirationTime: number | undefined;
}

export function instrumentView(instrument: Instrument): InstrumentView {
  return Object.freeze({
    symbol: instrument.symbol,
    description: instrument.description,
    state: instrument.state,
    tickSize: instrument.tickSize,
    lowPriceLimit: instrument.lowPriceLimit,
    highPriceLimit: instrument.highPriceLimit,
    minimumQty: instrument.minimumTradeQty,
    lotSize: ONE.div(instrument.fractionalQtyScale),
    priceScale: instrument.priceScale,
    fractionalQtyScale: instrument.fractionalQtyScale,
    eventId: instrument.eventId,
    eventDescription: instrument.eventDescription,
    expirationTime: instrument.expirationTime,
  });
}

/** `price` on the instrument's tick grid: 'down' for bids, 'up' for offers, 'nearest' for a fair price. */
export function toTick(instrument: Pick<InstrumentView, 'tickSize'>, price: Decimal, mode: TickRounding): Decimal {
  return roundToTick(price, instrument.tickSize, mode);
}

/** `price` kept within the instrument's price limits. */
export function clampToLimits(instrument: Pick<InstrumentView, 'lowPriceLimit' | 'highPriceLimit'>, price: Decimal): Decimal {
  const low = instrument.lowPriceLimit;
  const high = instrument.highPriceLimit;
  if (price.isNaN() || low.isNaN() || high.isNaN()) return Decimal.max(low, Decimal.min(high, price));
  // Decimal.max(low, Decimal.min(high, price)) without its copies (the instance itself), ties as decimal.js
  // breaks them (min takes the later of equal values when the earlier is positive, max when it is negative)
  const c = high.cmp(price);
  const capped = c > 0 || (c === 0 && high.s === 1) ? price : high;
  const d = low.cmp(capped);
  return d < 0 || (d === 0 && low.s === -1) ? capped : low;
}
