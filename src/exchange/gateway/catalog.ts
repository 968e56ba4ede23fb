/**
 * InstrumentCatalog: where the gateway client finds each symbol's price and quantity scales, so it can turn
 * the wire's scaled integers into Decimal prices (and back). The client never infers a scale from a symbol;
 * the caller provides the catalog from config or reference data, and may update it as instruments are listed.
 *
 *   const catalog = instrumentCatalog(instruments);          // Instrument[] from reference data
 *   const catalog = instrumentCatalog(new Map([[symbol, instrumentScales(100, 1)]]));
 */
import { scalesOf } from '../../domain/index.ts';
import type { InstrumentScales, ScaleSource } from '../../domain/index.ts';

/** symbol -> scales. Returning undefined makes encoders fail with SCALE_UNKNOWN_SYMBOL naming the symbol. */
export interface InstrumentCatalog {
  scalesOf(symbol: string): InstrumentScales | undefined;
}

/** Anything with a symbol and its wire scales (a domain Instrument, a config entry). */
export interface InstrumentLike {
  readonly symbol: string;
  readonly priceScale: number;
  readonly fractionalQtyScale: number;
}

/** A mutable catalog backed by a Map; `set` adds or replaces a symbol (e.g. after a reference data refresh). */
export class MapInstrumentCatalog implements InstrumentCatalog {
  private readonly bySymbol = new Map<string, InstrumentScales>();

  constructor(entries: Iterable<readonly [string, InstrumentScales]> = []) {
    for (const [symbol, scales] of entries) this.bySymbol.set(symbol, scales);
  }

  scalesOf(symbol: string): InstrumentScales | undefined {
    return this.bySymbol.get(symbol);
  }

  set(symbol: string, scales: InstrumentScales): void {
    this.bySymbol.set(symbol, scales);
  }

  addInstruments(instruments: Iterable<InstrumentLike>): void {
    for (const instrument of instruments) this.bySymbol.set(instrument.symbol, scalesOf(instrument));
  }
}

/** Builds a catalog from instruments, a symbol -> scales map, or a lookup function. */
export function instrumentCatalog(
  source: Iterable<InstrumentLike> | ReadonlyMap<string, InstrumentScales> | ((symbol: string) => InstrumentScales | undefined),
): InstrumentCatalog {
  if (typeof source === 'function') return { scalesOf: source };
  if (source instanceof Map) return new MapInstrumentCatalog(source as ReadonlyMap<string, InstrumentScales>);
  const catalog = new MapInstrumentCatalog();
  catalog.addInstruments(source as Iterable<InstrumentLike>);
  return catalog;
}

/** The codecs' scale argument for a catalog. */
export function scaleSourceOf(catalog: InstrumentCatalog): ScaleSource {
  return (symbol: string) => catalog.scalesOf(symbol);
}
