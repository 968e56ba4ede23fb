/**
 * Good-till-time bookkeeping: a binary min-heap of (good_till_time, order) kept in two parallel arrays.
 * Entries are never removed early: when an order is cancelled, filled or replaced to another time, its old
 * entry stays and is skipped when popped (the caller checks the order is still live with that time).
 */
import type { Order } from './order.ts';

export class ExpiryQueue {
  private readonly times: number[] = [];
  private readonly orders: Order[] = [];

  get size(): number {
    return this.times.length;
  }

  /** Earliest time in the queue, or +Infinity when empty. */
  peekTime(): number {
    return this.times.length === 0 ? Number.POSITIVE_INFINITY : (this.times[0] as number);
  }

  push(time: number, order: Order): void {
    const times = this.times;
    const orders = this.orders;
    let i = times.length;
    times.push(time);
    orders.push(order);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent] as number;
      if (pt <= time) break;
      times[i] = pt;
      orders[i] = orders[parent] as Order;
      i = parent;
    }
    times[i] = time;
    orders[i] = order;
  }

  /** Remove and return the entry with the earliest time if it is <= `now`, else undefined. */
  popDue(now: number): { time: number; order: Order } | undefined {
    if (this.times.length === 0 || (this.times[0] as number) > now) return undefined;
    const time = this.times[0] as number;
    const order = this.orders[0] as Order;
    const lastTime = this.times.pop() as number;
    const lastOrder = this.orders.pop() as Order;
    const n = this.times.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && (this.times[r] as number) < (this.times[l] as number) ? r : l;
        if ((this.times[c] as number) >= lastTime) break;
        this.times[i] = this.times[c] as number;
        this.orders[i] = this.orders[c] as Order;
        i = c;
      }
      this.times[i] = lastTime;
      this.orders[i] = lastOrder;
    }
    return { time, order };
  }
}
