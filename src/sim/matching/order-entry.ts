/**
 * Order entry: a new order's path from request to book, and a triggered stop's path from the stop book to
 * the book. Rules applied here (validation itself is in validation.ts):
 *  - MARKET_TO_LIMIT (CME semantics): takes the price of the best contra level on entry and becomes a limit
 *    at that price, so it trades only at that level and any remainder rests there (or is cancelled if the
 *    tif is IOC/FOK). No contra liquidity: REJECTED with NO_LIQUIDITY.
 *  - participate_dont_initiate (post-only): REJECTED (EXCHANGE_OPTION) if it would trade on entry.
 *  - FILL_OR_KILL and all_or_none: the whole quantity must be executable on entry, else the order is
 *    acknowledged (NEW) and cancelled unexecuted (CANCELED, order_reject_reason NO_LIQUIDITY). all_or_none
 *    orders therefore never rest, so the book can never be left crossed by an unfillable AON order.
 *  - min_qty: at least min_qty must be executable on entry, else NEW then CANCELED as above; once it has
 *    traded >= min_qty the remainder follows the tif (rests, or is cancelled for IOC) with no minimum.
 *  - IMMEDIATE_OR_CANCEL / FILL_OR_KILL remainders are cancelled (CANCELED).
 *  - duplicate clord_id: a new order whose clord_id equals that of a WORKING order of the same account is
 *    REJECTED (EXCHANGE_OPTION); clord_ids of finished orders may be reused.
 *  - STOP / STOP_LIMIT are acknowledged (NEW) and held off-book; a stop whose condition already holds
 *    against the last trade price triggers immediately. On trigger a STOP becomes a market-to-limit (no
 *    liquidity: CANCELED with NO_LIQUIDITY) and a STOP_LIMIT a limit at its price; the FOK / min_qty / AON /
 *    post-only rules then apply as on entry. Triggering emits no execution of its own: the order's terms
 *    (triggered = true, price) show on its next execution and in snapshots.
 *  - Outside OPEN (PREOPEN, auction) accepted orders rest without matching.
 */
import type { EngineState } from './engine-state.ts';
import { executableQty, match, rest, wouldTake } from './matcher.ts';
import type { OrderBook } from './order-book.ts';
import { Order, OrderTerms } from './order.ts';
import { SMP_TEXT } from './self-match.ts';
import type { OrderRequest } from './types.ts';
import { isImmediate, normalizeTif, validateOrder } from './validation.ts';

const PDI_TEXT = 'participate_dont_initiate order would take liquidity';

/** Handle a new order request from validation to its final place. */
export function submitOrder(st: EngineState, req: OrderRequest): void {
  const book = st.books.get(req.symbol);
  const tif = normalizeTif(req.timeInForce);
  const problem = validateOrder(req, book, tif, st.now);
  const seq = st.ids.nextOrder();
  let terms = OrderTerms.fromRequest(seq, st.ids.orderPrefix, req, tif ?? 'TIME_IN_FORCE_DAY', st.now, undefined);
  if (problem !== null || book === undefined) {
    st.emitRejected(terms, problem?.reason ?? 'ORD_REJECT_REASON_UNKNOWN_SYMBOL', problem?.text ?? 'unknown symbol');
    return;
  }
  const clordId = req.clordId;
  if (clordId !== undefined && clordId !== '' && st.findByClord(req.account, clordId) !== undefined) {
    st.emitRejected(
      terms,
      'ORD_REJECT_REASON_EXCHANGE_OPTION',
      `duplicate clord_id ${clordId}: a working order of account ${req.account} uses it`,
    );
    return;
  }
  const isBuy = req.side === 'SIDE_BUY';
  const type = req.type;
  if (type === 'ORDER_TYPE_MARKET_TO_LIMIT') {
    const best = book.contraOf(isBuy).best();
    if (best === undefined) {
      st.emitRejected(terms, 'ORD_REJECT_REASON_NO_LIQUIDITY', 'market-to-limit order: no liquidity on the other side');
      return;
    }
    terms = terms.derive({ price: best.price });
  } else if (
    req.participateDontInitiate === true &&
    type === 'ORDER_TYPE_LIMIT' &&
    book.isOpen() &&
    wouldTake(book, isBuy, req.price as number)
  ) {
    st.emitRejected(terms, 'ORD_REJECT_REASON_EXCHANGE_OPTION', PDI_TEXT);
    return;
  }
  const order = new Order(terms, seq, book);
  st.emitNew(order);
  if (type === 'ORDER_TYPE_STOP' || type === 'ORDER_TYPE_STOP_LIMIT') {
    st.register(order);
    order.priority = st.ids.nextPriority();
    book.stops.add(order);
  } else {
    enter(st, book, order, true);
  }
  if (book.stops.size > 0) runStops(st, book);
}

/**
 * Send a live, priced, not-resting order to the book: match it (when OPEN) and rest or cancel what is
 * left. `onEntry` applies the entry-only conditions (FOK, all_or_none, min_qty).
 */
export function enter(st: EngineState, book: OrderBook, order: Order, onEntry: boolean): void {
  if (!book.isOpen()) {
    rest(st, book, order, false);
    return;
  }
  const t = order.terms;
  if (onEntry) {
    const all = t.timeInForce === 'TIME_IN_FORCE_FILL_OR_KILL' || t.allOrNone;
    const need = all ? order.leavesQty : (t.minQty ?? 0);
    if (need > 0) {
      const available = executableQty(book, order, order.price, need);
      if (available < need) {
        const what = all ? `${t.allOrNone ? 'all_or_none' : 'fill_or_kill'} order needs ${need}` : `min_qty ${need} not executable`;
        st.cancelRemainder(order, `${what}; only ${available} executable now`, 'ORD_REJECT_REASON_NO_LIQUIDITY');
        return;
      }
    }
  }
  if (match(st, book, order, order.price, 'TRADE_TYPE_REGULAR')) {
    st.cancelRemainder(order, SMP_TEXT);
    return;
  }
  if (order.leavesQty === 0) return;
  if (isImmediate(t.timeInForce)) {
    st.cancelRemainder(order, 'unfilled quantity of an immediate order cancelled');
    return;
  }
  rest(st, book, order, false);
}

/** Trigger every stop of `book` whose condition holds against the last trade price, until none does. */
export function runStops(st: EngineState, book: OrderBook): void {
  while (book.isOpen() && book.lastPx !== undefined) {
    const order = book.stops.popTriggered(book.lastPx);
    if (order === undefined) return;
    activate(st, book, order);
  }
}

/** A triggered stop (already off the stop book) enters the book. */
function activate(st: EngineState, book: OrderBook, order: Order): void {
  let price = order.terms.price;
  if (order.terms.type === 'ORDER_TYPE_STOP') {
    const best = book.contraOf(order.isBuy).best();
    if (best === undefined) {
      order.terms = order.terms.derive({ triggered: true });
      st.cancelRemainder(order, 'stop triggered: no liquidity on the other side', 'ORD_REJECT_REASON_NO_LIQUIDITY');
      return;
    }
    price = best.price;
  }
  order.terms = order.terms.derive({ triggered: true, price });
  order.price = price as number;
  if (order.terms.participateDontInitiate && wouldTake(book, order.isBuy, order.price)) {
    st.cancelRemainder(order, PDI_TEXT);
    return;
  }
  enter(st, book, order, true);
}
