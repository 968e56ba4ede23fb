/**
 * One instrument's order book: its definition and trading state, the bid and offer sides (price-time
 * priority), the off-book stop orders, the last trade price and the settlement price. It also serves the
 * read-only `BookView` (aggregated depth, best bid/offer). Matching logic lives in matcher.ts; this module
 * only holds and describes the book.
 */
import { BookSide } from './book-side.ts';
import type { Order } from './order.ts';
import { StopBook } from './stop-book.ts';
import type { Bbo, BookView, Depth, DepthLevel, InstrumentInfo, InstrumentState } from './types.ts';

/** The fully defaulted instrument definition the engine works with. */
export interface Instrument {
  readonly symbol: string;
  readonly tickSize: number;
  readonly lotSize: number;
  readonly priceLimitLow: number;
  readonly priceLimitHigh: number;
  readonly priceScale: number;
  readonly maxOrderQty: number;
}

export class OrderBook implements BookView {
  readonly bids = new BookSide(true);
  readonly offers = new BookSide(false);
  readonly stops = new StopBook();
  lastPx: number | undefined = undefined;
  settlementPx: number | undefined = undefined;

  constructor(
    readonly instrument: Instrument,
    public state: InstrumentState,
  ) {}

  get symbol(): string {
    return this.instrument.symbol;
  }

  /** The side an order of this side rests on. */
  sideOf(isBuy: boolean): BookSide {
    return isBuy ? this.bids : this.offers;
  }

  /** The side an order of this side trades against. */
  contraOf(isBuy: boolean): BookSide {
    return isBuy ? this.offers : this.bids;
  }

  /** Accepts new orders (possibly without matching them). */
  acceptsOrders(): boolean {
    const s = this.state;
    return s === 'INSTRUMENT_STATE_OPEN' || s === 'INSTRUMENT_STATE_PREOPEN' || s === 'INSTRUMENT_STATE_MATCH_AND_CLOSE_AUCTION';
  }

  /** Matches continuously. */
  isOpen(): boolean {
    return this.state === 'INSTRUMENT_STATE_OPEN';
  }

  depth(levels = 10): Depth {
    const n = Math.max(0, Math.floor(levels));
    return { symbol: this.symbol, bids: this.bids.depth(n), offers: this.offers.depth(n) };
  }

  bbo(): Bbo {
    return { symbol: this.symbol, bid: top(this.bids), offer: top(this.offers) };
  }

  lastTradePrice(): number | undefined {
    return this.lastPx;
  }

  isCrossed(): boolean {
    const b = this.bids.best();
    const o = this.offers.best();
    return b !== undefined && o !== undefined && b.price >= o.price;
  }

  orderCount(): number {
    return this.bids.orders + this.offers.orders;
  }

  /** Every resting order on both sides (stops excluded). */
  restingOrders(): Order[] {
    return [...this.bids.allOrders(), ...this.offers.allOrders()];
  }

  info(): InstrumentInfo {
    return { ...this.instrument, state: this.state, lastTradePrice: this.lastPx, settlementPrice: this.settlementPx };
  }
}

function top(side: BookSide): DepthLevel | undefined {
  const level = side.best();
  return level === undefined ? undefined : { price: level.price, qty: level.qty };
}
