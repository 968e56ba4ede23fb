/**
 * Two-sided crosses (insert_order_cross). Rules:
 *  - Exactly two requests: LIMIT orders for the same symbol, opposite sides, the same price P and the same
 *    quantity Q, a non-empty cross_id, the instrument OPEN. min_qty, all_or_none and
 *    participate_dont_initiate are refused on legs; the legs' tif is ignored (legs never rest).
 *  - If the legs self-match (same account, or the same self_match_prevention_id; see self-match.ts) and either
 *    leg asks for self-match prevention, the cross is refused.
 *  - Any refusal rejects BOTH legs (REJECTED); the leg at fault carries the reason, the other leg
 *    EXCHANGE_OPTION with a text naming the other leg's problem.
 *  - No trade-through: a leg that does not go to the book (both legs when no side is prioritized) must not
 *    cross resting orders priced strictly better than P (bids > P against the sell leg, offers < P against
 *    the buy leg); otherwise the cross is refused with PRICE_OUT_OF_BOUNDS. Resting orders AT P do not
 *    block a cross: it trades at the touch ahead of them.
 *  - cross_prioritized_side (FIX CrossPrioritization "applied to the market first"): the prioritized leg
 *    first trades against the book like a limit order at P (price-time priority, REGULAR trades, its own
 *    self-match prevention), then trades what it has left with the other leg at P; the other leg's unused
 *    quantity is cancelled.
 *  - The legs trade with each other at P in one CROSS trade. Its aggressor execution is the prioritized
 *    leg's, or the first request's when no side is prioritized.
 *  - Cross trades set the last trade price like any trade, so they can trigger stop orders.
 *  - CROSS_TYPE_ALL_OR_NONE: the whole Q must trade between the legs; if the prioritized leg would take any
 *    resting liquidity the cross is refused (both REJECTED, NO_LIQUIDITY). Without a prioritized side an
 *    accepted all-or-none cross always trades Q.
 */
import type { EngineState } from './engine-state.ts';
import { executableQty, match } from './matcher.ts';
import type { OrderBook } from './order-book.ts';
import { runStops } from './order-entry.ts';
import { Order, OrderTerms } from './order.ts';
import { isSelfMatch, SMP_TEXT, smpMode, SMP_NONE } from './self-match.ts';
import type { CrossRequest, OrdRejectReason, OrderRequest } from './types.ts';
import { normalizeTif, validateOrder } from './validation.ts';
import type { Rejection } from './validation.ts';

export interface CrossProblem extends Rejection {
  /** Index of the leg at fault, or -1 when the problem is the cross's. */
  readonly leg: number;
}

export function crossOrders(st: EngineState, req: CrossRequest): void {
  const reqs = req.requests;
  const crossId = typeof req.crossId === 'string' && req.crossId !== '' ? req.crossId : undefined;
  const terms = reqs.map((r) =>
    OrderTerms.fromRequest(st.ids.nextOrder(), st.ids.orderPrefix, r, normalizeTif(r.timeInForce) ?? 'TIME_IN_FORCE_DAY', st.now, crossId),
  );
  const problem = findProblem(st, req, crossId, st.now);
  if (problem !== null) {
    terms.forEach((t, i) => {
      const atFault = problem.leg === -1 || problem.leg === i;
      const reason: OrdRejectReason = atFault ? problem.reason : 'ORD_REJECT_REASON_EXCHANGE_OPTION';
      st.emitRejected(t, reason, atFault ? problem.text : `other leg of the cross rejected: ${problem.text}`);
    });
    return;
  }
  const book = st.books.get((reqs[0] as OrderRequest).symbol) as OrderBook;
  const legs = terms.map((t) => new Order(t, t.orderSeq, book));
  // Legs never rest, so they are never registered as working orders.
  for (const leg of legs) st.emitNew(leg);
  const first = legs[0] as Order;
  const second = legs[1] as Order;
  const price = first.price;
  const prioritized = prioritizedLeg(req, first, second);
  if (prioritized !== undefined) {
    prioritized.priority = st.ids.nextPriority();
    if (match(st, book, prioritized, price, 'TRADE_TYPE_REGULAR')) st.cancelRemainder(prioritized, SMP_TEXT);
  }
  const aggressor = prioritized ?? first;
  const passive = aggressor === first ? second : first;
  const qty = Math.min(aggressor.leavesQty, passive.leavesQty);
  if (qty > 0) st.fill(book, aggressor, passive, price, qty, 'TRADE_TYPE_CROSS');
  for (const leg of legs) {
    if (leg.isLive()) st.cancelRemainder(leg, 'unmatched quantity of a cross leg cancelled');
  }
  if (book.stops.size > 0) runStops(st, book);
}

function prioritizedLeg(req: CrossRequest, a: Order, b: Order): Order | undefined {
  const side = req.crossPrioritizedSide;
  if (side === 'SIDE_BUY') return a.isBuy ? a : b;
  if (side === 'SIDE_SELL') return a.isBuy ? b : a;
  return undefined;
}

/**
 * The refusal `crossOrders` would give this cross, without touching anything (a dry run for the doors of the
 * exchange, which answer argument problems with 400 and leave no trace); null when it would be executed.
 */
