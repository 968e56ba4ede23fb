/**
 * The engine's shared working state and its emission primitives: the books by symbol, the registry of
 * live orders (by number and by account + clord_id), the good-till-time queue, the id counters, the clock
 * reading of the current call and the result being filled. Every module that changes an order goes
 * through `fill` / `finish` / `emit` here, so order state, registry membership and emitted executions
 * never disagree.
 */
import { TradebotError } from '../../errors.ts';
import { EngineResult, Execution, Trade } from './events.ts';
import type { CancelReject } from './events.ts';
import { ExpiryQueue } from './expiry-queue.ts';
import { IdGenerator } from './ids.ts';
import type { OrderBook } from './order-book.ts';
import type { Order, OrderTerms } from './order.ts';
import type { Clock, CxlRejReason, ExecutionType, OrdRejectReason, OrderState, TradeType } from './types.ts';

const NO_REASON: OrdRejectReason = 'ORD_REJECT_REASON_EXCHANGE_OPTION';

export class EngineState {
  readonly ids: IdGenerator;
  readonly books = new Map<string, OrderBook>();
  /**
   * Working orders that can be referred to by later calls (resting on a book, or held as stops), by order
   * number, in the order they came to rest. An order being processed as aggressor is registered only if
   * it comes to rest, so an order that fills or is cancelled within its own call never touches the maps.
   */
  readonly orders = new Map<number, Order>();
  /**
   * The same orders by symbol (each map in the order they came to rest): per-symbol scans (the activity makers'
   * open-order checks and mass cancels of one contract) look only at that contract's orders, not every order.
   */
  private readonly bySymbol = new Map<string, Map<number, Order>>();
  /**
   * Live orders by clord_id; orders of different accounts sharing a clord_id are chained through
   * `Order.sameClord` (one Map operation per lookup instead of two nested ones).
   */
  private readonly clords = new Map<string, Order>();
  readonly expiries = new ExpiryQueue();
  out: EngineResult = new EngineResult();
  /** Clock reading (epoch ms) of the current engine call. */
  now = 0;

  constructor(
    private readonly clock: Clock,
    idPrefix: string,
  ) {
    this.ids = new IdGenerator(idPrefix);
  }

  /** Start an engine call: fresh result, one clock reading for the whole call. */
  begin(): EngineResult {
    const now = this.clock.now();
    if (!Number.isSafeInteger(now)) {
      throw new TradebotError('MATCHING_BAD_CLOCK', `clock.now() returned ${now}; it must return integer epoch milliseconds`);
    }
    this.now = now;
    return (this.out = new EngineResult());
  }

  // ---- registry ----

  register(order: Order): void {
    order.registered = true;
    this.orders.set(order.seq, order);
    const symbol = order.terms.symbol;
    let ofSymbol = this.bySymbol.get(symbol);
    if (ofSymbol === undefined) this.bySymbol.set(symbol, (ofSymbol = new Map()));
    ofSymbol.set(order.seq, order);
    const clordId = order.terms.clordId;
    if (clordId !== undefined && clordId !== '') this.indexClord(order, clordId);
    const gtt = order.terms.goodTillTime;
    if (gtt !== undefined) this.expiries.push(gtt, order);
  }

  unregister(order: Order): void {
    if (!order.registered) return;
    order.registered = false;
    this.orders.delete(order.seq);
    this.bySymbol.get(order.terms.symbol)?.delete(order.seq);
    const clordId = order.terms.clordId;
    if (clordId !== undefined && clordId !== '') this.unindexClord(order, clordId);
  }

  /** Working orders of one symbol (in the order they came to rest), or all of them without one. */
  ordersOf(symbol: string | undefined): Iterable<Order> {
    if (symbol === undefined) return this.orders.values();
    return this.bySymbol.get(symbol)?.values() ?? [];
  }

  findByClord(account: string, clordId: string): Order | undefined {
    for (let o = this.clords.get(clordId); o !== undefined; o = o.sameClord) {
      if (o.terms.account === account) return o;
    }
    return undefined;
  }

  /** Move an order's clord index entry after a replace changed its clord_id. */
  reindexClord(order: Order, previous: string | undefined): void {
    if (previous !== undefined && previous !== '') this.unindexClord(order, previous);
    const clordId = order.terms.clordId;
    if (clordId !== undefined && clordId !== '') this.indexClord(order, clordId);
  }

  private indexClord(order: Order, clordId: string): void {
    order.sameClord = this.clords.get(clordId);
    this.clords.set(clordId, order);
  }

  private unindexClord(order: Order, clordId: string): void {
    const head = this.clords.get(clordId);
    if (head === order) {
      if (order.sameClord === undefined) this.clords.delete(clordId);
      else this.clords.set(clordId, order.sameClord);
    } else {
      for (let o = head; o !== undefined; o = o.sameClord) {
        if (o.sameClord === order) {
          o.sameClord = order.sameClord;
          break;
        }
      }
    }
    order.sameClord = undefined;
  }

