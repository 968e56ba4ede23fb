/**
 * The transport tests' local market copy (./helpers/book-copy.ts: the engine's BookStore fed by one market
 * data stream, and the positions a position stream leaves) on synthetic stream events (no network): books
 * replace per update with a growing per-symbol sequence, go stale on `disconnected` (or when their stream
 * ends) and fresh with the next snapshot; positions replace on each snapshot and change per event; views are
 * immutable values; close() stops the stream. The transport tests wait on these changes, so they are checked
 * here once.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/index.ts';
import type { Position } from '../../src/domain/index.ts';
import type { BookEvent, MarketDataEvent } from '../../src/domain/stream-events.ts';
import type { PositionStreamEvent } from '../../src/exchange/grpc/index.ts';
import { BookCopy, positionsFrom, type BookChange } from './helpers/book-copy.ts';

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

describe('BookCopy (the engine BookStore fed by a stream)', () => {
  it('keeps the latest full book per symbol with a sequence, and the top of book', () => {
    const market = new BookCopy();
    const events = new Subject<MarketDataEvent>();
    const changes: BookChange[] = [];
    market.changes$.subscribe((c) => changes.push(c));
    market.attach(events);
    expect(market.book('A')).toBeUndefined();
    events.next({ type: 'connected', attempt: 1 });
    events.next(book('A', '0.40', '0.60'));
    const first = market.book('A');
    events.next(book('A', '0.41', '0.59'));
    events.next(book('B', '0.10', '0.20'));
    const a = market.book('A');
    expect(a?.sequence).toBe(2);
    expect(first?.sequence).toBe(1);
    expect(first?.bids[0]?.price).toEqual(d('0.40'));
    expect(a?.bestBid).toEqual(d('0.41'));
    expect(a?.offers[0]?.qty).toEqual(d('7'));
    expect(a?.mid).toEqual(d('0.5'));
    expect(a?.bestOffer?.minus(a.bestBid ?? 0)).toEqual(d('0.18'));
    expect(a?.state).toBe('INSTRUMENT_STATE_OPEN');
    expect(market.updates).toBe(3);
    expect(changes.map((c) => c.type)).toEqual(['book', 'book', 'book']);
    market.close();
  });

  it('marks the books stale on disconnected, fresh again with the next snapshot; one copy per stream', () => {
    const marketA = new BookCopy();
    const marketB = new BookCopy();
    const feedA = new Subject<MarketDataEvent>();
    const feedB = new Subject<MarketDataEvent>();
    const changes: BookChange[] = [];
    marketA.changes$.subscribe((c) => changes.push(c));
    marketA.attach(feedA);
    marketB.attach(feedB);
    expect(() => marketA.attach(feedB)).toThrow(/one stream per copy/);
    feedA.next(book('A', '0.40', '0.60'));
    feedB.next(book('B', '0.10', '0.20'));
    feedA.next(disconnected);
    expect(marketA.isFresh('A')).toBe(false);
    expect(marketA.book('A')?.stale).toBe(true);
    expect(marketA.book('A')?.bids[0]?.price).toEqual(d('0.40'));
    expect(marketB.isFresh('B')).toBe(true);
    expect(changes.at(-1)).toEqual({ type: 'stale', symbols: ['A'] });
    feedA.next(disconnected);
    expect(changes.filter((c) => c.type === 'stale')).toHaveLength(1);
    feedA.next({ type: 'connected', attempt: 2 });
    expect(marketA.isFresh('A')).toBe(false);
    feedA.next(book('A', '0.45', '0.55'));
    expect(marketA.book('A')).toMatchObject({ stale: false, sequence: 2 });
    marketA.close();
    marketB.close();
  });

  it('skips an update older than one already applied, as the engine does, and counts it', () => {
    const market = new BookCopy();
    const feed = new Subject<MarketDataEvent>();
    market.attach(feed);
    feed.next({ ...book('A', '0.41', '0.59'), transactTime: 20 });
    feed.next({ ...book('A', '0.40', '0.60'), transactTime: 10 });
    expect(market.book('A')).toMatchObject({ sequence: 1, bestBid: d('0.41') });
    expect(market.outOfOrder).toBe(1);
    expect(market.updates).toBe(1);
    market.close();
  });

  it('marks books stale for good when their stream ends, and says why', () => {
    const market = new BookCopy();
    const feed = new Subject<MarketDataEvent>();
    const changes: BookChange[] = [];
    market.changes$.subscribe((c) => changes.push(c));
    market.attach(feed);
    feed.next(book('A', '0.40', '0.60'));
    const error = new Error('fatal');
    feed.error(error);
    expect(market.isFresh('A')).toBe(false);
    expect(changes.slice(-2)).toEqual([
      { type: 'stale', symbols: ['A'] },
      { type: 'streamEnded', error },
    ]);
    market.close();
  });

  it('close() unsubscribes the stream and completes changes$', () => {
    const market = new BookCopy();
    const feed = new Subject<MarketDataEvent>();
    let completed = false;
    market.changes$.subscribe({ complete: () => (completed = true) });
    market.attach(feed);
    expect(feed.observed).toBe(true);
    market.close();
    expect(feed.observed).toBe(false);
    expect(completed).toBe(true);
  });
});

describe('positionsFrom (a position stream folded)', () => {
  it('replaces positions on each snapshot and applies changes; stale until the first snapshot and while down', () => {
    const events: PositionStreamEvent[] = [];
    expect(positionsFrom(events).stale).toBe(true);
    events.push({ type: 'positionSnapshot', positions: [position('acc1', 'A', '3'), position('acc1', 'B', '-1')], sessionId: 's1' });
    expect(positionsFrom(events).stale).toBe(false);
    events.push({ type: 'position', position: position('acc1', 'A', '5'), sessionId: 's1' });
    expect(positionsFrom(events).position('acc1', 'A')?.netPosition).toEqual(d('5'));
    expect(positionsFrom(events).positions('acc1')).toHaveLength(2);
    expect(positionsFrom(events).positions('acc2')).toHaveLength(0);
    events.push({ type: 'disconnected', attempt: 1, reason: 'silence', error: undefined, willReconnect: true, retryInMs: 1 });
    expect(positionsFrom(events).stale).toBe(true);
    events.push({ type: 'positionSnapshot', positions: [position('acc1', 'A', '6')], sessionId: 's2' });
    expect(positionsFrom(events).stale).toBe(false);
    expect(
      positionsFrom(events)
        .positions()
        .map((p) => `${p.symbol}:${p.netPosition.toString()}`),
    ).toEqual(['A:6']);
  });
});
