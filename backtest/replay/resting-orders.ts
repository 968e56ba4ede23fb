/**
 * The bot's resting orders of one symbol as the fill model sees them (raw integers): side, price, leaves,
 * time priority (as the matching engine gave it) and the market quantity estimated ahead of each.
 *
 * `allocate(trade)` applies the passive fill rules to one tape trade at price p:
 *  - trade-through: a bid above p (an offer below p), whatever the aggressor's side, fills in full: the
 *    tape proves the market traded at a price worse than ours, so our order would have been taken first
 *    (with `tradeThrough: 'print'`, the orders traded through share at most the print's quantity, best
 *    price first, and the orders at p get only what they leave of it);
 *  - at the price: only a trade whose aggressor is on the other side (a SELL into bids at p, a BUY into
 *    offers at p) reaches orders at p. Its quantity first passes the queue ahead of each order (that
 *    estimate shrinks by it), then fills our orders at p in time priority (partial fills);
 *  - nothing else fills (the tape never reached the price).
 * Queue estimates never decrease along time priority at one price (a later order is never ahead of an
 * earlier one), so what fills at p is always a prefix in time priority: exactly what one opposite IOC
 * order of that quantity, limited at p, takes from the matching engine's book. The fill engine sends
 * that order, so the engine itself produces the executions.
 */

export interface RestingOrder {
  readonly orderId: string;
  readonly buy: boolean;
  price: number;
  leaves: number;
  queueAhead: number;
  /** Time priority (engine entry order); renewed when a replace loses priority. */
  priority: number;
}

export interface Allocation {
  /** Side of the bot orders that fill. */
  readonly buy: boolean;
  /** Limit of the opposite order to send (the trade price). */
  readonly limit: number;
  readonly qty: number;
}

const NONE: readonly Allocation[] = Object.freeze([]);

/** How much a print through an order's price fills it: in full, or by at most the print's quantity. */
export type TradeThroughFill = 'full' | 'print';

export class RestingOrders {
  private readonly orders: RestingOrder[] = [];
  /** Scratch for allocate: one side's orders at the trade price, in time priority (a prefix of it is used). */
  private readonly atPrice: RestingOrder[] = [];

  constructor(private readonly tradeThrough: TradeThroughFill = 'full') {}

  get size(): number {
    return this.orders.length;
  }

  get(orderId: string): RestingOrder | undefined {
    return this.orders.find((o) => o.orderId === orderId);
  }

  all(): readonly RestingOrder[] {
    return this.orders;
  }

  /** Adds an order starting to rest; its queue estimate is raised to the highest ahead of it at the price. */
  add(order: RestingOrder): void {
    for (const other of this.orders) {
      if (other.buy === order.buy && other.price === order.price && other.priority < order.priority)
        order.queueAhead = Math.max(order.queueAhead, other.queueAhead);
    }
    this.orders.push(order);
  }

  /**
   * Caps each order's queue estimate at what the market shows at its price on its side (`shown`: others'
   * quantity there, undefined when not known): no more can be ahead of an order than rests at its price.
   * Applying the same cap at one price keeps the estimates non-decreasing along time priority.
   */
  capQueueAhead(shown: (buy: boolean, price: number) => number | undefined): void {
    for (const o of this.orders) {
      if (o.queueAhead === 0) continue;
      const level = shown(o.buy, o.price);
      if (level !== undefined && level < o.queueAhead) o.queueAhead = level;
    }
  }

  remove(orderId: string): void {
    const at = this.orders.findIndex((o) => o.orderId === orderId);
    if (at >= 0) this.orders.splice(at, 1);
  }

  /**
   * Whether a tape trade at `price` reaches any order (trades through it, or trades at its price with the
   * aggressor on the other side): when not, `allocate` would change nothing and return nothing.
   */
  touchedBy(price: number, aggressorBuys: boolean): boolean {
    const orders = this.orders;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i] as RestingOrder;
      if (o.buy ? o.price > price || (o.price === price && !aggressorBuys) : o.price < price || (o.price === price && aggressorBuys))
        return true;
    }
    return false;
  }

  /**
   * Fills the tape trade (p, q, aggressor side) gives the bot's orders, per side; updates queue estimates.
   * Allocates nothing when nothing fills (the common case: the trade only eats into the queue ahead).
   */
  allocate(price: number, qty: number, aggressorBuys: boolean): readonly Allocation[] {
    if (this.orders.length === 0) return NONE;
    let out: Allocation[] | undefined;
    for (let side = 0; side < 2; side++) {
      const buy = side === 0;
      const total = this.sideFill(buy, price, qty, aggressorBuys);
      if (total > 0) (out ??= []).push({ buy, limit: price, qty: total });
    }
    return out ?? NONE;
  }

  /** What one side's orders get from the trade: all of those it trades through, then a prefix at the price. */
  private sideFill(buy: boolean, price: number, printQty: number, aggressorBuys: boolean): number {
    let qty = printQty;
    let total = 0;
    const atPrice = this.atPrice;
    let n = 0; // orders at the price in atPrice[0, n) (the array keeps its room: truncating it would free it)
    for (let i = 0; i < this.orders.length; i++) {
      const o = this.orders[i] as RestingOrder;
      if (o.buy !== buy) continue;
      if (buy ? o.price > price : o.price < price) {
        total += o.leaves;
      } else if (o.price === price && aggressorBuys !== buy) {
        // insertion in time priority (a handful of orders at one price at most)
        let j = n++;
        for (; j > 0 && (atPrice[j - 1] as RestingOrder).priority > o.priority; j--) atPrice[j] = atPrice[j - 1] as RestingOrder;
        atPrice[j] = o;
      }
    }
    if (this.tradeThrough === 'print') {
      // the orders traded through take the print's quantity first (the matching engine fills the best price
      // first); the orders at the price get what is left of it
      total = Math.min(total, qty);
      qty -= total;
    }
    let filledAtPrice = 0;
    for (let i = 0; i < n; i++) {
      const o = atPrice[i] as RestingOrder;
      // what reaches the market quantity ahead of this order: the trade less what the bot's earlier orders
      // at the price took (those are ahead of it too, but are not part of its queue estimate)
      const passing = Math.min(o.queueAhead, qty - filledAtPrice);
      o.queueAhead -= passing;
      const fill = Math.max(0, Math.min(o.leaves, qty - passing - filledAtPrice));
      filledAtPrice += fill;
    }
    return total + filledAtPrice;
  }
}
