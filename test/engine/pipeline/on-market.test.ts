/**
 * The market handler: trades derived from the stats' cumulative shares (per symbol, the first event only a
 * starting point), delivered before the book; out-of-order updates dropped; a disconnect marking every book
 * stale and holding risk's feed until the next book; a settlement asking for a reconciliation instead of a mark.
 */
import { describe, expect, it } from 'vitest';
import { ZERO } from '../../../src/domain/decimal.ts';
import type { InstrumentStats } from '../../../src/domain/index.ts';
import { BookStore } from '../../../src/engine/books.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { MarketHandler, TradesFromStats } from '../../../src/engine/pipeline/on-market.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import { parseRiskConfig, RiskManager } from '../../../src/engine/risk/index.ts';
import { engineRiskContext } from '../../../src/engine/risk-context.ts';
import { RunCounters } from '../../../src/engine/run-counters.ts';
import { SettlementWatch } from '../../../src/engine/settlements.ts';
import type { StrategyRuntime } from '../../../src/engine/strategy/runtime.ts';
import type { MarketDataEvent } from '../../../src/domain/stream-events.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ACCOUNT, T0, d } from '../orders/fixtures.ts';

type BookEvent = Extract<MarketDataEvent, { type: 'book' }>;
const SYMBOL = 'EVT-A';

function stats(sharesTraded: string, lastTradePx: string, settlementPx = '0'): InstrumentStats {
  return {
    openPx: ZERO,
    closePx: ZERO,
    lowPx: ZERO,
    highPx: ZERO,
    lastTradePx: d(lastTradePx),
    indicativeOpenPx: ZERO,
    settlementPx: d(settlementPx),
    sharesTraded: d(sharesTraded),
    notionalTraded: ZERO,
    openInterest: ZERO,
  };
}

function book(overrides: Partial<BookEvent> = {}): BookEvent {
  return {
    type: 'book',
    symbol: SYMBOL,
    bids: [{ px: d('0.40'), qty: d(5) }],
    offers: [{ px: d('0.44'), qty: d(5) }],
    state: 'INSTRUMENT_STATE_OPEN',
    stats: undefined,
    transactTime: undefined,
    ...overrides,
  };
}

describe('TradesFromStats', () => {
  const clock = new VirtualClock(T0);

  it('the first event of a symbol is only the starting point', () => {
    const trades = new TradesFromStats(() => clock.now());
    expect(trades.onBook(book({ stats: stats('10', '0.41') }))).toBeUndefined();
  });

  it('shares traded since the previous event trade at the last trade price, at engine time', () => {
    const trades = new TradesFromStats(() => clock.now());
    trades.onBook(book({ stats: stats('10', '0.41') }));
    const trade = trades.onBook(book({ stats: stats('13', '0.42') }));
    expect(trade && { symbol: trade.symbol, qty: trade.qty.toString(), price: trade.price.toString(), time: trade.time }).toEqual({
      symbol: SYMBOL,
      qty: '3',
      price: '0.42',
      time: T0,
    });
  });

  it('no growth, a fall (a new starting point) or no stats: no trade', () => {
    const trades = new TradesFromStats(() => clock.now());
    trades.onBook(book({ stats: stats('10', '0.41') }));
    expect(trades.onBook(book({ stats: stats('10', '0.41') }))).toBeUndefined();
    expect(trades.onBook(book({ stats: stats('4', '0.41') }))).toBeUndefined();
    expect(trades.onBook(book({ stats: stats('6', '0.43') }))?.qty.toString()).toBe('2');
    expect(trades.onBook(book())).toBeUndefined();
    expect(trades.onBook(book({ stats: stats('1', '0.45') }))?.qty.toString()).toBe('1');
  });

  it('each symbol counts on its own', () => {
    const trades = new TradesFromStats(() => clock.now());
    trades.onBook(book({ stats: stats('10', '0.41') }));
    expect(trades.onBook(book({ symbol: 'EVT-B', stats: stats('20', '0.30') }))).toBeUndefined();
    expect(trades.onBook(book({ symbol: 'EVT-B', stats: stats('21', '0.31') }))?.qty.toString()).toBe('1');
    expect(trades.onBook(book({ stats: stats('11', '0.41') }))?.qty.toString()).toBe('1');
  });
});

