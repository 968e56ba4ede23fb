/**
 * The fill model's rules, each on the real matching engine: resting orders fill when the tape trades
 * through their price, or at their price once the queue ahead is used up (partially when the tape's
 * quantity runs out); aggressive orders fill only against the liquidity the tape showed, at its prices.
 */
import { describe, expect, it } from 'vitest';
import { fillHarness, fillsOf } from './helpers/fill-harness.ts';

describe('passive fills', () => {
  it('does not fill a resting bid before the queue ahead of it is used up, then fills the rest in parts', () => {
    const h = fillHarness({ model: 'level', fraction: 1 });
    h.tape(40, 10, 'sell'); // a bid of (at least) 10 at 40
    h.tape(42, 1, 'buy');
    h.order('BUY', 40, 5);
    expect(h.fill.restingOf('X')?.all()[0]?.queueAhead).toBe(10);
    expect(fillsOf(h.tape(40, 6, 'sell'))).toEqual([]);
    expect(fillsOf(h.tape(40, 6, 'sell'))).toEqual([[40, 2]]);
    expect(fillsOf(h.tape(40, 5, 'sell'))).toEqual([[40, 3]]);
    expect(h.fill.restingOf('X')?.size).toBe(0);
  });

  it('never fills at a price the tape did not reach', () => {
    const h = fillHarness({ model: 'none' });
    h.tape(41, 5, 'sell');
    h.tape(43, 5, 'buy');
    h.order('BUY', 40, 5);
    h.order('SELL', 45, 5);
    for (const [p, side] of [
      [41, 'sell'],
      [42, 'buy'],
      [43, 'buy'],
      [44, 'buy'],
      [41, 'sell'],
    ] as const)
      expect(fillsOf(h.tape(p, 20, side))).toEqual([]);
    // at our price but the aggressor on our side (a buyer lifting an offer at 40): does not reach a bid at 40
    expect(fillsOf(h.tape(40, 20, 'buy'))).toEqual([]);
  });

  it('fills partially when the tape trades less than the order at its price', () => {
    const h = fillHarness({ model: 'none' });
    h.tape(41, 1, 'buy');
    h.order('BUY', 40, 5);
    expect(fillsOf(h.tape(40, 3, 'sell'))).toEqual([[40, 3]]);
    const left = h.fill.restingOf('X')?.all()[0];
    expect(left?.leaves).toBe(2);
  });

  it('fills a resting order in full, at its own price, when the tape trades through it', () => {
    const h = fillHarness({ model: 'level', fraction: 1 });
    h.tape(40, 100, 'sell');
    h.order('BUY', 40, 5);
    expect(h.fill.restingOf('X')?.all()[0]?.queueAhead).toBe(100);
    expect(fillsOf(h.tape(39, 1, 'sell'))).toEqual([[40, 5]]);
    h.order('SELL', 45, 4);
    expect(fillsOf(h.tape(46, 1, 'buy'))).toEqual([[45, 4]]);
  });

  it('with tradeThrough print, fills the orders a print trades through by at most its quantity, best price first', () => {
    const h = fillHarness({ model: 'none' }, 'print');
    h.tape(45, 1, 'buy');
    h.order('BUY', 41, 100);
    h.order('BUY', 40, 100);
    expect(fillsOf(h.tape(39, 1, 'sell'))).toEqual([[41, 1]]);
    expect(fillsOf(h.tape(39, 150, 'sell'))).toEqual([
      [41, 99],
      [40, 51],
    ]);
    // at the print's price the orders there get what the orders traded through leave of it
    h.order('BUY', 38, 10);
    expect(fillsOf(h.tape(38, 60, 'sell'))).toEqual([
      [40, 49],
      [38, 10],
    ]);
    const full = fillHarness({ model: 'none' });
    full.tape(45, 1, 'buy');
    full.order('BUY', 41, 100);
    expect(fillsOf(full.tape(39, 1, 'sell'))).toEqual([[41, 100]]);
  });

  it('gives fills at one price in time priority among the bot orders', () => {
    const h = fillHarness({ model: 'volume', windowMs: 60_000 });
    h.tape(40, 4, 'sell');
    const first = h.order('BUY', 40, 3).executions[0]?.order.orderId;
    h.tape(40, 2, 'sell'); // more volume seen at 40: the later order's estimate is higher
    const second = h.order('BUY', 40, 3).executions[0]?.order.orderId;
    const [a, b] = h.fill.restingOf('X')?.all() ?? [];
    expect(a?.queueAhead).toBeLessThanOrEqual(b?.queueAhead ?? -1);
    const fills = h.tape(40, 8, 'sell').filter((e) => e.lastQty > 0);
    expect(fills.map((e) => [e.order.orderId, e.lastQty])).toEqual([[first, 3]]);
    expect(
      h
        .tape(40, 6, 'sell')
        .filter((e) => e.lastQty > 0)
        .map((e) => [e.order.orderId, e.lastQty]),
    ).toEqual([[second, 3]]);
  });

  it('estimates the queue from the tape volume at the price over the window', () => {
    const h = fillHarness({ model: 'volume', windowMs: 5_000 });
    h.tape(40, 7, 'sell');
    h.tape(40, 5, 'sell');
    h.tape(41, 9, 'buy');
    h.order('BUY', 40, 1);
    expect(h.fill.restingOf('X')?.all()[0]?.queueAhead).toBe(12);
    h.now += 10_000;
    // nothing traded at 39 (nor at 40 within the window any more): behind the best bid, at a price the book
    // shows no level for, the thinnest bid level it shows stands for the one at 39
    const shown = h.book.levels('bid', h.now);
    expect(shown.map((l) => l.price)).toEqual([40]);
    h.order('BUY', 39, 1);
    expect(h.fill.restingOf('X')?.all()[1]?.queueAhead).toBe(shown[0]?.qty);
    expect(shown[0]?.qty).toBeGreaterThan(0);
  });

  it('does not put an order that joins behind the best first at its price (every model but none)', () => {
    for (const model of [
      { model: 'volume', windowMs: 30_000 },
      { model: 'level', fraction: 1 },
    ] as const) {
      const h = fillHarness(model);
      h.tape(50, 20, 'sell'); // a bid of (at least) 20 at 50
      h.tape(55, 1, 'buy');
      h.order('BUY', 48, 5); // behind the best bid, at a price the tape never showed
      const ahead = h.fill.restingOf('X')?.all()[0]?.queueAhead ?? 0;
      expect(ahead, model.model).toBeGreaterThan(0);
      expect(fillsOf(h.tape(49, 30, 'sell')), model.model).toEqual([]); // not through 48
      expect(fillsOf(h.tape(48, 1, 'sell')), model.model).toEqual([]); // at 48: the queue first
    }
  });

  it('puts nothing ahead of an order that improves the best price', () => {
    const h = fillHarness({ model: 'level', fraction: 1 });
    h.tape(40, 50, 'sell');
    h.tape(43, 5, 'buy');
    h.order('BUY', 41, 2);
    expect(h.fill.restingOf('X')?.all()[0]?.queueAhead).toBe(0);
    expect(fillsOf(h.tape(41, 1, 'sell'))).toEqual([[41, 1]]);
  });
});

