/**
 * The simulator's instrument registry: turns `sim.instruments[]` config into matching-engine definitions
 * (raw scaled integers) and domain reference data (Decimal), and keeps each instrument's wire scales in
 * one place. Refuses a tick, lot or price limit that is not a whole number of scaled units.
 */
import type { SimInstrumentConfig } from '../config.ts';
import { type Decimal, ZERO } from '../../domain/decimal.ts';
import { decimalToRawInt, instrumentScales, type InstrumentScales } from '../../domain/scales.ts';
import type { Instrument } from '../../domain/types/reference.ts';
import type { InstrumentDefinition, InstrumentState } from '../matching/types.ts';
import { TradebotError } from '../../errors.ts';

export interface SimInstrument {
  symbol: string;
  config: SimInstrumentConfig;
  scales: InstrumentScales;
  definition: InstrumentDefinition;
  /** Raw fair value to start synthetic activity from. */
  fairValueRaw: number;
  eventGroup: string;
}

function raw(value: Decimal, scales: InstrumentScales, kind: 'price' | 'qty', path: string): number {
  try {
    return decimalToRawInt(value, scales, kind, path);
  } catch (error) {
    throw new TradebotError(
      'SIM_INSTRUMENT_INVALID',
      `${path}: ${value.toString()} is not a whole number of scaled units at this scale; fix the instrument config`,
      { kind: 'config', cause: error },
    );
  }
}

export function buildInstrument(config: SimInstrumentConfig, index: number): SimInstrument {
  const scales = instrumentScales(config.priceScale, config.fractionalQtyScale);
  const path = `sim.instruments[${index}]`;
  const tick = raw(config.tickSize, scales, 'price', `${path}.tickSize`);
  const lot = config.lotSize === undefined ? 1 : raw(config.lotSize, scales, 'qty', `${path}.lotSize`);
  const low = raw(config.priceLimits.low, scales, 'price', `${path}.priceLimits.low`);
  const high = raw(config.priceLimits.high, scales, 'price', `${path}.priceLimits.high`);
  const mid = Math.round((low + high) / 2 / tick) * tick;
  const fair = config.fairValue === undefined ? mid : raw(config.fairValue, scales, 'price', `${path}.fairValue`);
  const state = `INSTRUMENT_STATE_${config.state}` as InstrumentState;
  return {
    symbol: config.symbol,
    config,
    scales,
    eventGroup: config.eventGroup ?? config.symbol,
    fairValueRaw: fair,
    definition: {
      symbol: config.symbol,
      tickSize: tick,
      lotSize: lot,
      priceLimitLow: low,
      priceLimitHigh: high,
      priceScale: scales.priceScale,
      state,
    },
  };
}

/** Reference data as the domain sees it (the wire encoders turn it into either family's JSON). */
export function toDomainInstrument(instrument: SimInstrument, state: InstrumentState, currency: string): Instrument {
  const { config, scales } = instrument;
  const expiration = config.expiration === undefined ? undefined : Date.parse(config.expiration);
  return {
    symbol: config.symbol,
    description: config.description,
    state,
    priceScale: scales.priceScale,
    fractionalQtyScale: scales.qtyScale,
    tickSize: config.tickSize,
    lowPriceLimit: config.priceLimits.low,
    highPriceLimit: config.priceLimits.high,
    minimumTradeQty: config.lotSize ?? ZERO.plus(1).div(scales.qtyScale),
    currency,
    eventId: instrument.eventGroup,
    eventDescription: config.description,
    tradingStartTime: undefined,
    expirationTime: expiration,
    lastTradeDate: undefined,
    settlementTime: expiration,
  };
}
