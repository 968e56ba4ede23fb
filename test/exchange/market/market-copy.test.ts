/**
 * MarketCopy on synthetic stream events (no network): books replace per update with a growing sequence,
 * go stale on `disconnected` (or when their stream ends) and fresh with the next snapshot; positions
 * replace on each snapshot and change per event; views are immutable values; close() stops the streams.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/index.ts';
import type { Position } from '../../../src/domain/index.ts';
import { MarketCopy, bestBid, bestOffer, midPrice, spread } from '../../../src/exchange/market/index.ts';
import type { BookEvent, MarketChange, MarketDataEvent, PositionStreamEvent } from '../../../src/exchange/market/index.ts';

const d = (text: string): Decimal => new Decimal(text);
const book = (symbol: string, bid: string, offer: string): BookEvent => ({
  type: 'book',
  symbol,
  bids: [{ px: d(bid), qty: d('5') }],
  offers: [{ px: d(offer), qty: d('7') }],
  state: 'INSTRUMENT_STATE_OPEN',
  stats: undefined,
  transactTime: 1,
});
const disconnected: MarketDataEvent = {
  type: 'disconnected',
  attempt: 1,
  reason: 'error',
  error: new Error('gone'),
  willReconnect: true,
  retryInMs: 10,
};
const position = (account: string, symbol: string, net: string): Position => ({
  account,
  symbol,
  netPosition: d(net),
  openBuyQty: d('0'),
  openSellQty: d('0'),
  avgEntryPx: d('0.5'),
  costBasis: d('1'),
  realizedPnl: d('0'),
  updateTime: undefined,
});

describe('MarketCopy', () => {
  it('keeps the latest full book per symbol with a sequence, and top-of-book helpers', () => {
    const market = new MarketCopy();
    const events = new Subject<MarketDataEvent>();
    const changes: MarketChange[] = [];
    market.changes$.subscribe((c) => changes.push(c));
    market.attachBooks(events);
    expect(market.book('A')).toBeUndefined();
    events.next({ type: 'connected', attempt: 1 });
    events.next(book('A', '0.40', '0.60'));
    const first = market.book('A');
    events.next(book('A', '0.41', '0.59'));
    events.next(book('B', '0.10', '0.20'));
    const a = market.book('A');
    expect(a?.sequence).toBe(2);
    expect(first?.sequence).toBe(1);
    expect(first?.bids[0]?.px).toEqual(d('0.40'));
    expect(a && bestBid(a)?.px).toEqual(d('0.41'));
    expect(a && bestOffer(a)?.qty).toEqual(d('7'));
    expect(a && midPrice(a)).toEqual(d('0.5'));
    expect(a && spread(a)).toEqual(d('0.18'));
    expect(market.bookUpdates).toBe(3);
    expect(changes.map((c) => c.type)).toEqual(['book', 'book', 'book']);
    market.close();
  });

  it('marks the books of a stream stale on disconnected, fresh again with the next snapshot', () => {
    const market = new MarketCopy();
    const feedA = new Subject<MarketDataEvent>();
    const feedB = new Subject<MarketDataEvent>();
    const changes: MarketChange[] = [];
    market.changes$.subscribe((c) => changes.push(c));
    market.attachBooks(feedA);
    market.attachBooks(feedB);
    feedA.next(book('A', '0.40', '0.60'));
    feedB.next(book('B', '0.10', '0.20'));
    feedA.next(disconnected);
    expect(market.isFresh('A')).toBe(false);
    expect(market.book('A')?.stale).toBe(true);
    expect(market.book('A')?.bids[0]?.px).toEqual(d('0.40'));
    expect(market.isFresh('B')).toBe(true);
    expect(changes.at(-1)).toEqual({ type: 'stale', symbols: ['A'] });
    feedA.next(disconnected);
    expect(changes.filter((c) => c.type === 'stale')).toHaveLength(1);
    feedA.next({ type: 'connected', attempt: 2 });
    expect(market.isFresh('A')).toBe(false);
    feedA.next(book('A', '0.45', '0.55'));
    expect(market.book('A')).toMatchObject({ stale: false, sequence: 2 });
    market.close();
  });

  it('marks books stale for good when their stream ends, and says why', () => {
    const market = new MarketCopy();
    const feed = new Subject<MarketDataEvent>();
    const changes: MarketChange[] = [];
    market.changes$.subscribe((c) => changes.push(c));
    market.attachBooks(feed);
    feed.next(book('A', '0.40', '0.60'));
    const error = new Error('fatal');
    feed.error(error);
    expect(market.isFresh('A')).toBe(false);
    expect(changes.slice(-2)).toEqual([
      { type: 'stale', symbols: ['A'] },
      { type: 'streamEnded', stream: 'books', error },
    ]);
    market.close();
  });

  it('replaces positions on each snapshot and applies changes; stale until the first snapshot and while down', () => {
    const market = new MarketCopy();
    const feed = new Subject<PositionStreamEvent>();
    market.attachPositions(feed);
    expect(market.positionsStale).toBe(true);
    feed.next({ type: 'positionSnapshot', positions: [position('acc1', 'A', '3'), position('acc1', 'B', '-1')], sessionId: 's1' });
    expect(market.positionsStale).toBe(false);
    feed.next({ type: 'position', position: position('acc1', 'A', '5'), sessionId: 's1' });
    expect(market.position('acc1', 'A')?.netPosition).toEqual(d('5'));
    expect(market.positions('acc1')).toHaveLength(2);
    feed.next({ type: 'disconnected', attempt: 1, reason: 'silence', error: undefined, willReconnect: true, retryInMs: 1 });
    expect(market.positionsStale).toBe(true);
    feed.next({ type: 'positionSnapshot', positions: [position('acc1', 'A', '6')], sessionId: 's2' });
    expect(market.positionsStale).toBe(false);
    expect(market.positions().map((p) => `${p.symbol}:${p.netPosition.toString()}`)).toEqual(['A:6']);
    market.close();
  });

  it('close() unsubscribes every stream and completes changes$', () => {
    const market = new MarketCopy();
    const feed = new Subject<MarketDataEvent>();
    let completed = false;
    market.changes$.subscribe({ complete: () => (completed = true) });
    market.attachBooks(feed);
    expect(feed.observed).toBe(true);
    market.close();
    expect(feed.observed).toBe(false);
    expect(completed).toBe(true);
  });
});
