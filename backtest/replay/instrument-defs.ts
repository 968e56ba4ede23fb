/**
 * Reference data (domain Instrument, Decimal) -> the matching engine's instrument definitions (raw
 * scaled integers). Missing price limits (0) mean the whole 0..1 range of an event contract; a missing
 * minimum trade quantity means one quantity unit. Replay starts every instrument OPEN (the header's state
 * is the one at fetch time).
 */
import { decimalToRawInt, scalesOf, type Instrument } from '../../src/domain/index.ts';
import type { InstrumentDefinition } from '../../src/sim/matching/types.ts';

export function engineDefinition(instrument: Instrument): InstrumentDefinition {
  const scales = scalesOf(instrument);
  const raw = (value: Instrument['tickSize'], kind: 'price' | 'qty', path: string) =>
    decimalToRawInt(value, scales, kind, `${instrument.symbol}.${path}`);
  const tick = instrument.tickSize.gt(0) ? raw(instrument.tickSize, 'price', 'tickSize') : 1;
  const lot = instrument.minimumTradeQty.gt(0) ? raw(instrument.minimumTradeQty, 'qty', 'minimumTradeQty') : 1;
  const high = instrument.highPriceLimit.gt(0) ? raw(instrument.highPriceLimit, 'price', 'highPriceLimit') : scales.priceScale;
  const low = Math.min(raw(instrument.lowPriceLimit, 'price', 'lowPriceLimit'), high);
  return {
    symbol: instrument.symbol,
    tickSize: tick,
    lotSize: lot,
    priceLimitLow: low,
    priceLimitHigh: high,
    priceScale: scales.priceScale,
    state: 'INSTRUMENT_STATE_OPEN',
  };
}
