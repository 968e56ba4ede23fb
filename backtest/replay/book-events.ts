/**
 * BookEvents for the pipeline from a market model's levels (raw integers -> Decimal at the edge, with
 * per-symbol caches of the Decimal of each price and quantity seen, so an event allocates little), plus
 * the session statistics the engine reads (last trade price, cumulative shares traded: the pipeline
 * derives the strategy's onTrade from their change). Emission is decided by the caller: only when the
 * best bid or offer price changes.
 */
import { Decimal, ZERO } from '../../src/domain/decimal.ts';
import type { BookLevel, InstrumentState, InstrumentStats } from '../../src/domain/index.ts';
import type { BookEvent } from '../../src/exchange/gateway/stream-events.ts';
import type { Level } from './market-model.ts';

export class SymbolFeed {
  private readonly prices = new Map<number, Decimal>();
  private readonly qtys = new Map<number, Decimal>();
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
    this.lastBid = bids[0]?.price ?? Number.NaN;
    this.lastAsk = asks[0]?.price ?? Number.NaN;
    return {
      type: 'book',
      symbol: this.symbol,
      bids: bids.map((l) => this.level(l)),
      offers: asks.map((l) => this.level(l)),
      state,
      stats: this.stats(),
      transactTime: time,
    };
  }

  private level(l: Level): BookLevel {
    return { px: this.price(l.price), qty: this.qty(l.qty) };
  }

  private stats(): InstrumentStats {
    const px = (raw: number | undefined) => (raw === undefined ? ZERO : this.price(raw));
    const notional = this.notional;
    const scale = this.priceScale * this.qtyScale;
    let notionalTraded: Decimal | undefined;
    return {
      openPx: px(this.open),
      closePx: ZERO,
      lowPx: px(this.low),
      highPx: px(this.high),
      lastTradePx: px(this.last),
      indicativeOpenPx: ZERO,
      settlementPx: px(this.settlement),
      sharesTraded: this.qtyScale === 1 ? new Decimal(this.shares) : new Decimal(this.shares).div(this.qtyScale),
      // read by nothing in the pipeline: computed when read (~1 us of Decimal division per book event)
      get notionalTraded(): Decimal {
        return (notionalTraded ??= new Decimal(notional).div(scale));
      },
      openInterest: ZERO,
    };
  }

  price(raw: number): Decimal {
    let d = this.prices.get(raw);
    if (d === undefined) {
      d = new Decimal(raw).div(this.priceScale);
      this.prices.set(raw, d);
    }
    return d;
  }

  qty(raw: number): Decimal {
    let d = this.qtys.get(raw);
    if (d === undefined) {
      d = new Decimal(raw).div(this.qtyScale);
      if (this.qtys.size < 65_536) this.qtys.set(raw, d);
    }
    return d;
  }
}
