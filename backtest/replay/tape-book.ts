/**
 * The synthetic book of one symbol, inferred from its trade tape (raw integers, no Decimal). A trade at
 * price p whose aggressor BOUGHT shows that an offer rested at p; one whose aggressor SOLD shows a bid
 * at p. So each trade (re)reveals a level on its passive side at its price and removes what it proves
 * gone: a buy at p removes every offer below p (it would have been lifted first) and every bid at or
 * above p (the book was not crossed); a sell at p mirrors that. A level's size is the volume traded at
 * that price on that side in the current size window: the count restarts at the first trade more than
 * `sizeWindowMs` after the window began ("the sizes seen"). Levels older than `levelTtlMs` are forgotten; each side keeps its best `depth`.
 */
import type { BookSide, Level, MarketModel } from './market-model.ts';

interface TapeLevel extends Level {
  /** Start of the level's current size window. */
  since: number;
}

export interface TapeBookOptions {
  readonly depth: number;
  readonly sizeWindowMs: number;
  readonly levelTtlMs: number;
}

export class TapeBook implements MarketModel {
  private readonly bids: TapeLevel[] = [];
  private readonly asks: TapeLevel[] = [];
  lastPrice: number | undefined;
  /** Time each side was last expired at (the replay's times never go back). */
  private bidsExpiredAt = Number.NaN;
  private asksExpiredAt = Number.NaN;
  /**
   * A lower bound of each side's level times (levels are only ever added or renewed with later times), so
   * expiry skips the scan while no level can be old enough: the usual case, on every trade.
   */
  private bidsOldest = Number.POSITIVE_INFINITY;
  private asksOldest = Number.POSITIVE_INFINITY;
  /**
   * Changes whenever the best price of either side may have changed (a level removed, or one added in
   * front): while it stays the same, so do both best prices, and the venue skips its per-timestamp
   * comparison of the top with the last book event's. Quantities changing in place do not move it.
   */
  topStamp = 0;

  constructor(private readonly options: TapeBookOptions) {}

  levels(side: BookSide, now: number): readonly Level[] {
    const list = side === 'bid' ? this.bids : this.asks;
    // expiry at a time already expired at changes nothing (levels are only ever renewed with later times)
    if (now !== (side === 'bid' ? this.bidsExpiredAt : this.asksExpiredAt)) this.expire(list, now);
    return list;
  }

  /** Applies one tape trade. */
  onTrade(price: number, qty: number, buy: boolean, time: number): void {
    this.lastPrice = price;
    const bids = this.bids;
    const asks = this.asks;
    // first forget what is too old by now: a level past its TTL is gone, and a trade at its price starts a
    // new one (renewing it instead would make the result depend on whether the side was read in between)
    this.expire(bids, time);
    this.expire(asks, time);
    if (buy) {
      while (asks.length > 0 && (asks[0] as Level).price < price) this.shift(asks);
      while (bids.length > 0 && (bids[0] as Level).price >= price) this.shift(bids);
      this.reveal(asks, price, qty, time, true);
    } else {
      while (bids.length > 0 && (bids[0] as Level).price > price) this.shift(bids);
      while (asks.length > 0 && (asks[0] as Level).price <= price) this.shift(asks);
      this.reveal(bids, price, qty, time, false);
    }
  }

  consume(side: BookSide, price: number, qty: number): void {
    const list = side === 'bid' ? this.bids : this.asks;
    const at = list.findIndex((l) => l.price === price);
    if (at < 0) return;
    const level = list[at] as Level;
    level.qty -= qty;
    if (level.qty <= 0) {
      list.splice(at, 1);
      this.topStamp++;
    }
  }

  private shift(list: Level[]): void {
    list.shift();
    this.topStamp++;
  }

  private reveal(list: TapeLevel[], price: number, qty: number, time: number, ascending: boolean): void {
    let i = 0;
    while (i < list.length && (ascending ? (list[i] as Level).price < price : (list[i] as Level).price > price)) i++;
    const existing = list[i] as TapeLevel | undefined;
    if (existing !== undefined && existing.price === price) {
      if (time - existing.since <= this.options.sizeWindowMs) {
        existing.qty += qty;
      } else {
        existing.qty = qty;
        existing.since = time;
      }
      existing.time = time;
      return;
    }
    list.splice(i, 0, { price, qty, time, since: time });
    if (i === 0) this.topStamp++;
    if (list.length > this.options.depth) list.length = this.options.depth;
    if (ascending) this.asksOldest = Math.min(this.asksOldest, time);
    else this.bidsOldest = Math.min(this.bidsOldest, time);
  }

  private expire(list: Level[], now: number): void {
    const bids = list === this.bids;
    if (bids) this.bidsExpiredAt = now;
    else this.asksExpiredAt = now;
    const oldest = now - this.options.levelTtlMs;
    if ((bids ? this.bidsOldest : this.asksOldest) >= oldest) return;
    let lowest = Number.POSITIVE_INFINITY;
    for (let i = list.length - 1; i >= 0; i--) {
      const time = (list[i] as Level).time;
      if (time < oldest) {
        list.splice(i, 1);
        this.topStamp++;
      } else if (time < lowest) lowest = time;
    }
    if (bids) this.bidsOldest = lowest;
    else this.asksOldest = lowest;
  }
}
