/**
 * The matching loop: an aggressor order takes liquidity from the contra side of its book in price-time
 * priority (best price first, then queue order), up to an inclusive limit price, applying self-match
 * prevention. Every fill is priced at the resting order's level. Also: the executable-quantity probe used
 * by FILL_OR_KILL / all_or_none / min_qty before anything trades, the "would it take liquidity" test of
 * participate_dont_initiate, and resting an order on its side.
 */
import type { EngineState } from './engine-state.ts';
import type { OrderBook } from './order-book.ts';
import type { Order } from './order.ts';
import { isSelfMatch, SMP_CANCEL_AGGRESSOR, SMP_CANCEL_BOTH, SMP_CANCEL_RESTING, SMP_NONE, SMP_TEXT, smpMode } from './self-match.ts';
import type { TradeType } from './types.ts';

/**
 * Match `aggr` (live, not resting) against the contra side at prices up to `limit` inclusive.
 * Returns true when self-match prevention requires the aggressor's remaining quantity to be cancelled
 * (the caller does it); false when matching stopped because the aggressor filled or nothing is left to take.
 */
export function match(st: EngineState, book: OrderBook, aggr: Order, limit: number, tradeType: TradeType): boolean {
  const isBuy = aggr.isBuy;
  const contra = isBuy ? book.offers : book.bids;
  const mode = smpMode(aggr.terms.selfMatchPreventionInstruction);
  const account = aggr.terms.account;
  const smpId = aggr.terms.selfMatchPreventionId;
  while (aggr.leavesQty > 0) {
    const level = contra.best();
    if (level === undefined) return false;
    const px = level.price;
    if (isBuy ? px > limit : px < limit) return false;
    let r = level.head;
    while (r !== null) {
      const next = r.next;
      if (mode !== SMP_NONE && isSelfMatch(account, smpId, r.terms.account, r.terms.selfMatchPreventionId)) {
        if (mode === SMP_CANCEL_AGGRESSOR) return true;
        st.finish(r, 'ORDER_STATE_CANCELED', 'EXECUTION_TYPE_CANCELED', 'ORD_REJECT_REASON_EXCHANGE_OPTION', SMP_TEXT);
        if (mode === SMP_CANCEL_BOTH) return true;
        r = next;
        continue;
      }
      const q = r.leavesQty < aggr.leavesQty ? r.leavesQty : aggr.leavesQty;
      level.qty -= q;
      st.fill(book, aggr, r, px, q, tradeType);
      if (r.leavesQty === 0) contra.detach(r);
      if (aggr.leavesQty === 0) break;
      r = next;
    }
    // The level may already be gone (a self-match cancel emptied and dropped it).
    if (level.count === 0 && contra.best() === level) contra.dropLevel(level);
  }
  return false;
}

/**
 * How much `aggr` could execute right now at prices up to `limit`, counting self-match prevention the way
 * `match` would apply it. Stops counting once `needed` is reached.
 */
export function executableQty(book: OrderBook, aggr: Order, limit: number, needed: number): number {
  const isBuy = aggr.isBuy;
  const contra = isBuy ? book.offers : book.bids;
  const mode = smpMode(aggr.terms.selfMatchPreventionInstruction);
  const account = aggr.terms.account;
  const smpId = aggr.terms.selfMatchPreventionId;
  let sum = 0;
  for (let i = 0; sum < needed; i++) {
    const level = contra.levelAt(i);
    if (level === undefined) break;
    if (isBuy ? level.price > limit : level.price < limit) break;
    if (mode === SMP_NONE) {
      sum += level.qty;
      continue;
    }
    for (let r = level.head; r !== null && sum < needed; r = r.next) {
      if (isSelfMatch(account, smpId, r.terms.account, r.terms.selfMatchPreventionId)) {
        if (mode === SMP_CANCEL_RESTING) continue;
        return sum;
      }
      sum += r.leavesQty;
    }
  }
  return sum;
}

/** True when an order of this side at `price` would trade against the contra side's best level. */
export function wouldTake(book: OrderBook, isBuy: boolean, price: number): boolean {
  const best = (isBuy ? book.offers : book.bids).best();
  return best !== undefined && (isBuy ? best.price <= price : best.price >= price);
}

/**
 * Rest `order` on its side. A fresh priority stamp puts it at the back of its level's queue;
 * `keepPriority` keeps its current stamp and slots it into the queue by that stamp (book rebuilds).
 */
export function rest(st: EngineState, book: OrderBook, order: Order, keepPriority: boolean): void {
  if (!order.registered) st.register(order);
  const side = order.isBuy ? book.bids : book.offers;
  if (keepPriority) {
    side.addByPriority(order);
    return;
  }
  order.priority = st.ids.nextPriority();
  side.add(order);
}
