/**
 * TapeBook (the synthetic book inferred from the trade tape) against a plain reference of its documented
 * rules: random tapes (times never going back, a few prices, both aggressor sides, gaps longer than the
 * size window and the level TTL) interleaved with `consume` (the bot's aggressive fills) and reads of
 * both sides at or after the last trade. The reference expires every level on every trade and read, so
 * the book's shortcut (skipping the scan while no level can be old enough) must give the same levels.
 * And `topStamp`, on which the venue skips comparing the top with its last book event, must change with
 * every change of a best price.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TapeBook } from '../../backtest/replay/tape-book.ts';

interface RefLevel {
  price: number;
  qty: number;
  time: number;
  since: number;
}

/** The rules of tape-book.ts's header, written the slow and obvious way. */
class ReferenceBook {
  bids: RefLevel[] = [];
  asks: RefLevel[] = [];

  constructor(private readonly o: { depth: number; sizeWindowMs: number; levelTtlMs: number }) {}

  trade(price: number, qty: number, buy: boolean, time: number): void {
    this.expire(time);
    if (buy) {
      this.asks = this.asks.filter((l) => l.price >= price);
      this.bids = this.bids.filter((l) => l.price < price);
      this.asks = this.reveal(this.asks, price, qty, time, (a, b) => a - b);
    } else {
      this.bids = this.bids.filter((l) => l.price <= price);
      this.asks = this.asks.filter((l) => l.price > price);
      this.bids = this.reveal(this.bids, price, qty, time, (a, b) => b - a);
    }
  }

  consume(side: 'bid' | 'ask', price: number, qty: number): void {
    const list = side === 'bid' ? this.bids : this.asks;
    const level = list.find((l) => l.price === price);
    if (level === undefined) return;
    level.qty -= qty;
    if (level.qty <= 0) list.splice(list.indexOf(level), 1);
  }

  levels(side: 'bid' | 'ask', now: number): { price: number; qty: number; time: number }[] {
    this.expire(now);
    return (side === 'bid' ? this.bids : this.asks).map(({ price, qty, time }) => ({ price, qty, time }));
  }

  private reveal(list: RefLevel[], price: number, qty: number, time: number, order: (a: number, b: number) => number): RefLevel[] {
    const existing = list.find((l) => l.price === price);
    if (existing !== undefined) {
      if (time - existing.since <= this.o.sizeWindowMs) existing.qty += qty;
      else {
        existing.qty = qty;
        existing.since = time;
      }
      existing.time = time;
      return list;
    }
    return [...list, { price, qty, time, since: time }].sort((a, b) => order(a.price, b.price)).slice(0, this.o.depth);
  }

  private expire(now: number): void {
    const oldest = now - this.o.levelTtlMs;
    this.bids = this.bids.filter((l) => l.time >= oldest);
    this.asks = this.asks.filter((l) => l.time >= oldest);
  }
}

const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('trade' as const),
      dt: fc.integer({ min: 0, max: 900 }),
      price: fc.integer({ min: 40, max: 60 }),
      qty: fc.integer({ min: 1, max: 20 }),
      buy: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('consume' as const),
      side: fc.constantFrom('bid' as const, 'ask' as const),
      price: fc.integer({ min: 40, max: 60 }),
      qty: fc.integer({ min: 1, max: 30 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      dt: fc.integer({ min: 0, max: 900 }),
      side: fc.constantFrom('bid' as const, 'ask' as const),
    }),
  },
);

const bookOptions = fc.record({
  depth: fc.integer({ min: 1, max: 6 }),
  sizeWindowMs: fc.integer({ min: 0, max: 2000 }),
  levelTtlMs: fc.integer({ min: 0, max: 3000 }),
});
const tapes = fc.array(step, { minLength: 1, maxLength: 400 });

const plain = (levels: readonly { price: number; qty: number; time: number }[]) =>
  levels.map(({ price, qty, time }) => ({ price, qty, time }));

type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;
const START = 1_000_000;

/** Applies the tape's trades and consumes to `book`, moving time; `after` sees each step with the time after it. */
function drive(book: TapeBook, steps: readonly Step[], after: (s: Step, now: number) => void): number {
  let now = START;
  for (const s of steps) {
    if (s.kind === 'trade') {
      now += s.dt;
      book.onTrade(s.price, s.qty, s.buy, now);
    } else if (s.kind === 'consume') {
      book.consume(s.side, s.price, s.qty);
    } else {
      now += s.dt;
    }
    after(s, now);
  }
  return now;
}

describe('TapeBook', () => {
  it('keeps the levels the rules give: revealed, removed when traded through, sized per window, expired after TTL, at most depth', () => {
    fc.assert(
      fc.property(bookOptions, tapes, (options, steps) => {
        const book = new TapeBook(options);
        const reference = new ReferenceBook(options);
        const end = drive(book, steps, (s, now) => {
          if (s.kind === 'trade') reference.trade(s.price, s.qty, s.buy, now);
          else if (s.kind === 'consume') reference.consume(s.side, s.price, s.qty);
          else expect(plain(book.levels(s.side, now))).toEqual(reference.levels(s.side, now));
        });
        expect(plain(book.levels('bid', end))).toEqual(reference.levels('bid', end));
        expect(plain(book.levels('ask', end))).toEqual(reference.levels('ask', end));
      }),
      { numRuns: 300 },
    );
  });

  it('changes topStamp whenever a best price changes (trades, consume, expiry): the venue skips its top comparison on it', () => {
    fc.assert(
      fc.property(bookOptions, tapes, (options, steps) => {
        const book = new TapeBook(options);
        const top = (now: number) => [book.levels('bid', now)[0]?.price, book.levels('ask', now)[0]?.price];
        let seen = { stamp: book.topStamp, top: top(START) };
        drive(book, steps, (_s, now) => {
          const current = top(now);
          if (book.topStamp === seen.stamp) expect(current).toEqual(seen.top);
          seen = { stamp: book.topStamp, top: current };
        });
      }),
      { numRuns: 300 },
    );
  });

  it('starts a new level when a trade comes at the price of one past its TTL, whether or not its side was read', () => {
    for (const readAsks of [false, true]) {
      const book = new TapeBook({ depth: 1, sizeWindowMs: 1, levelTtlMs: 0 });
      book.onTrade(54, 1, true, 1000); // an offer at 54
      if (readAsks) expect(plain(book.levels('ask', 1001))).toEqual([]);
      else expect(book.levels('bid', 1001)).toEqual([]);
      book.onTrade(54, 1, true, 1001); // within the size window, but the old level is gone by now
      expect(plain(book.levels('ask', 1001))).toEqual([{ price: 54, qty: 1, time: 1001 }]);
    }
  });

  it('forgets a level older than the TTL, however long nothing traded on its side', () => {
    const book = new TapeBook({ depth: 5, sizeWindowMs: 1000, levelTtlMs: 5000 });
    book.onTrade(50, 3, false, 0); // a bid at 50
    book.onTrade(52, 2, true, 1000); // an offer at 52
    expect(plain(book.levels('bid', 4999))).toEqual([{ price: 50, qty: 3, time: 0 }]);
    expect(book.levels('bid', 5001)).toEqual([]);
    expect(plain(book.levels('ask', 5001))).toEqual([{ price: 52, qty: 2, time: 1000 }]);
    book.onTrade(52, 1, true, 5500); // renews the offer: it lives another TTL from here
    expect(plain(book.levels('ask', 10_400))).toEqual([{ price: 52, qty: 1, time: 5500 }]);
    expect(book.levels('ask', 10_501)).toEqual([]);
  });
});