describe('aggressive fills', () => {
  it('fills only against the liquidity the tape showed, at its prices, and rests the remainder', () => {
    const h = fillHarness();
    h.tape(45, 10, 'buy'); // an offer of 10 at 45
    h.tape(43, 4, 'sell');
    const outcome = h.order('BUY', 47, 15);
    expect(fillsOf(outcome.executions)).toEqual([[45, 10]]);
    expect(outcome.executions.at(-1)?.leavesQty).toBe(5);
    expect(h.book.levels('ask', h.now)).toEqual([]);
    expect(h.fill.restingOf('X')?.all()[0]?.price).toBe(47);
  });

  it('takes several shown levels up to its limit and no further', () => {
    const h = fillHarness();
    h.tape(44, 3, 'buy');
    h.tape(45, 6, 'buy'); // removes the offer at 44 (lifted first), shows 45
    h.tape(43, 1, 'sell');
    h.tape(46, 5, 'buy'); // lifts 46: the offer at 45 is gone
    h.tape(45, 2, 'buy'); // a new offer at 45
    expect(h.book.levels('ask', h.now).map((l) => [l.price, l.qty])).toEqual([
      [45, 2],
      [46, 5],
    ]);
    expect(fillsOf(h.order('BUY', 45, 5).executions)).toEqual([[45, 2]]);
    expect(fillsOf(h.order('BUY', 46, 10).executions)).toEqual([[46, 5]]);
    expect(h.book.levels('ask', h.now)).toEqual([]);
  });

  it('does not trade when the order does not reach the shown offer', () => {
    const h = fillHarness();
    h.tape(45, 10, 'buy');
    expect(fillsOf(h.order('BUY', 44, 5).executions)).toEqual([]);
    expect(h.book.levels('ask', h.now)[0]?.qty).toBe(10);
  });

  it('rejects a post-only order that would take the shown liquidity, as the exchange does', () => {
    const h = fillHarness();
    h.tape(45, 10, 'buy');
    const outcome = h.order('BUY', 45, 5, { participateDontInitiate: true });
    expect(outcome.executions[0]?.type).toBe('EXECUTION_TYPE_REJECTED');
    expect(h.book.levels('ask', h.now)[0]?.qty).toBe(10);
  });

  it('rejects a market-to-limit order when the tape shows no contra liquidity', () => {
    const h = fillHarness();
    h.tape(40, 5, 'sell'); // bids only
    const outcome = h.order('BUY', undefined, 5);
    expect(outcome.executions[0]?.orderRejectReason).toBe('ORD_REJECT_REASON_NO_LIQUIDITY');
    expect(fillsOf(h.order('SELL', undefined, 3).executions)).toEqual([[40, 3]]);
  });
});
