// The engine's book store: full books per symbol with a sequence and staleness flag, and repeated or swapped
// deliveries recognised by transact time and traded volume so they never leave a book one update behind.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/index.ts';
import type { InstrumentStats } from '../../src/domain/index.ts';
import { BookStore } from '../../src/engine/books.ts';
import type { BookEvent } from '../../src/domain/stream-events.ts';

const ZERO = new Decimal(0);
function stats(traded: number): InstrumentStats {
  return {
    openPx: ZERO,
    closePx: ZERO,
    lowPx: ZERO,
    highPx: ZERO,
    lastTradePx: new Decimal('0.5'),
    indicativeOpenPx: ZERO,
    settlementPx: ZERO,
    sharesTraded: new Decimal(traded),
    notionalTraded: ZERO,
    openInterest: ZERO,
  };
}
function book(bid: string, time: number | undefined, traded?: number, symbol = 'S'): BookEvent {
  return {
    type: 'book',
    symbol,
    bids: [{ px: new Decimal(bid), qty: new Decimal(1) }],
    offers: [{ px: new Decimal('0.6'), qty: new Decimal(1) }],
    state: undefined,
    stats: traded === undefined ? undefined : stats(traded),
    transactTime: time,
  };
}

describe('BookStore', () => {
  it('applies full books with a rising sequence and marks them stale on a drop, fresh on the next update', () => {
    const store = new BookStore();
    const first = store.apply(book('0.4', 1000, 5), 1);
    expect(first.becameFresh).toBe(true);
    const second = store.apply(book('0.45', 1001, 5), 2);
    expect(second.becameFresh).toBe(false);
    expect(second.view.seq).toBeGreaterThan(first.view.seq);
    expect(second.view.mid?.toString()).toBe('0.525');
    store.markAllStale();
    expect(store.get('S')?.stale).toBe(true);
    expect(store.isConnected).toBe(false);
    expect(store.apply(book('0.45', 1002, 5), 3).becameFresh).toBe(true);
  });

  it('recognises an update older than the last applied: earlier time, or the same time with less volume traded', () => {
    const store = new BookStore();
    store.apply(book('0.40', 1000, 5), 1);
    store.apply(book('0.41', 1010, 7), 2);
    expect(store.isOutOfOrder(book('0.40', 1000, 5))).toBe(true); // a repeat of the earlier update
    expect(store.isOutOfOrder(book('0.39', 1010, 6))).toBe(true); // same time, less traded: earlier
    expect(store.isOutOfOrder(book('0.41', 1010, 7))).toBe(false); // the same update again changes nothing
    expect(store.isOutOfOrder(book('0.42', 1011, 7))).toBe(false);
    expect(store.isOutOfOrder(book('0.42', undefined))).toBe(false); // no time: cannot tell, applied
    expect(store.isOutOfOrder(book('0.40', 900, 1, 'OTHER'))).toBe(false); // per symbol
  });

  it('forgets the order when the feed drops: a restarted exchange may start its clock and volume afresh', () => {
    const store = new BookStore();
    store.apply(book('0.40', 5000, 50), 1);
    store.markAllStale();
    expect(store.isOutOfOrder(book('0.40', 10, 0))).toBe(false);
  });
});
