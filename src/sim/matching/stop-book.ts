/**
 * Stop orders of one instrument, held off the book until the last trade price reaches their stop price:
 * a buy stop triggers when last >= stop, a sell stop when last <= stop. Each side is an array sorted so the
 * next stop to trigger is LAST: buy stops by stop price descending, sell stops ascending, and among equal
 * stop prices the earlier order triggers first.
 */
import type { Order } from './order.ts';

export class StopBook {
  private readonly buys: Order[] = [];
  private readonly sells: Order[] = [];

  get size(): number {
    return this.buys.length + this.sells.length;
  }

  add(order: Order): void {
    const arr = order.isBuy ? this.buys : this.sells;
    // Find the first index whose order triggers no later than `order` (insert before it).
    let lo = 0;
    let hi = arr.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (triggersBefore(arr[mid] as Order, order)) hi = mid;
      else lo = mid + 1;
    }
    arr.splice(lo, 0, order);
    order.onStopBook = true;
  }

  remove(order: Order): void {
    const arr = order.isBuy ? this.buys : this.sells;
    const i = arr.lastIndexOf(order);
    if (i >= 0) arr.splice(i, 1);
    order.onStopBook = false;
  }

  /** Remove and return the next stop triggered by `lastPx`, or undefined. Buys are checked before sells. */
  popTriggered(lastPx: number): Order | undefined {
    const b = this.buys[this.buys.length - 1];
    if (b !== undefined && lastPx >= (b.terms.stopPrice as number)) {
      this.buys.pop();
      b.onStopBook = false;
      return b;
    }
    const s = this.sells[this.sells.length - 1];
    if (s !== undefined && lastPx <= (s.terms.stopPrice as number)) {
      this.sells.pop();
      s.onStopBook = false;
      return s;
    }
    return undefined;
  }

  all(): Order[] {
    return [...this.buys, ...this.sells];
  }
}

/** True when `a` triggers strictly before `b` (both same side). */
function triggersBefore(a: Order, b: Order): boolean {
  const sa = a.terms.stopPrice as number;
  const sb = b.terms.stopPrice as number;
  if (sa !== sb) return a.isBuy ? sa < sb : sa > sb;
  return a.priority < b.priority;
}
