// The engine's book store: full books per symbol with a sequence and staleness flag, and repeated or swapped
// deliveries recognised by transact time and traded volume so they never leave a book one update behind.
import fc from 'fast-check';
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

describe('BookStore views kept across updates', () => {
  // a pool of shared Decimals, as the decoders give (one object per value), and sometimes an equal new object
  const pool = ['0.40', '0.41', '0.42', '0.43', '0.44', '1', '2', '3'].map((t) => new Decimal(t));
  const value = fc.tuple(fc.integer({ min: 0, max: pool.length - 1 }), fc.boolean());
  const decimalOf = ([i, fresh]: [number, boolean]) => (fresh ? new Decimal(pool[i] as Decimal) : (pool[i] as Decimal));
  const side = fc
    .array(fc.tuple(value, value), { maxLength: 4 })
    .map((levels) => levels.map(([px, qty]) => ({ px: decimalOf(px), qty: decimalOf(qty) })));
  const event = fc.tuple(side, side).map(([bids, offers]): BookEvent => ({
    type: 'book',
    symbol: 'S',
    bids,
    offers,
    state: undefined,
    stats: undefined,
    transactTime: undefined,
  }));
  const plain = (levels: readonly { price: Decimal; qty: Decimal }[]) => levels.map((l) => [l.price.toString(), l.qty.toString()]);

  it('gives the levels and mid a fresh store gives for the same update, sharing unchanged levels and sides', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 12 }), (events) => {
        const store = new BookStore();
        let before: ReturnType<BookStore['apply']>['view'] | undefined;
        for (const e of events) {
          const { view } = store.apply(e, 1);
          const { view: alone } = new BookStore().apply(e, 1);
          expect(plain(view.bids)).toEqual(plain(alone.bids));
          expect(plain(view.offers)).toEqual(plain(alone.offers));
          expect(view.mid?.toString()).toBe(alone.mid?.toString());
          expect([view.bestBid, view.bestOffer]).toEqual([alone.bestBid, alone.bestOffer]);
          for (const [levels, previous, given] of [
            [view.bids, before?.bids, e.bids],
            [view.offers, before?.offers, e.offers],
          ] as const) {
            levels.forEach((l, i) => {
              // every level view holds the event's own objects
              expect(l.price).toBe(given[i]?.px);
              expect(l.qty).toBe(given[i]?.qty);
              const old = previous?.[i];
              if (old !== undefined && old.price === l.price && old.qty === l.qty) expect(l).toBe(old);
            });
            const unchanged = previous !== undefined && previous.length === levels.length && levels.every((l, i) => l === previous[i]);
            if (unchanged) expect(levels).toBe(previous);
          }
          before = view;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the side arrays and the mid object of an update that repeats the last one', () => {
    const store = new BookStore();
    const e = book('0.4', undefined);
    const first = store.apply(e, 1).view;
    const second = store.apply({ ...e }, 2).view;
    expect(second.bids).toBe(first.bids);
    expect(second.offers).toBe(first.offers);
    expect(second.mid).toBe(first.mid);
    expect(second.mid?.toString()).toBe('0.5');
    expect(second.seq).toBe(first.seq + 1);
  });
});
