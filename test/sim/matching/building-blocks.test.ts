// Unit tests of the engine's building blocks: ids, exact avg_px, price level queue, book side, stop book,
// good-till-time queue.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAvgPx } from '../../../src/sim/matching/avg-px.ts';
import { BookSide } from '../../../src/sim/matching/book-side.ts';
import { ExpiryQueue } from '../../../src/sim/matching/expiry-queue.ts';
import { formatId, IdGenerator, parseId } from '../../../src/sim/matching/ids.ts';
import { OrderBook } from '../../../src/sim/matching/order-book.ts';
import { Order, OrderTerms } from '../../../src/sim/matching/order.ts';
import { PriceLevel } from '../../../src/sim/matching/price-level.ts';
import { StopBook } from '../../../src/sim/matching/stop-book.ts';
import type { Side } from '../../../src/sim/matching/types.ts';

const book = new OrderBook(
  { symbol: 'S', tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 1000, priceScale: 100, maxOrderQty: 1e6 },
  'INSTRUMENT_STATE_OPEN',
);
let seq = 0;
function order(side: Side, price: number, qty: number, stopPrice?: number): Order {
  seq++;
  const terms = OrderTerms.fromRequest(
    seq,
    'O',
    {
      symbol: 'S',
      side,
      type: stopPrice === undefined ? 'ORDER_TYPE_LIMIT' : 'ORDER_TYPE_STOP_LIMIT',
      orderQty: qty,
      price,
      stopPrice,
      account: 'a',
    },
    'TIME_IN_FORCE_DAY',
    0,
    undefined,
  );
  const o = new Order(terms, seq, book);
  o.priority = seq;
  return o;
}

describe('ids', () => {
  it('format with a prefix and 16 zero-padded digits, and parse back', () => {
    expect(formatId('O', 42)).toBe('O0000000000000042');
    expect(parseId('O', 'O0000000000000042')).toBe(42);
    expect(parseId('O', 'X0000000000000042')).toBe(0);
    expect(parseId('O', 'O00000000000000x2')).toBe(0);
    expect(parseId('O', 'O42')).toBe(0);
  });

  it('sort lexicographically like their numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (a, b) => {
        expect(formatId('E', a) < formatId('E', b)).toBe(a < b);
        expect(parseId('E', formatId('E', a))).toBe(a);
      }),
    );
  });

  it('counts orders, executions, trades and priorities independently from 1', () => {
    const g = new IdGenerator('p');
    expect([g.nextOrder(), g.nextOrder(), g.nextExec(), g.nextTrade(), g.nextPriority(), g.lastOrder()]).toEqual([1, 2, 1, 1, 1, 2]);
    expect([g.orderPrefix, g.execPrefix, g.tradePrefix]).toEqual(['pO', 'pE', 'pT']);
  });
});

describe('formatAvgPx', () => {
  it('renders notional / qty exactly, rounded half up', () => {
    expect(formatAvgPx(0, 0)).toBe('0');
    expect(formatAvgPx(152, 3)).toBe('50.666667');
    expect(formatAvgPx(1, 3, 2)).toBe('0.33');
    expect(formatAvgPx(2, 3, 2)).toBe('0.67');
    expect(formatAvgPx(1, 8, 2)).toBe('0.13');
    expect(formatAvgPx(7, 2, 0)).toBe('4');
    expect(formatAvgPx(Number.MAX_SAFE_INTEGER, 1, 3)).toBe('9007199254740991.000');
  });

  it('matches a BigInt reference for any safe notional and quantity', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n, q) => {
        const s = formatAvgPx(n, q, 6);
        const [ip, fp] = s.split('.') as [string, string];
        const scaled = BigInt(ip) * 1_000_000n + BigInt(fp);
        // |scaled / 1e6 - n / q| <= 0.5e-6  <=>  |2 * scaled * q - 2e6 * n| <= q
        const diff = 2n * scaled * BigInt(q) - 2_000_000n * BigInt(n);
        expect(diff <= BigInt(q) && diff > -BigInt(q)).toBe(true);
      }),
    );
  });
});

