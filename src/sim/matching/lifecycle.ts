/**
 * Changes to working orders: cancel, cancel-replace, mass cancel, good-till-time expiry, end-of-day expiry
 * of DAY orders and expiry of every order of an instrument. Rules:
 *  - An order is found by order_id, or by (account, clord_id) of a working order. Not found: a cancel reject
 *    with UNKNOWN_ORDER, or TOO_LATE_TO_CANCEL when the order_id was issued by this engine but the order is
 *    no longer working (filled, cancelled, expired or rejected). Cancels are allowed in every instrument
 *    state; replaces only while the instrument accepts orders (else EXCHANGE_OPTION).
 *  - Replace: new price / stop_price / order_qty (total, including what has filled) / tif (DAY, GTC or GTT
 *    only) / good_till_time / clord_id. Invalid values: cancel reject OTHER with the validation text; a
 *    new clord_id used by another working order of the account: DUPLICATE_CLORD_ID; a post-only order
 *    repriced to take liquidity: EXCHANGE_OPTION. The order keeps its id.
 *  - Priority is kept when the price is unchanged and the quantity does not go up (a pure tif change keeps
 *    it too); otherwise the order goes to the back of the queue at its (new) price, and if that price
 *    crosses it first matches as an aggressor.
 *  - A replace to order_qty <= cum_qty finishes the order: order_qty becomes cum_qty, leaves 0, state
 *    FILLED, on the REPLACE execution.
 *  - The REPLACE execution carries the order's live state (NEW / PARTIALLY_FILLED, FIX 4.4 style);
 *    ORDER_STATE_REPLACED is never emitted because the order id does not change.
 */
import type { EngineState } from './engine-state.ts';
import { parseId } from './ids.ts';
import { wouldTake } from './matcher.ts';
import type { OrderBook } from './order-book.ts';
import { enter, runStops } from './order-entry.ts';
import type { Order, TermChanges } from './order.ts';
import type { CancelRequest, MassCancelRequest, OrderRef, ReplaceRequest } from './types.ts';
import { checkGoodTillTime, checkPrice, checkQty, isImmediate, normalizeTif } from './validation.ts';

/** Find the working order `ref` designates, or emit a cancel reject and return undefined. */
function resolve(st: EngineState, ref: OrderRef, isReplace: boolean, echoClordId?: string): Order | undefined {
  const echo = { orderId: ref.orderId, clordId: echoClordId ?? ref.clordId, account: ref.account, symbol: ref.symbol };
  let order: Order | undefined;
  if (ref.orderId !== undefined) {
    const seq = parseId(st.ids.orderPrefix, ref.orderId);
    order = seq === 0 ? undefined : st.orders.get(seq);
    if (order === undefined) {
      const issued = seq > 0 && seq <= st.ids.lastOrder();
      st.cancelReject(
        undefined,
        echo,
        isReplace,
        issued ? 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL' : 'CXL_REJ_REASON_UNKNOWN_ORDER',
        issued ? `order ${ref.orderId} is no longer working` : `unknown order ${ref.orderId}`,
      );
      return undefined;
    }
  } else if (ref.account !== undefined && ref.clordId !== undefined) {
    order = st.findByClord(ref.account, ref.clordId);
    if (order === undefined) {
      st.cancelReject(
        undefined,
        echo,
        isReplace,
        'CXL_REJ_REASON_UNKNOWN_ORDER',
        `no working order with clord_id ${ref.clordId} for account ${ref.account}`,
      );
      return undefined;
    }
  } else {
    st.cancelReject(undefined, echo, isReplace, 'CXL_REJ_REASON_UNKNOWN_ORDER', 'order_id, or account and clord_id, are required');
    return undefined;
  }
  if (
    (ref.account !== undefined && ref.account !== order.terms.account) ||
    (ref.symbol !== undefined && ref.symbol !== order.terms.symbol)
  ) {
    st.cancelReject(
      undefined,
      echo,
      isReplace,
      'CXL_REJ_REASON_UNKNOWN_ORDER',
      `order ${ref.orderId ?? ref.clordId ?? ''} does not match the account or symbol given`,
    );
    return undefined;
  }
  return order;
}

