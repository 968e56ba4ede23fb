/**
 * One side (bids or offers) of an order book: its price levels kept in a sorted array with the BEST level
 * LAST, so the common operations (look at the best, drop an emptied best) are O(1) array-end operations.
 * Levels are ordered by a key that is the price for bids and minus the price for offers, so one
 * ascending-key code path serves both sides. Finding a level by price is a binary search (the number of
 * live levels is small: at most the instrument's price band in ticks).
 */
import type { Order } from './order.ts';
import { PriceLevel } from './price-level.ts';
import type { DepthLevel } from './types.ts';

export class BookSide {
  /** Sort keys, ascending; the best level is at the end. */
  private readonly keys: number[] = [];
  private readonly levels: PriceLevel[] = [];
  /** Number of resting orders on this side. */
  orders = 0;

  constructor(readonly isBuy: boolean) {}

  /** The best level, or undefined when the side is empty. */
  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  isEmpty(): boolean {
    return this.levels.length === 0;
  }

  /** Append `order` at the back of the queue at its price, creating the level if needed. */
  add(order: Order): void {
    this.levelFor(order.price).push(order);
    this.orders++;
  }

  /** Insert `order` among existing orders of its level by its priority stamp (book rebuilds). */
  addByPriority(order: Order): void {
    this.levelFor(order.price).insertByPriority(order);
    this.orders++;
  }

  /** Remove a resting order; drops its level when it empties. */
  remove(order: Order): void {
    const level = order.level;
    if (level === null) return;
    level.remove(order);
    this.orders--;
    if (level.count === 0) this.dropLevel(level);
  }

  /** Unlink a resting order from its level but keep the level even if it empties (matching loop use). */
  detach(order: Order): void {
    const level = order.level;
    if (level === null) return;
    level.remove(order);
    this.orders--;
  }

  /** Drop an emptied level (fast when it is the best one). */
  dropLevel(level: PriceLevel): void {
    const last = this.levels.length - 1;
    if (this.levels[last] === level) {
      this.levels.pop();
      this.keys.pop();
      return;
    }
    const i = this.indexOf(this.key(level.price));
    if (i >= 0) {
      this.levels.splice(i, 1);
      this.keys.splice(i, 1);
    }
  }

  /** Aggregated levels from the best outwards, at most `max` of them. */
  depth(max: number): DepthLevel[] {
    const out: DepthLevel[] = [];
    for (let i = this.levels.length - 1; i >= 0 && out.length < max; i--) {
      const level = this.levels[i] as PriceLevel;
      out.push({ price: level.price, qty: level.qty });
    }
    return out;
  }

  /** Every resting order, level by level from the best, in queue order. */
  allOrders(): Order[] {
    const out: Order[] = [];
    for (let i = this.levels.length - 1; i >= 0; i--) {
      for (let o = (this.levels[i] as PriceLevel).head; o !== null; o = o.next) out.push(o);
    }
    return out;
  }

  /** Levels from the best outwards (read-only use). */
  levelAt(indexFromBest: number): PriceLevel | undefined {
    return this.levels[this.levels.length - 1 - indexFromBest];
  }

  levelCount(): number {
    return this.levels.length;
  }

  /** Empty the side (the orders keep their fields; the caller decides what to do with them). */
  clear(): void {
    for (const level of this.levels) {
      for (let o = level.head; o !== null;) {
        const next = o.next;
        o.prev = null;
        o.next = null;
        o.level = null;
        o = next;
      }
    }
    this.levels.length = 0;
    this.keys.length = 0;
    this.orders = 0;
  }

  private key(price: number): number {
    return this.isBuy ? price : -price;
  }

  private levelFor(price: number): PriceLevel {
    const key = this.key(price);
    const keys = this.keys;
    const n = keys.length;
    // Fast paths: the new order is at (or beyond) the best level.
    if (n > 0) {
      const top = keys[n - 1] as number;
      if (top === key) return this.levels[n - 1] as PriceLevel;
      if (top < key) {
        const level = new PriceLevel(price);
        keys.push(key);
        this.levels.push(level);
        return level;
      }
    }
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo < n && keys[lo] === key) return this.levels[lo] as PriceLevel;
    const level = new PriceLevel(price);
    keys.splice(lo, 0, key);
    this.levels.splice(lo, 0, level);
    return level;
  }

  private indexOf(key: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.keys.length && this.keys[lo] === key ? lo : -1;
  }
}