export function checkCross(st: EngineState, req: CrossRequest, now: number): CrossProblem | null {
  return findProblem(st, req, typeof req.crossId === 'string' && req.crossId !== '' ? req.crossId : undefined, now);
}

function findProblem(st: EngineState, req: CrossRequest, crossId: string | undefined, now: number): CrossProblem | null {
  const reqs = req.requests;
  const fault = (leg: number, reason: OrdRejectReason, text: string): CrossProblem => ({ leg, reason, text });
  if (reqs.length !== 2) return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', `a cross needs exactly 2 requests, got ${reqs.length}`);
  if (crossId === undefined) return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', 'cross_id is required');
  const ct = req.crossType;
  if (ct !== undefined && ct !== 'CROSS_TYPE_UNDEFINED' && ct !== 'CROSS_TYPE_ALL_OR_NONE') {
    return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', `unknown cross_type ${String(ct)}`);
  }
  const ps = req.crossPrioritizedSide;
  if (ps !== undefined && ps !== 'SIDE_UNDEFINED' && ps !== 'SIDE_BUY' && ps !== 'SIDE_SELL') {
    return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', `unknown cross_prioritized_side ${String(ps)}`);
  }
  const a = reqs[0] as OrderRequest;
  const b = reqs[1] as OrderRequest;
  for (let i = 0; i < 2; i++) {
    const r = reqs[i] as OrderRequest;
    if (r.type !== 'ORDER_TYPE_LIMIT') return fault(i, 'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'cross legs must be LIMIT orders');
    const problem = validateOrder(r, st.books.get(r.symbol), normalizeTif(r.timeInForce), now);
    if (problem !== null) return fault(i, problem.reason, problem.text);
    if (r.minQty !== undefined || r.allOrNone === true || r.participateDontInitiate === true) {
      return fault(
        i,
        'ORD_REJECT_REASON_EXCHANGE_OPTION',
        'min_qty, all_or_none and participate_dont_initiate are not allowed on cross legs',
      );
    }
    const clordId = r.clordId;
    if (clordId !== undefined && clordId !== '' && st.findByClord(r.account, clordId) !== undefined) {
      return fault(
        i,
        'ORD_REJECT_REASON_EXCHANGE_OPTION',
        `duplicate clord_id ${clordId}: a working order of account ${r.account} uses it`,
      );
    }
  }
  if (a.symbol !== b.symbol) return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', 'cross legs must have the same symbol');
  if (a.side === b.side) return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', 'cross legs must be on opposite sides');
  if (a.price !== b.price) return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', 'cross legs must have the same price');
  if (a.orderQty !== b.orderQty) return fault(-1, 'ORD_REJECT_REASON_INCORRECT_QUANTITY', 'cross legs must have the same quantity');
  if (a.account === b.account && a.clordId !== undefined && a.clordId !== '' && a.clordId === b.clordId) {
    return fault(1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', `duplicate clord_id ${a.clordId} on both legs`);
  }
  const book = st.books.get(a.symbol) as OrderBook;
  if (!book.isOpen()) return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_CLOSED', `instrument ${a.symbol} is ${book.state}: crosses need OPEN`);
  if ((smpActive(a) || smpActive(b)) && isSelfMatch(a.account, a.selfMatchPreventionId, b.account, b.selfMatchPreventionId)) {
    const owner = a.account === b.account ? `account ${a.account}` : `self_match_prevention_id ${String(a.selfMatchPreventionId)}`;
    return fault(-1, 'ORD_REJECT_REASON_EXCHANGE_OPTION', `${SMP_TEXT}: both legs belong to ${owner}`);
  }
  const price = a.price as number;
  const buyFirst = a.side === 'SIDE_BUY';
  const prio = ps === 'SIDE_BUY' || ps === 'SIDE_SELL' ? ps : undefined;
  const bestBid = book.bids.best();
  const bestOffer = book.offers.best();
  if (prio !== 'SIDE_SELL' && bestBid !== undefined && bestBid.price > price) {
    return fault(-1, 'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS', `cross price ${price} trades through the best bid ${bestBid.price}`);
  }
  if (prio !== 'SIDE_BUY' && bestOffer !== undefined && bestOffer.price < price) {
    return fault(-1, 'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS', `cross price ${price} trades through the best offer ${bestOffer.price}`);
  }
  if (ct === 'CROSS_TYPE_ALL_OR_NONE' && prio !== undefined) {
    const legReq = (prio === 'SIDE_BUY') === buyFirst ? a : b;
    const probe = new Order(OrderTerms.fromRequest(0, '', legReq, 'TIME_IN_FORCE_DAY', now, crossId), 0, book);
    if (executableQty(book, probe, price, 1) > 0) {
      return fault(-1, 'ORD_REJECT_REASON_NO_LIQUIDITY', 'all-or-none cross: the prioritized leg would trade with resting orders');
    }
  }
  return null;
}

function smpActive(r: OrderRequest): boolean {
  return smpMode(r.selfMatchPreventionInstruction) !== SMP_NONE;
}
