/**
 * The market model of a recording: the book of one symbol is the last recorded book (its levels, raw
 * integers) WITHOUT the live bot's own working orders (known from the recorded order stream, see
 * own-orders.ts; a level keeps what others rested there, never below zero), less what the replayed bot's
 * aggressive orders took since. So the replayed strategy can only trade against other participants.
 *
 * Each recorded update also tells what traded since the previous one: the rise of `stats.sharesTraded` at
 * `stats.lastTradePx`. Its aggressor is inferred from the whole recorded book before it, own quotes
 * included (that is the book the aggressor met): at or above the best offer a buyer, at or below the best
 * bid a seller, inside the spread the nearer side. An aggressor that swept several levels took the better
 * ones first: what that book showed at better prices than the last one is not counted as traded AT the
 * last price. That inferred trade drives the passive fill rules.
 */
import { decimalToRawInt, type InstrumentScales } from '../../src/domain/index.ts';
import type { BookLevel } from '../../src/domain/index.ts';
import type { BookEvent } from '../../src/domain/stream-events.ts';
import type { BookSide, Level, MarketModel } from '../replay/market-model.ts';

export interface InferredTrade {
  /** The last trade price. */
  readonly price: number;
  /** Everything traded since the previous update. */
  readonly qty: number;
  /** What of it traded at `price`: the rest swept the levels the aggressor met first (better prices). */
  readonly atPrice: number;
  readonly buy: boolean;
}

import type { OwnResting } from './own-orders.ts';

const NO_OWN: ReadonlyMap<number, number> = new Map();
const NONE: OwnResting = { bid: NO_OWN, ask: NO_OWN };

function toLevels(levels: readonly BookLevel[], scales: InstrumentScales, time: number, own: ReadonlyMap<number, number>): Level[] {
  const out: Level[] = [];
  for (const l of levels) {
    let price: number;
    let qty: number;
    try {
      price = decimalToRawInt(l.px, scales, 'price');
      qty = decimalToRawInt(l.qty, scales, 'qty');
    } catch {
      continue; // a level off the instrument's scale cannot be traded against: left out
    }
    const others = qty - (own.get(price) ?? 0);
    if (others > 0) out.push({ price, qty: others, time });
  }
  return out;
}

function bestRaw(levels: readonly BookLevel[], scales: InstrumentScales): number | undefined {
  const top = levels[0];
  if (top === undefined) return undefined;
  try {
    return decimalToRawInt(top.px, scales, 'price');
  } catch {
    return undefined;
  }
}

export class RecordedBook implements MarketModel {
  private bids: Level[] = [];
  private asks: Level[] = [];
  /** The whole recorded book (own quotes included), for the trade inference. */
  private fullBids: readonly Level[] = [];
  private fullAsks: readonly Level[] = [];
  /** Worst price each side of the last recorded book showed: beyond it, the book is not known. */
  private deepestBid: number | undefined;
  private deepestAsk: number | undefined;
  private shares: number | undefined;
  lastPrice: number | undefined;

  constructor(private readonly scales: InstrumentScales) {}

  levels(side: BookSide): readonly Level[] {
    return side === 'bid' ? this.bids : this.asks;
  }

  consume(side: BookSide, price: number, qty: number): void {
    const list = side === 'bid' ? this.bids : this.asks;
    const at = list.findIndex((l) => l.price === price);
    if (at < 0) return;
    const level = list[at] as Level;
    level.qty -= qty;
    if (level.qty <= 0) list.splice(at, 1);
  }

  /**
   * Others' quantity the last recorded book showed at `price` on `side` (0 when the level was empty), or
   * undefined when the price lies beyond the recorded depth (not known).
   */
  shownAt(side: BookSide, price: number): number | undefined {
    const deepest = side === 'bid' ? this.deepestBid : this.deepestAsk;
    const level = (side === 'bid' ? this.bids : this.asks).find((l) => l.price === price);
    if (level !== undefined) return level.qty;
    if (deepest === undefined) return 0;
    return (side === 'bid' ? price >= deepest : price <= deepest) ? 0 : undefined;
  }

  /** What traded since the previous update, judged against the whole book before this one. */
  inferTrade(event: BookEvent): InferredTrade | undefined {
    const stats = event.stats;
    if (stats === undefined) return undefined;
    let shares: number;
    let price: number;
    try {
      shares = decimalToRawInt(stats.sharesTraded, this.scales, 'qty');
      price = decimalToRawInt(stats.lastTradePx, this.scales, 'price');
    } catch {
      return undefined;
    }
    const previous = this.shares;
    this.shares = shares;
    if (previous === undefined || shares <= previous || price <= 0) return undefined;
    const bid = this.fullBids[0]?.price;
    const ask = this.fullAsks[0]?.price;
    let buy: boolean;
    if (ask !== undefined && price >= ask) buy = true;
    else if (bid !== undefined && price <= bid) buy = false;
    else if (bid !== undefined && ask !== undefined) buy = price * 2 >= bid + ask;
    else buy = bid === undefined;
    const qty = shares - previous;
    let better = 0;
    for (const l of buy ? this.fullAsks : this.fullBids) {
      if (buy ? l.price >= price : l.price <= price) break;
      better += l.qty;
    }
    // a book that cannot explain the trade (it changed in between): all of it at the last price
    const atPrice = qty - better > 0 ? qty - better : qty;
    return { price, qty, atPrice, buy };
  }

  /** How the quantity at each price changed from the last recorded book to `event` (both sides). */
  deltaOf(event: BookEvent): (buy: boolean, price: number) => number {
    const bids = toLevels(event.bids, this.scales, 0, NO_OWN);
    const asks = toLevels(event.offers, this.scales, 0, NO_OWN);
    const qtyAt = (levels: readonly Level[], price: number) => levels.find((l) => l.price === price)?.qty ?? 0;
    return (buy, price) => (buy ? qtyAt(bids, price) - qtyAt(this.fullBids, price) : qtyAt(asks, price) - qtyAt(this.fullAsks, price));
  }

  /** Takes the recorded levels, less the live bot's own resting quantity, as the book. */
  apply(event: BookEvent, time: number, own: OwnResting = NONE): void {
    this.bids = toLevels(event.bids, this.scales, time, own.bid);
    this.asks = toLevels(event.offers, this.scales, time, own.ask);
    this.fullBids = toLevels(event.bids, this.scales, time, NO_OWN);
    this.fullAsks = toLevels(event.offers, this.scales, time, NO_OWN);
    this.deepestBid = bestRaw(event.bids.slice(-1), this.scales);
    this.deepestAsk = bestRaw(event.offers.slice(-1), this.scales);
    if (event.stats !== undefined && event.stats.lastTradePx.gt(0)) {
      try {
        this.lastPrice = decimalToRawInt(event.stats.lastTradePx, this.scales, 'price');
      } catch {
        // keep the previous last price
      }
    }
  }
}