export function cancelOrder(st: EngineState, req: CancelRequest): void {
  const order = resolve(st, req, false, req.cancelClordId);
  if (order === undefined) return;
  st.finish(order, 'ORDER_STATE_CANCELED', 'EXECUTION_TYPE_CANCELED', 'ORD_REJECT_REASON_EXCHANGE_OPTION', '');
}

export function replaceOrder(st: EngineState, req: ReplaceRequest): void {
  const order = resolve(st, req, true, req.newClordId);
  if (order === undefined) return;
  const book = order.book;
  // refusals call st.cancelReject directly: a closure here would be built (and named, under tsx) per replace
  if (!book.acceptsOrders()) {
    st.cancelReject(order, req, true, 'CXL_REJ_REASON_EXCHANGE_OPTION', `instrument ${book.symbol} is ${book.state}: replaces are refused`);
    return;
  }
  const t = order.terms;
  const inst = book.instrument;
  const onStops = order.onStopBook;
  let price = t.price;
  if (req.price !== undefined) {
    if (onStops && t.type === 'ORDER_TYPE_STOP')
      return st.cancelReject(order, req, true, 'CXL_REJ_REASON_OTHER', 'a STOP order has no price to replace');
    const problem = checkPrice(req.price, inst, 'price');
    if (problem !== null) return st.cancelReject(order, req, true, 'CXL_REJ_REASON_OTHER', problem.text);
    price = req.price;
  }
  let stopPrice = t.stopPrice;
  if (req.stopPrice !== undefined) {
    if (!onStops)
      return st.cancelReject(
        order,
        req,
        true,
        'CXL_REJ_REASON_OTHER',
        'stop_price can only be replaced on a stop order that has not triggered',
      );
    const problem = checkPrice(req.stopPrice, inst, 'stop_price');
    if (problem !== null) return st.cancelReject(order, req, true, 'CXL_REJ_REASON_OTHER', problem.text);
    stopPrice = req.stopPrice;
  }
  let qty = t.orderQty;
  if (req.orderQty !== undefined) {
    const problem = checkQty(req.orderQty, inst, 'order_qty');
    if (problem !== null) return st.cancelReject(order, req, true, 'CXL_REJ_REASON_OTHER', problem.text);
    qty = req.orderQty;
  }
  let tif = t.timeInForce;
  if (req.timeInForce !== undefined) {
    const n = normalizeTif(req.timeInForce);
    if (n === undefined || isImmediate(n)) {
      return st.cancelReject(
        order,
        req,
        true,
        'CXL_REJ_REASON_OTHER',
        `a replace accepts time in force DAY, GOOD_TILL_CANCEL or GOOD_TILL_TIME, got ${String(req.timeInForce)}`,
      );
    }
    tif = n;
  }
  let gtt = tif === 'TIME_IN_FORCE_GOOD_TILL_TIME' ? (req.goodTillTime ?? t.goodTillTime) : req.goodTillTime;
  const gttProblem = checkGoodTillTime(tif, gtt, st.now);
  if (gttProblem !== null) return st.cancelReject(order, req, true, 'CXL_REJ_REASON_OTHER', gttProblem.text);
  if (tif !== 'TIME_IN_FORCE_GOOD_TILL_TIME') gtt = undefined;
  const newClord = req.newClordId;
  if (newClord !== undefined && newClord !== '' && newClord !== t.clordId) {
    const other = st.findByClord(t.account, newClord);
    if (other !== undefined && other !== order) {
      return st.cancelReject(
        order,
        req,
        true,
        'CXL_REJ_REASON_DUPLICATE_CLORD_ID',
        `clord_id ${newClord} is used by another working order of account ${t.account}`,
      );
    }
  }
  if (t.participateDontInitiate && !onStops && book.isOpen() && wouldTake(book, order.isBuy, price as number)) {
    return st.cancelReject(
      order,
      req,
      true,
      'CXL_REJ_REASON_EXCHANGE_OPTION',
      'participate_dont_initiate order would take liquidity at the new price',
    );
  }

  const changes: TermChanges = { price, stopPrice, orderQty: qty, timeInForce: tif, goodTillTime: gtt };
  if (newClord !== undefined && newClord !== '') changes.clordId = newClord;
  const oldClord = t.clordId;
  if (qty <= order.cumQty) {
    finishByReplace(st, order, changes, oldClord);
    return;
  }
  const newLeaves = qty - order.cumQty;
  if (onStops) {
    const keep = stopPrice === t.stopPrice && qty <= t.orderQty;
    book.stops.remove(order);
    applyTerms(st, order, changes, oldClord, newLeaves);
    if (!keep) order.priority = st.ids.nextPriority();
    book.stops.add(order);
    emitReplace(st, order);
    runStops(st, book);
    return;
  }
  const newPrice = price as number;
  const level = order.level;
  if (level !== null && newPrice === order.price && qty <= t.orderQty) {
    level.qty += newLeaves - order.leavesQty;
    applyTerms(st, order, changes, oldClord, newLeaves);
    emitReplace(st, order);
    return;
  }
  book.sideOf(order.isBuy).remove(order);
  applyTerms(st, order, changes, oldClord, newLeaves);
  order.price = newPrice;
  emitReplace(st, order);
  enter(st, book, order, false);
  if (book.stops.size > 0) runStops(st, book);
}

