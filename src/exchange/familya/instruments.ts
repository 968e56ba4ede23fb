/**
 * Instrument scales for the family A client. Wire prices are scaled integers; the client turns them into
 * Decimals with each symbol's `priceScale` / `fractionalQtyScale`, read from reference data, never inferred
 * from a symbol. The caller provides an InstrumentCatalog (from config or reference data); when the catalog
 * can learn (`addInstruments`), the client fills it from `/v1/refdata/instruments`, both on demand for
 * symbols it meets (`InstrumentResolver.ensure`) and whenever the caller lists instruments.
 *
 *   const catalog = new MapInstrumentCatalog();   // empty: filled on demand
 *   const client = new FamilyAClient({ ..., catalog });
 */
import type { ScaleSource } from '../../domain/index.ts';
import { isTradebotError } from '../../errors.ts';
import { MapInstrumentCatalog } from '../gateway/catalog.ts';
import type { InstrumentCatalog as GatewayCatalog, InstrumentLike } from '../gateway/catalog.ts';

/**
 * The catalog is the gateway client's (one type, so one catalog can serve both clients); family A adds
 * that a catalog which can learn (`addInstruments`, as MapInstrumentCatalog) is filled on demand.
 */
export type InstrumentCatalog = GatewayCatalog & {
  /** Present when the catalog can learn instruments (from reference data). */
  addInstruments?(instruments: Iterable<InstrumentLike>): void;
};

export { MapInstrumentCatalog };
export type { InstrumentLike };

/** Adds every string found under a `symbol` key anywhere in `json` to `out` (responses name their symbols). */
export function collectSymbols(json: unknown, out: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 32 || typeof json !== 'object' || json === null) return out;
  if (Array.isArray(json)) {
    for (const item of json) collectSymbols(item, out, depth + 1);
    return out;
  }
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (key === 'symbol' && typeof value === 'string' && value !== '') out.add(value);
    else if (typeof value === 'object' && value !== null) collectSymbols(value, out, depth + 1);
  }
  return out;
}

/** Loads instruments by symbol (the client's paged /v1/refdata/instruments). */
export type InstrumentLoader = (symbols: readonly string[]) => Promise<readonly InstrumentLike[]>;

/**
 * Resolves scales for the client: `ensure(symbols)` loads the unknown ones once (concurrent callers share
 * the load; symbols the exchange does not know are not asked for again until `forgetMisses()`). When the
 * exchange refuses the lookup itself (e.g. 400 for an unknown symbol), the symbols count as unknown and the
 * caller's encode or decode fails with SCALE_UNKNOWN_SYMBOL naming the symbol; connectivity failures and
 * missing permissions propagate.
 */
export class InstrumentResolver {
  readonly scaleSource: ScaleSource;
  private readonly pending = new Map<string, Promise<void>>();
  private readonly misses = new Set<string>();

  constructor(
    readonly catalog: InstrumentCatalog,
    private readonly loader: InstrumentLoader | undefined,
  ) {
    this.scaleSource = (symbol: string) => catalog.scalesOf(symbol);
  }

  /** True when unknown symbols can be fetched (the catalog learns and auto-loading is on). */
  get canLoad(): boolean {
    return this.loader !== undefined && this.catalog.addInstruments !== undefined;
  }

  async ensure(symbols: Iterable<string>): Promise<void> {
    if (!this.canLoad) return;
    const waits: Promise<void>[] = [];
    const missing: string[] = [];
    for (const symbol of symbols) {
      if (symbol === '' || this.catalog.scalesOf(symbol) !== undefined || this.misses.has(symbol)) continue;
      const inFlight = this.pending.get(symbol);
      if (inFlight !== undefined) waits.push(inFlight);
      else if (!missing.includes(symbol)) missing.push(symbol);
    }
    if (missing.length > 0) {
      const load = this.load(missing);
      for (const symbol of missing) this.pending.set(symbol, load);
      waits.push(load.finally(() => missing.forEach((s) => this.pending.delete(s))));
    }
    await Promise.all(waits);
  }

  /** Lets symbols that were not found be asked for again (e.g. after new listings). */
  forgetMisses(): void {
    this.misses.clear();
  }

  learn(instruments: Iterable<InstrumentLike>): void {
    const list = [...instruments];
    this.catalog.addInstruments?.(list);
    for (const instrument of list) this.misses.delete(instrument.symbol);
  }

  private async load(symbols: readonly string[]): Promise<void> {
    let found: readonly InstrumentLike[] = [];
    try {
      found = await (this.loader as InstrumentLoader)(symbols);
    } catch (error) {
      if (!isTradebotError(error) || error.kind !== 'rejection') throw error;
    }
    this.learn(found);
    for (const symbol of symbols) if (this.catalog.scalesOf(symbol) === undefined) this.misses.add(symbol);
  }
}
