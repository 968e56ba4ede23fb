/**
 * The market model of a recording: the book of one symbol is the last recorded book (its levels, raw
 * integers), less what the bot's aggressive orders took since. Each recorded update also tells what
 * traded since the previous one: the rise of `stats.sharesTraded` at `stats.lastTradePx`; its aggressor is
 * inferred from the book before it (at or above the best offer: a buyer; at or below the best bid: a
 * seller; inside the spread: the nearer side). That inferred trade drives the passive fill rules.
 */
import { decimalToRawInt, type InstrumentScales } from '../../src/domain/index.ts';
import type { BookLevel } from '../../src/domain/index.ts';
import type { BookEvent } from '../../src/exchange/gateway/stream-events.ts';
import type { BookSide, Level, MarketModel } from '../replay/market-model.ts';

export interface InferredTrade {
  readonly price: number;
  readonly qty: number;
  readonly buy: boolean;
}

function toLevels(levels: readonly BookLevel[], scales: InstrumentScales, time: number): Level[] {
  const out: Level[] = [];
  for (const l of levels) {
    try {
      out.push({ price: decimalToRawInt(l.px, scales, 'price'), qty: decimalToRawInt(l.qty, scales, 'qty'), time });
    } catch {
      // a level off the instrument's scale cannot be traded against: left out
    }
  }
  return out;
}

export class RecordedBook implements MarketModel {
  private bids: Level[] = [];
  private asks: Level[] = [];
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

  /** What traded since the previous update, judged against the book before this one. */
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
    const bid = this.bids[0]?.price;
    const ask = this.asks[0]?.price;
    let buy: boolean;
    if (ask !== undefined && price >= ask) buy = true;
    else if (bid !== undefined && price <= bid) buy = false;
    else if (bid !== undefined && ask !== undefined) buy = price * 2 >= bid + ask;
    else buy = bid === undefined;
    return { price, qty: shares - previous, buy };
  }

  /** Takes the recorded levels as the book. */
  apply(event: BookEvent, time: number): void {
    this.bids = toLevels(event.bids, this.scales, time);
    this.asks = toLevels(event.offers, this.scales, time);
    if (event.stats !== undefined && event.stats.lastTradePx.gt(0)) {
      try {
        this.lastPrice = decimalToRawInt(event.stats.lastTradePx, this.scales, 'price');
      } catch {
        // keep the previous last price
      }
    }
  }
}
