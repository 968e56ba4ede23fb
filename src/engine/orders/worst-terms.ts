/**
 * An order's worst terms while a replace of it is in flight: until the exchange answers, the order may work
 * at its old or its new terms, so what can still fill is the larger of its old and new leaves (a replace's
 * qty is the new total, filled quantity included). Risk counts open orders by these terms, read from the
 * same records that say which requests are in flight (in-flight.ts).
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { IntentSide } from '../intents.ts';
import type { PendingReplace, TrackedOrder } from './types.ts';

/** The terms of an open order that exposure is counted from (a TrackedOrder is one). */
export interface OrderTerms {
  readonly clordId: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly price: Decimal | undefined;
  readonly leavesQty: Decimal;
  readonly account: string;
  readonly pendingReplace: PendingReplace | undefined;
}

/** The order itself, or its terms with `leavesQty` raised to the replace's new leaves when those are larger. */
export function worstTerms(order: TrackedOrder): OrderTerms {
  const newQty = order.pendingReplace?.qty;
  if (newQty === undefined) return order;
  const newLeaves = newQty.minus(order.filledQty);
  if (newLeaves.lte(order.leavesQty)) return order;
  const { clordId, symbol, side, price, account, pendingReplace } = order;
  return { clordId, symbol, side, price, leavesQty: newLeaves, account, pendingReplace };
}

/** The open orders at their worst terms; the same array when no replace in flight changes a quantity (the usual case). */
export function atWorstTerms(orders: readonly TrackedOrder[]): readonly OrderTerms[] {
  for (let i = 0; i < orders.length; i++) if ((orders[i] as TrackedOrder).pendingReplace?.qty !== undefined) return orders.map(worstTerms);
  return orders;
}
