/**
 * BookEvents for the pipeline from a market model's levels (raw integers -> Decimal at the edge, with
 * per-symbol caches of the Decimal of each price and quantity seen, so an event allocates little), plus
 * the session statistics the engine reads (last trade price, cumulative shares traded: the pipeline
 * derives the strategy's onTrade from their change). Emission is decided by the caller: only when the
 * best bid or offer price changes.
 */
import { Decimal, ZERO } from '../../src/domain/decimal.ts';
import type { BookLevel, InstrumentState, InstrumentStats } from '../../src/domain/index.ts';
import type { BookEvent } from '../../src/domain/stream-events.ts';
import type { Level } from './market-model.ts';

/** Raw values below this are cached in arrays indexed by the value (a Map lookup of a heap-number key costs more). */
const DENSE = 4096;

export class SymbolFeed {
  private readonly prices = new Map<number, Decimal>();
  private readonly qtys = new Map<number, Decimal>();
  private readonly densePrices = new Array<Decimal | undefined>(DENSE);
  private readonly denseQtys = new Array<Decimal | undefined>(DENSE);
  private open: number | undefined;
  private high: number | undefined;
  private low: number | undefined;
  private last: number | undefined;
  private shares = 0;
  private notional = 0;
  private settlement: number | undefined;
  /** Best prices of the last emitted event (NaN: side empty). */
  lastBid = Number.NaN;
  lastAsk = Number.NaN;
  /** Events built so far (each one sets lastBid / lastAsk). */
  events = 0;

  constructor(
    readonly symbol: string,
    private readonly priceScale: number,
    private readonly qtyScale: number,
  ) {}

  onTrade(price: number, qty: number): void {
    this.open ??= price;
    this.high = this.high === undefined || price > this.high ? price : this.high;
    this.low = this.low === undefined || price < this.low ? price : this.low;
    this.last = price;
    this.shares += qty;
    this.notional += price * qty;
  }

  settled(rawPrice: number): void {
    this.settlement = rawPrice;
  }

  /** True when the best prices differ from the last event's. */
  topChanged(bids: readonly Level[], asks: readonly Level[]): boolean {
    const bid = bids[0]?.price ?? Number.NaN;
    const ask = asks[0]?.price ?? Number.NaN;
    return !(Object.is(bid, this.lastBid) && Object.is(ask, this.lastAsk));
  }

  event(bids: readonly Level[], asks: readonly Level[], time: number, state: InstrumentState): BookEvent {
    this.events++;
    this.lastBid = bids[0]?.price ?? Number.NaN;
    this.lastAsk = asks[0]?.price ?? Number.NaN;
    return {
      type: 'book',
      symbol: this.symbol,
      bids: this.levels(bids),
      offers: this.levels(asks),
      state,
      stats: new FeedStats(
        this.px(this.open),
        this.px(this.low),
        this.px(this.high),
        this.px(this.last),
        this.px(this.settlement),
        this.qtyScale === 1 ? new Decimal(this.shares) : new Decimal(this.shares).div(this.qtyScale),
        this.notional,
        this.priceScale * this.qtyScale,
      ),
      transactTime: time,
    };
  }

  /** Decimal levels in a plain loop (a closure per event costs an allocation, and a name under tsx). */
  private levels(levels: readonly Level[]): BookLevel[] {
    const out: BookLevel[] = [];
    for (let i = 0; i < levels.length; i++) {
      const l = levels[i] as Level;
      out.push({ px: this.price(l.price), qty: this.qty(l.qty) });
    }
    return out;
  }

  private px(raw: number | undefined): Decimal {
    return raw === undefined ? ZERO : this.price(raw);
  }

  price(raw: number): Decimal {
    return this.cached(raw, this.priceScale, this.densePrices, this.prices);
  }

  qty(raw: number): Decimal {
    return this.cached(raw, this.qtyScale, this.denseQtys, this.qtys);
  }

  /** raw / scale, remembered: in `dense` below DENSE, else in `sparse` (while it holds fewer than 65,536). */
  private cached(raw: number, scale: number, dense: (Decimal | undefined)[], sparse: Map<number, Decimal>): Decimal {
    const small = raw >= 0 && raw < DENSE && Number.isInteger(raw);
    let d = small ? dense[raw] : sparse.get(raw);
    if (d === undefined) {
      d = new Decimal(raw).div(scale);
      if (small) dense[raw] = d;
      else if (sparse.size < 65_536) sparse.set(raw, d);
    }
    return d;
  }
}

/**
 * A book event's stats. A class rather than a literal with a getter (V8 builds those an order of magnitude
 * slower): notionalTraded, read by nothing in the pipeline, is computed when read (~1 us of Decimal division).
 */
class FeedStats implements InstrumentStats {
  readonly closePx: Decimal = ZERO;
  readonly indicativeOpenPx: Decimal = ZERO;
  readonly openInterest: Decimal = ZERO;
  readonly #notional: number;
  readonly #scale: number;
  #notionalTraded: Decimal | undefined = undefined;

  constructor(
    readonly openPx: Decimal,
    readonly lowPx: Decimal,
    readonly highPx: Decimal,
    readonly lastTradePx: Decimal,
    readonly settlementPx: Decimal,
    readonly sharesTraded: Decimal,
    notional: number,
    scale: number,
  ) {
    this.#notional = notional;
    this.#scale = scale;
  }

  get notionalTraded(): Decimal {
    return (this.#notionalTraded ??= new Decimal(this.#notional).div(this.#scale));
  }
}
