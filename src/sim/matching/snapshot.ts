/**
 * The engine's state as plain JSON and back, for the simulator's state file (src/sim/state): every working
 * order (terms, fill state, working price, time priority, resting or held as a stop), the id counters and
 * each book's trading state, last trade price and settlement price.
 *
 * `importEngine` rebuilds the books into an engine that has no working orders yet, inserting each order at
 * its original priority stamp, so the queue at every price is the one that was saved; it emits nothing.
 * Orders keep their ids and clord_ids, and the counters continue after the highest ids issued, so no id is
 * ever reused across a restart. Good-till-time orders go back into the expiry queue.
 */
import { TradebotError } from '../../errors.ts';
import type { EngineState } from './engine-state.ts';
import type { IdCounters } from './ids.ts';
import { Order, OrderTerms } from './order.ts';
import type { InstrumentState, OrderState, OrderType, SelfMatchPrevention, Side, TimeInForce } from './types.ts';

/** OrderTerms as JSON (absent optional values are left out). */
export interface TermsJson {
  orderSeq: number;
  symbol: string;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  price?: number | undefined;
  stopPrice?: number | undefined;
  orderQty: number;
  minQty?: number | undefined;
  allOrNone: boolean;
  participateDontInitiate: boolean;
  goodTillTime?: number | undefined;
  account: string;
  clordId?: string | undefined;
  origClordId?: string | undefined;
  participant?: string | undefined;
  selfMatchPreventionId?: string | undefined;
  selfMatchPreventionInstruction?: SelfMatchPrevention | undefined;
  commissionBasisPoints?: number | undefined;
  makerCommissionBasisPoints?: number | undefined;
  tag?: unknown;
  crossId?: string | undefined;
  triggered: boolean;
  insertTime: number;
}

export interface WorkingOrderJson {
  terms: TermsJson;
  state: OrderState;
  cumQty: number;
  leavesQty: number;
  cumNotional: number;
  /** Working limit price (raw); 0 for a held stop that has none yet. */
  price: number;
  priority: number;
  /** Held off-book as an untriggered stop. */
  stop: boolean;
}

export interface BookJson {
  symbol: string;
  state: InstrumentState;
  lastPx?: number | undefined;
  settlementPx?: number | undefined;
}

export interface EngineJson {
  counters: IdCounters;
  books: BookJson[];
  /** In entry order (the order of the engine's registry). */
  orders: WorkingOrderJson[];
}

export function termsToJson(t: OrderTerms): TermsJson {
  return {
    orderSeq: t.orderSeq,
    symbol: t.symbol,
    side: t.side,
    type: t.type,
    timeInForce: t.timeInForce,
    price: t.price,
    stopPrice: t.stopPrice,
    orderQty: t.orderQty,
    minQty: t.minQty,
    allOrNone: t.allOrNone,
    participateDontInitiate: t.participateDontInitiate,
    goodTillTime: t.goodTillTime,
    account: t.account,
    clordId: t.clordId,
    origClordId: t.origClordId,
    participant: t.participant,
    selfMatchPreventionId: t.selfMatchPreventionId,
    selfMatchPreventionInstruction: t.selfMatchPreventionInstruction,
    commissionBasisPoints: t.commissionBasisPoints,
    makerCommissionBasisPoints: t.makerCommissionBasisPoints,
    tag: t.tag,
    crossId: t.crossId,
    triggered: t.triggered,
    insertTime: t.insertTime,
  };
}

export function termsFromJson(j: TermsJson, idPrefix: string): OrderTerms {
  return new OrderTerms(
    j.orderSeq,
    idPrefix,
    j.symbol,
    j.side,
    j.type,
    j.timeInForce,
    j.price,
    j.stopPrice,
    j.orderQty,
    j.minQty,
    j.allOrNone,
    j.participateDontInitiate,
    j.goodTillTime,
    j.account,
    j.clordId,
    j.origClordId,
    j.participant,
    j.selfMatchPreventionId,
    j.selfMatchPreventionInstruction,
    j.commissionBasisPoints,
    j.makerCommissionBasisPoints,
    j.tag,
    j.crossId,
    j.triggered,
    j.insertTime,
  );
}

/** The engine's working orders, counters and book states. */
export function exportEngine(st: EngineState): EngineJson {
  const books: BookJson[] = [...st.books.values()].map((book) => ({
    symbol: book.symbol,
    state: book.state,
    lastPx: book.lastPx,
    settlementPx: book.settlementPx,
  }));
  const orders: WorkingOrderJson[] = [...st.orders.values()].map((o) => ({
    terms: termsToJson(o.terms),
    state: o.state,
    cumQty: o.cumQty,
    leavesQty: o.leavesQty,
    cumNotional: o.cumNotional,
    price: o.price,
    priority: o.priority,
    stop: o.onStopBook,
  }));
  return { counters: st.ids.counters(), books, orders };
}

function restoreError(message: string): TradebotError {
  return new TradebotError('MATCHING_RESTORE_INVALID', message, { kind: 'config' });
}

/** Rebuilds `json` into an engine without working orders (see the module header). Throws MATCHING_RESTORE_INVALID. */
export function importEngine(st: EngineState, json: EngineJson): void {
  if (st.orders.size > 0) throw restoreError('the engine already has working orders; restore into a fresh engine');
  for (const saved of json.books) {
    const book = st.books.get(saved.symbol);
    if (book === undefined)
      throw restoreError(`the saved state has instrument ${saved.symbol}, which is not configured; add it back or remove the state file`);
    book.state = saved.state;
    book.lastPx = saved.lastPx;
    book.settlementPx = saved.settlementPx;
  }
  const orders = [...json.orders].sort((a, b) => a.priority - b.priority);
  for (const saved of orders) {
    const book = st.books.get(saved.terms.symbol);
    if (book === undefined)
      throw restoreError(`a saved order trades ${saved.terms.symbol}, which is not configured; add it back or remove the state file`);
    if (saved.leavesQty <= 0 || saved.cumQty + saved.leavesQty !== saved.terms.orderQty) {
      throw restoreError(
        `saved order ${saved.terms.orderSeq}: cumQty ${saved.cumQty} + leavesQty ${saved.leavesQty} ` +
          `must equal orderQty ${saved.terms.orderQty} with leaves > 0`,
      );
    }
    const order = new Order(termsFromJson(saved.terms, st.ids.orderPrefix), saved.terms.orderSeq, book);
    order.cumQty = saved.cumQty;
    order.leavesQty = saved.leavesQty;
    order.cumNotional = saved.cumNotional;
    order.state = saved.state;
    order.price = saved.price;
    order.priority = saved.priority;
    st.register(order);
    if (saved.stop) book.stops.add(order);
    else book.sideOf(order.isBuy).addByPriority(order);
  }
  st.ids.restore(json.counters);
}
