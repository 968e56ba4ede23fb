/**
 * Instrument states and what changing them does. The engine does not enforce a transition graph (the
 * simulator drives it); it applies each state's effect:
 *  - OPEN: accepts and matches. Entering OPEN uncrosses the book (see `uncross`) and then runs stops.
 *  - PREOPEN, MATCH_AND_CLOSE_AUCTION: accept orders without matching (orders needing immediate
 *    execution are refused). Leaving MATCH_AND_CLOSE_AUCTION for any state other than EXPIRED/TERMINATED
 *    also uncrosses the book (the closing match).
 *  - HALTED, SUSPENDED, CLOSED, PENDING: refuse new orders and replaces (EXCHANGE_CLOSED / cancel reject);
 *    cancels still work; resting orders stay.
 *  - EXPIRED, TERMINATED: every working order of the instrument (book and stops) gets an EXPIRED execution.
 *  - Settlement (`settle`): at 0 or price_scale raw; moves the instrument to EXPIRED first if it is not
 *    EXPIRED or TERMINATED, then reports a SETTLEMENT instrument event. Positions are settled elsewhere.
 * Uncross: the resting orders are replayed in time priority (their original priority stamps): each order
 * in turn matches as aggressor against the earlier ones at their prices, self-match prevention applying as
 * usual (post-only orders take part like any other: the auction, not the order, initiates), and what is
 * left rests with its original priority. The result is an uncrossed book in which the
 * earliest orders got filled first.
 */
import { TradebotError } from '../../errors.ts';
import type { EngineState } from './engine-state.ts';
import { expireBook } from './lifecycle.ts';
import { match, rest } from './matcher.ts';
import type { OrderBook } from './order-book.ts';
import { runStops } from './order-entry.ts';
import { SMP_TEXT } from './self-match.ts';
import { InstrumentState } from './types.ts';

const STATES = new Set<string>(Object.values(InstrumentState));

export function bookOrThrow(st: EngineState, symbol: string): OrderBook {
  const book = st.books.get(symbol);
  if (book === undefined) {
    throw new TradebotError('MATCHING_UNKNOWN_INSTRUMENT', `no instrument ${symbol}; add it with addInstrument() first`, {
      kind: 'validation',
    });
  }
  return book;
}

export function setInstrumentState(st: EngineState, symbol: string, state: InstrumentState): void {
  const book = bookOrThrow(st, symbol);
  if (!STATES.has(state)) {
    throw new TradebotError('MATCHING_INVALID_STATE', `unknown instrument state ${String(state)}; use one of ${[...STATES].join(', ')}`, {
      kind: 'validation',
    });
  }
  const previous = book.state;
  if (previous === state) return;
  book.state = state;
  st.out.addInstrumentEvent({ kind: 'STATE', symbol, state, previousState: previous, time: st.now });
  if (state === 'INSTRUMENT_STATE_EXPIRED' || state === 'INSTRUMENT_STATE_TERMINATED') {
    expireBook(st, book, `instrument ${symbol} is ${state}`);
    return;
  }
  if (state === 'INSTRUMENT_STATE_OPEN' || previous === 'INSTRUMENT_STATE_MATCH_AND_CLOSE_AUCTION') {
    uncross(st, book);
    if (book.stops.size > 0) runStops(st, book);
  }
}

export function settle(st: EngineState, symbol: string, price: number): void {
  const book = bookOrThrow(st, symbol);
  const scale = book.instrument.priceScale;
  if (price !== 0 && price !== scale) {
    throw new TradebotError('MATCHING_INVALID_SETTLEMENT_PRICE', `settlement price must be 0 or ${scale} (price_scale), got ${price}`, {
      kind: 'validation',
    });
  }
  if (book.settlementPx !== undefined && book.settlementPx !== price) {
    throw new TradebotError('MATCHING_ALREADY_SETTLED', `instrument ${symbol} already settled at ${book.settlementPx}`, {
      kind: 'validation',
    });
  }
  if (book.state !== 'INSTRUMENT_STATE_EXPIRED' && book.state !== 'INSTRUMENT_STATE_TERMINATED') {
    setInstrumentState(st, symbol, 'INSTRUMENT_STATE_EXPIRED');
  }
  book.settlementPx = price;
  st.out.addInstrumentEvent({ kind: 'SETTLEMENT', symbol, price, time: st.now });
}

/** Match a crossed book's orders in time priority until it is no longer crossed. */
export function uncross(st: EngineState, book: OrderBook): void {
  if (!book.isCrossed()) return;
  const orders = book.restingOrders().sort((a, b) => a.priority - b.priority);
  book.bids.clear();
  book.offers.clear();
  for (const order of orders) {
    if (!order.isLive()) continue;
    if (match(st, book, order, order.price, 'TRADE_TYPE_REGULAR')) {
      st.cancelRemainder(order, SMP_TEXT);
    } else if (order.leavesQty > 0) {
      rest(st, book, order, true);
    }
  }
}