function applyTerms(st: EngineState, order: Order, changes: TermChanges, oldClord: string | undefined, leaves: number): void {
  order.terms = order.terms.derive(changes);
  order.leavesQty = leaves;
  if (order.terms.clordId !== oldClord) st.reindexClord(order, oldClord);
  const gtt = order.terms.goodTillTime;
  if (gtt !== undefined) st.expiries.push(gtt, order);
}

function emitReplace(st: EngineState, order: Order): void {
  st.emit('EXECUTION_TYPE_REPLACE', order, 0, 0, false, 0, 'ORD_REJECT_REASON_EXCHANGE_OPTION', '');
}

/** A replace down to (or below) the filled quantity: the order is done. */
function finishByReplace(st: EngineState, order: Order, changes: TermChanges, oldClord: string | undefined): void {
  if (order.level !== null) order.book.sideOf(order.isBuy).remove(order);
  else if (order.onStopBook) order.book.stops.remove(order);
  changes.orderQty = order.cumQty;
  order.terms = order.terms.derive(changes);
  if (order.terms.clordId !== oldClord) st.reindexClord(order, oldClord);
  order.leavesQty = 0;
  order.state = 'ORDER_STATE_FILLED';
  st.unregister(order);
  emitReplace(st, order);
}

/** Cancel every working order matching the filter (both fields optional; none = all orders). */
export function massCancel(st: EngineState, filter: MassCancelRequest): void {
  const hits: Order[] = [];
  for (const order of st.ordersOf(filter.symbol)) {
    if (filter.account !== undefined && order.terms.account !== filter.account) continue;
    hits.push(order);
  }
  for (const order of hits) {
    st.finish(order, 'ORDER_STATE_CANCELED', 'EXECUTION_TYPE_CANCELED', 'ORD_REJECT_REASON_EXCHANGE_OPTION', 'mass cancel');
  }
}

/** Expire every GOOD_TILL_TIME order whose good_till_time is <= now. */
export function expireDue(st: EngineState, now: number): void {
  for (;;) {
    const due = st.expiries.popDue(now);
    if (due === undefined) return;
    const o = due.order;
    if (o.isLive() && o.terms.timeInForce === 'TIME_IN_FORCE_GOOD_TILL_TIME' && o.terms.goodTillTime === due.time) {
      st.finish(o, 'ORDER_STATE_EXPIRED', 'EXECUTION_TYPE_EXPIRED', 'ORD_REJECT_REASON_EXCHANGE_OPTION', 'good_till_time reached');
    }
  }
}

/** Expire working orders selected by `pick` (end of day, instrument expiry). */
export function expireWhere(st: EngineState, pick: (order: Order) => boolean, text: string): void {
  const hits: Order[] = [];
  for (const order of st.orders.values()) if (pick(order)) hits.push(order);
  for (const order of hits) {
    st.finish(order, 'ORDER_STATE_EXPIRED', 'EXECUTION_TYPE_EXPIRED', 'ORD_REJECT_REASON_EXCHANGE_OPTION', text);
  }
}

/** Expire every working order of `book` (instrument EXPIRED or TERMINATED). */
export function expireBook(st: EngineState, book: OrderBook, text: string): void {
  expireWhere(st, (o) => o.book === book, text);
}