describe('PriceLevel', () => {
  it('is a FIFO with O(1) removal anywhere and a running quantity', () => {
    const level = new PriceLevel(10);
    const [a, b, c] = [order('SIDE_BUY', 10, 1), order('SIDE_BUY', 10, 2), order('SIDE_BUY', 10, 4)] as [Order, Order, Order];
    level.push(a);
    level.push(b);
    level.push(c);
    expect([level.qty, level.count]).toEqual([7, 3]);
    level.remove(b);
    expect([level.head, level.head?.next, level.tail, level.qty]).toEqual([a, c, c, 5]);
    level.remove(a);
    level.remove(c);
    expect([level.head, level.tail, level.qty, level.count]).toEqual([null, null, 0, 0]);
  });

  it('inserts by priority stamp for rebuilds', () => {
    const level = new PriceLevel(10);
    const os = [order('SIDE_BUY', 10, 1), order('SIDE_BUY', 10, 1), order('SIDE_BUY', 10, 1), order('SIDE_BUY', 10, 1)];
    for (const o of [os[2], os[0], os[3], os[1]] as Order[]) level.insertByPriority(o);
    const got: Order[] = [];
    for (let o = level.head; o !== null; o = o.next) got.push(o);
    expect(got).toEqual(os);
    expect(level.tail).toBe(os[3]);
  });
});

describe('BookSide', () => {
  it('keeps the best level last and orders levels for any insertion order (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 60 }), (isBuy, prices) => {
        const side = new BookSide(isBuy);
        const orders = prices.map((p) => order(isBuy ? 'SIDE_BUY' : 'SIDE_SELL', p, 1));
        for (const o of orders) side.add(o);
        const uniq = [...new Set(prices)].sort((a, b) => (isBuy ? b - a : a - b));
        expect(side.depth(1000).map((l) => l.price)).toEqual(uniq);
        expect(side.best()?.price).toBe(uniq[0]);
        for (const o of orders.slice(0, Math.floor(orders.length / 2))) side.remove(o);
        const left = [...new Set(orders.slice(Math.floor(orders.length / 2)).map((o) => o.price))].sort((a, b) => (isBuy ? b - a : a - b));
        expect(side.depth(1000).map((l) => l.price)).toEqual(left);
        expect(side.orders).toBe(orders.length - Math.floor(orders.length / 2));
      }),
    );
  });

  it('clears every order link', () => {
    const side = new BookSide(false);
    const o = order('SIDE_SELL', 5, 1);
    side.add(o);
    side.clear();
    expect([side.isEmpty(), o.level, side.orders]).toEqual([true, null, 0]);
  });
});

describe('StopBook', () => {
  it('releases buy stops lowest stop first, sell stops highest first, ties by priority', () => {
    const stops = new StopBook();
    const b60 = order('SIDE_BUY', 70, 1, 60);
    const b55 = order('SIDE_BUY', 70, 1, 55);
    const b55later = order('SIDE_BUY', 70, 1, 55);
    const s40 = order('SIDE_SELL', 30, 1, 40);
    const s45 = order('SIDE_SELL', 30, 1, 45);
    for (const o of [b60, b55later, s40, b55, s45]) stops.add(o);
    // Sell stops trigger at last <= stop: 44 triggers the 45 stop only.
    expect(stops.popTriggered(44)).toBe(s45);
    expect(stops.popTriggered(44)).toBeUndefined();
    // Buy stops trigger at last >= stop: 58 triggers both 55 stops (b55 was created first), not the 60 one.
    expect(stops.popTriggered(58)).toBe(b55);
    expect(stops.popTriggered(58)).toBe(b55later);
    expect(stops.popTriggered(58)).toBeUndefined();
    expect(stops.popTriggered(40)).toBe(s40);
    stops.remove(b60);
    expect(stops.size).toBe(0);
    expect(b60.onStopBook).toBe(false);
  });
});

describe('ExpiryQueue', () => {
  it('pops entries in time order, only when due (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 80 }), fc.integer({ min: 0, max: 1000 }), (times, now) => {
        const q = new ExpiryQueue();
        const o = order('SIDE_BUY', 1, 1);
        for (const t of times) q.push(t, o);
        const popped: number[] = [];
        for (let e = q.popDue(now); e !== undefined; e = q.popDue(now)) popped.push(e.time);
        expect(popped).toEqual(times.filter((t) => t <= now).sort((a, b) => a - b));
        expect(q.size).toBe(times.filter((t) => t > now).length);
        expect(q.peekTime()).toBe(q.size === 0 ? Infinity : Math.min(...times.filter((t) => t > now)));
      }),
    );
  });
});
