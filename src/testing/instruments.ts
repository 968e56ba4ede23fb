/**
 * Reference data for scripted markets: an event contract with the exchange's usual terms (prices in cents from
 * 0.01 to 0.99, whole contracts, USD), any of which a test can override with decimal strings.
 */
import type { Decimal } from '../domain/decimal.ts';
import { parseDecimal } from '../domain/decimal.ts';
import type { Instrument } from '../domain/index.ts';

/** One instrument of a scripted market: only `symbol` is required; decimals are strings such as `"0.01"`. */
export interface ScriptedInstrument {
  readonly symbol: string;
  /** Price increment (default `"0.01"`). */
  readonly tickSize?: string;
  /** Lowest and highest accepted prices (default `"0.01"` and `"0.99"`). */
  readonly lowPriceLimit?: string;
  readonly highPriceLimit?: string;
  /** Smallest quantity (default `"1"`). */
  readonly minimumTradeQty?: string;
  /** Price scale (default 100: cents) and fractional quantity scale (default 1: whole contracts). */
  readonly priceScale?: number;
  readonly fractionalQtyScale?: number;
  /** Event the contract belongs to (risk's `maxEventPosition` groups by it; default `EVENT-<symbol>`). */
  readonly eventId?: string;
}

/** The domain Instrument of `spec` (a symbol alone: a cent-priced, whole-contract event contract). */
export function scriptedInstrument(spec: ScriptedInstrument | string): Instrument {
  const s: ScriptedInstrument = typeof spec === 'string' ? { symbol: spec } : spec;
  const dec = (value: string | undefined, fallback: string, what: string): Decimal =>
    parseDecimal(value ?? fallback, `${s.symbol}.${what}`);
  return {
    symbol: s.symbol,
    description: `scripted contract ${s.symbol}`,
    state: 'INSTRUMENT_STATE_OPEN',
    priceScale: s.priceScale ?? 100,
    fractionalQtyScale: s.fractionalQtyScale ?? 1,
    tickSize: dec(s.tickSize, '0.01', 'tickSize'),
    lowPriceLimit: dec(s.lowPriceLimit, '0.01', 'lowPriceLimit'),
    highPriceLimit: dec(s.highPriceLimit, '0.99', 'highPriceLimit'),
    minimumTradeQty: dec(s.minimumTradeQty, '1', 'minimumTradeQty'),
    currency: 'USD',
    eventId: s.eventId ?? `EVENT-${s.symbol}`,
    eventDescription: '',
    tradingStartTime: undefined,
    expirationTime: undefined,
    lastTradeDate: undefined,
    settlementTime: undefined,
  };
}

/** Decimal places of a tick (0.01 -> 2): how many a readable price shows. */
export function tickPlaces(tick: Decimal | undefined): number | undefined {
  return tick === undefined ? undefined : tick.decimalPlaces();
}
