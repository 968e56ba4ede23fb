/**
 * The simulator's matching engine (price-time priority, event-contract instruments), also the backtest's
 * fill engine. Pure, synchronous, no I/O, time from an injected `Clock` (epoch ms). Prices and quantities
 * are the wire's raw scaled integers in safe-integer numbers; enum values are the wire's names.
 *
 * Public API
 *   const engine = new MatchingEngine({ clock, idPrefix? });
 *   engine.addInstrument({ symbol, tickSize, lotSize, priceLimitLow, priceLimitHigh, priceScale, maxOrderQty?, state? })
 *   engine.setInstrumentState(symbol, state)      -> EngineResult (STATE event; uncross / expiry effects)
 *   engine.settle(symbol, 0 | priceScale)         -> EngineResult (SETTLEMENT event; expires the instrument)
 *   engine.submit(OrderRequest)                   -> EngineResult
 *   engine.cancel({ orderId } | { account, clordId })          -> EngineResult (CANCELED or a cancel reject)
 *   engine.replace({ orderId | account+clordId, price?, stopPrice?, orderQty?, timeInForce?, goodTillTime?, newClordId? })
 *   engine.cross({ crossId, crossType?, crossPrioritizedSide?, requests: [buy, sell] })
 *   engine.massCancel({ account?, symbol? })
 *   engine.expire(now?)   (GOOD_TILL_TIME; also done automatically at the start of every mutating call)
 *   engine.endOfDay(symbol?)   (DAY orders -> EXPIRED)
 *   engine.book(symbol): BookView { depth(n), bbo(), lastTradePrice(), isCrossed(), orderCount(), state }
 *   engine.depth(symbol, n), engine.bbo(symbol), engine.lastTradePrice(symbol), engine.instrument(symbol)
 *   engine.getOrder(orderId) / engine.openOrders({ account?, symbol? }) -> OrderSnapshot (working orders only)
 *   engine.exportState() / engine.importState(json)   (working orders, counters, book states; snapshot.ts)
 *
 * EngineResult { executions, trades, cancelRejects, instrumentEvents }, each in emission order. Every call
 * returns a fresh result (never reused), so it may be kept; its executions are immutable snapshots.
 * Execution (extends OrderSnapshot): id, seq, type, order (OrderTerms: orderId, clordId, origClordId,
 * account, participant, symbol, side, type, timeInForce, price, stopPrice, orderQty, minQty, flags,
 * goodTillTime, self-match fields, commission bps, tag, crossId, triggered, insertTime), state, cumQty,
 * leavesQty, cumNotional, avgPx (exact decimal string in raw price units), lastPx, lastQty/lastShares,
 * aggressor, tradeId, transactTime, orderRejectReason, text.
 * Trade: id, type (REGULAR | CROSS), state NEW, symbol, price, qty, aggressor and passive executions,
 * buyer, seller, time. CancelReject: orderId, clordId, account, symbol, isReplace, reason, text.
 *
 * Every order lifecycle is: REJECTED, or NEW followed by fills / REPLACE and ending in FILL, CANCELED or
 * EXPIRED. For a working order cum_qty + leaves_qty = order_qty always. Rule-by-rule decisions are in the
 * header comments of order-entry.ts, lifecycle.ts, cross.ts, self-match.ts, instrument-state.ts and
 * validation.ts.
 */
export { MatchingEngine } from './engine.ts';
export type { MatchingEngineOptions } from './engine.ts';
export { EngineResult, Execution, Trade } from './events.ts';
export type { CancelReject, InstrumentEvent } from './events.ts';
export type { CrossProblem } from './cross.ts';
export type { Rejection } from './validation.ts';
export { OrderSnapshot, OrderTerms } from './order.ts';
export { termsFromJson, termsToJson } from './snapshot.ts';
export type { BookJson, EngineJson, TermsJson, WorkingOrderJson } from './snapshot.ts';
export type { IdCounters } from './ids.ts';
export { AVG_PX_DECIMALS, formatAvgPx } from './avg-px.ts';
export * from './types.ts';