  // ---- emission ----

  /** Emit an execution carrying `order`'s current state. */
  emit(
    type: ExecutionType,
    order: Order,
    lastPx: number,
    lastQty: number,
    aggressor: boolean,
    tradeSeq: number,
    reason: OrdRejectReason,
    text: string,
  ): Execution {
    const exec = new Execution(
      this.ids,
      this.ids.nextExec(),
      type,
      order.terms,
      order.state,
      order.cumQty,
      order.leavesQty,
      order.cumNotional,
      lastPx,
      lastQty,
      aggressor,
      tradeSeq,
      this.now,
      reason,
      text,
    );
    this.out.addExecution(exec);
    return exec;
  }

  /** Emit the acknowledgement of a just-accepted order. */
  emitNew(order: Order): void {
    this.emit('EXECUTION_TYPE_NEW', order, 0, 0, false, 0, NO_REASON, '');
  }

  /** Emit the rejection of an order that never became live. */
  emitRejected(terms: OrderTerms, reason: OrdRejectReason, text: string): Execution {
    const exec = new Execution(
      this.ids,
      this.ids.nextExec(),
      'EXECUTION_TYPE_REJECTED',
      terms,
      'ORDER_STATE_REJECTED',
      0,
      0,
      0,
      0,
      0,
      false,
      0,
      this.now,
      reason,
      text,
    );
    this.out.addExecution(exec);
    return exec;
  }

  /**
   * Trade `qty` at `px` between the aggressor and a resting order: both orders' fill state, both
   * executions (passive first) and the trade. The caller maintains the level aggregates and removes a
   * resting order that is now filled.
   */
  fill(book: OrderBook, aggr: Order, passive: Order, px: number, qty: number, tradeType: TradeType): void {
    const tradeSeq = this.ids.nextTrade();
    applyFill(passive, px, qty);
    applyFill(aggr, px, qty);
    const p = this.emit(
      passive.leavesQty === 0 ? 'EXECUTION_TYPE_FILL' : 'EXECUTION_TYPE_PARTIAL_FILL',
      passive,
      px,
      qty,
      false,
      tradeSeq,
      NO_REASON,
      '',
    );
    const a = this.emit(
      aggr.leavesQty === 0 ? 'EXECUTION_TYPE_FILL' : 'EXECUTION_TYPE_PARTIAL_FILL',
      aggr,
      px,
      qty,
      true,
      tradeSeq,
      NO_REASON,
      '',
    );
    this.out.addTrade(new Trade(this.ids, tradeSeq, tradeType, book.instrument.symbol, px, qty, a, p, this.now));
    book.lastPx = px;
    if (passive.leavesQty === 0) this.unregister(passive);
    if (aggr.leavesQty === 0) this.unregister(aggr);
  }

  /**
   * End a live order that still has leaves (cancel, expiry, unsolicited cancel): take it off its book or
   * stop book, zero its leaves, drop it from the registry and emit the execution.
   */
  finish(order: Order, state: OrderState, type: ExecutionType, reason: OrdRejectReason, text: string): void {
    if (order.level !== null) order.book.sideOf(order.isBuy).remove(order);
    else if (order.onStopBook) order.book.stops.remove(order);
    order.leavesQty = 0;
    order.state = state;
    this.unregister(order);
    this.emit(type, order, 0, 0, false, 0, reason, text);
  }

  /** Cancel what is left of a live order (not on any book), e.g. an IOC remainder. */
  cancelRemainder(order: Order, text: string, reason: OrdRejectReason = NO_REASON): void {
    this.finish(order, 'ORDER_STATE_CANCELED', 'EXECUTION_TYPE_CANCELED', reason, text);
  }

  cancelReject(
    order: Order | undefined,
    ref: { orderId?: string | undefined; clordId?: string | undefined; account?: string | undefined; symbol?: string | undefined },
    isReplace: boolean,
    reason: CxlRejReason,
    text: string,
  ): void {
    const reject: CancelReject = {
      orderId: order?.terms.orderId ?? ref.orderId,
      clordId: order?.terms.clordId ?? ref.clordId,
      account: order?.terms.account ?? ref.account,
      symbol: order?.terms.symbol ?? ref.symbol,
      isReplace,
      reason,
      text,
      transactTime: this.now,
    };
    this.out.addCancelReject(reject);
  }
}

function applyFill(order: Order, px: number, qty: number): void {
  order.cumQty += qty;
  order.leavesQty -= qty;
  order.cumNotional += px * qty;
  order.state = order.leavesQty === 0 ? 'ORDER_STATE_FILLED' : 'ORDER_STATE_PARTIALLY_FILLED';
}