function handler() {
  const clock = new VirtualClock(T0);
  const books = new BookStore();
  const counters = new RunCounters();
  const risk = new RiskManager(parseRiskConfig({}), { clock });
  const port = portfolioPort(new Portfolio({ clock }));
  const marks: string[] = [];
  const mark = port.mark.bind(port);
  port.mark = (symbol, price) => {
    marks.push(`${symbol} ${price.toString()}`);
    mark(symbol, price);
  };
  const context = engineRiskContext({
    now: () => clock.now(),
    defaultAccount: ACCOUNT,
    accounts: [ACCOUNT],
    instruments: new Map(),
    eventGroups: new Map(),
    tracker: new OrderTracker({ clock }),
    portfolio: port,
    books,
    risk: () => risk,
    canCross: true,
  });
  const seen: string[] = [];
  const runtime = {
    trade: (t: { qty: { toString(): string } }) => seen.push(`trade ${t.qty.toString()}`),
    book: (b: { symbol: string; stale: boolean }) => seen.push(`book ${b.symbol}${b.stale ? ' stale' : ''}`),
  } as unknown as StrategyRuntime;
  let reconciliations = 0;
  const market = new MarketHandler({
    clock,
    log: silentLogger(),
    books,
    counters,
    risk,
    context,
    portfolio: port,
    settlements: new SettlementWatch(port, () => clock.now()),
    strategy: { runtime },
    reconcile: () => (reconciliations += 1),
  });
  return { market, counters, risk, seen, marks, reconciliations: () => reconciliations };
}

describe('MarketHandler', () => {
  it('a trade the stats reveal reaches the strategy before the book; the book marks the portfolio', () => {
    const h = handler();
    h.market.onEvent(book({ stats: stats('10', '0.41') }));
    h.market.onEvent(book({ stats: stats('12', '0.42') }));
    expect(h.seen).toEqual([`book ${SYMBOL}`, 'trade 2', `book ${SYMBOL}`]);
    expect(h.marks).toEqual([`${SYMBOL} 0.42`, `${SYMBOL} 0.42`]);
    expect(h.counters.bookUpdates).toBe(2);
  });

  it('an update older than one applied is counted and goes nowhere', () => {
    const h = handler();
    h.market.onEvent(book({ transactTime: T0 + 10, stats: stats('10', '0.41') }));
    h.market.onEvent(book({ transactTime: T0 + 5, stats: stats('12', '0.41') }));
    expect(h.counters.bookUpdatesOutOfOrder).toBe(1);
    expect(h.counters.bookUpdates).toBe(1);
    expect(h.seen).toEqual([`book ${SYMBOL}`]);
  });

  it('a disconnect marks every book stale and holds the feed until the next book', () => {
    const h = handler();
    h.market.onEvent(book());
    const disconnected = { type: 'disconnected', attempt: 1, reason: 'ERROR', error: undefined, willReconnect: true, retryInMs: 100 };
    h.market.onEvent(disconnected as MarketDataEvent);
    expect(h.counters.feedDisconnects).toBe(1);
    expect(h.seen).toEqual([`book ${SYMBOL}`, `book ${SYMBOL} stale`]);
    expect(h.risk.tradingState.state).not.toBe('active');
    h.market.onEvent(book());
    expect(h.risk.tradingState.state).toBe('active');
  });

  it('a settlement asks for a reconciliation and does not mark the portfolio', () => {
    const h = handler();
    h.market.onEvent(book({ state: 'INSTRUMENT_STATE_EXPIRED', stats: stats('10', '0.41', '1') }));
    expect(h.reconciliations()).toBe(1);
    expect(h.marks).toEqual([]);
    expect(h.seen).toEqual([`book ${SYMBOL}`]);
  });

  it('other events (heartbeats) change nothing', () => {
    const h = handler();
    h.market.onEvent({ type: 'heartbeat' });
    expect(h.seen).toEqual([]);
    expect(h.counters.bookUpdates).toBe(0);
  });
});
