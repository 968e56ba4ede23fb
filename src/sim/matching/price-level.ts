/**
 * One price level of one book side: a FIFO queue of resting orders (an intrusive doubly linked list
 * through `Order.prev` / `Order.next`, so removing any order is O(1)) plus its aggregated quantity.
 */
import type { Order } from './order.ts';

export class PriceLevel {
  head: Order | null = null;
  tail: Order | null = null;
  /** Sum of the leaves quantity of the orders in the queue. */
  qty = 0;
  count = 0;

  constructor(readonly price: number) {}

  /** Append at the back of the queue (last in time priority). */
  push(order: Order): void {
    order.level = this;
    order.next = null;
    order.prev = this.tail;
    if (this.tail === null) this.head = order;
    else this.tail.next = order;
    this.tail = order;
    this.qty += order.leavesQty;
    this.count++;
  }

  /** Insert keeping the queue sorted by `priority` (used when rebuilding a book in time order). */
  insertByPriority(order: Order): void {
    let after = this.tail;
    while (after !== null && after.priority > order.priority) after = after.prev;
    if (after === this.tail) {
      this.push(order);
      return;
    }
    order.level = this;
    order.prev = after;
    order.next = after === null ? this.head : after.next;
    if (order.next !== null) order.next.prev = order;
    if (after === null) this.head = order;
    else after.next = order;
    this.qty += order.leavesQty;
    this.count++;
  }

  /** Unlink `order` (which must be in this level); its leaves quantity leaves the aggregate. */
  remove(order: Order): void {
    const { prev, next } = order;
    if (prev === null) this.head = next;
    else prev.next = next;
    if (next === null) this.tail = prev;
    else next.prev = prev;
    order.prev = null;
    order.next = null;
    order.level = null;
    this.qty -= order.leavesQty;
    this.count--;
  }
}
