// Price-time priority, aggregated depth and best bid/offer of one instrument's book.
import { describe, expect, it } from 'vitest';
import { buy, first, idOf, of, sell, setup, SYM, types } from './helpers.ts';

describe('price-time priority', () => {
  it('rests a non-crossing limit order and acknowledges it with NEW', () => {
    const { engine } = setup();
    const res = engine.submit(buy(10, 40));
    expect(types(res)).toEqual(['NEW']);
    const ack = first(res);
    expect(ack.state).toBe('ORDER_STATE_NEW');
    expect(ack.leavesQty).toBe(10);
    expect(ack.cumQty).toBe(0);
    expect(res.trades).toHaveLength(0);
    expect(engine.bbo(SYM).bid).toEqual({ price: 40, qty: 10 });
  });

  it('fills the better price first, at the resting price', () => {
    const { engine } = setup();
    engine.submit(sell(5, 52));
    const best = idOf(engine.submit(sell(5, 51)));
    const res = engine.submit(buy(5, 55));
    expect(res.trades).toHaveLength(1);
    expect(res.trades[0]?.price).toBe(51);
    expect(res.trades[0]?.passive.order.orderId).toBe(best);
  });

  it('fills earlier orders first within a level', () => {
    const { engine } = setup();
    const a = idOf(engine.submit(sell(3, 50, { account: 'a' })));
    const b = idOf(engine.submit(sell(3, 50, { account: 'b' })));
    const c = idOf(engine.submit(sell(3, 50, { account: 'c' })));
    const res = engine.submit(buy(5, 50));
    expect(res.trades.map((t) => [t.passive.order.orderId, t.qty])).toEqual([
      [a, 3],
      [b, 2],
    ]);
    expect(engine.getOrder(b)?.leavesQty).toBe(1);
    expect(engine.getOrder(c)?.leavesQty).toBe(3);
  });

  it('sweeps several levels and rests the remainder at its limit', () => {
    const { engine } = setup();
    engine.submit(sell(2, 50));
    engine.submit(sell(2, 51));
    engine.submit(sell(2, 53));
    const res = engine.submit(buy(10, 52));
    expect(res.trades.map((t) => [t.price, t.qty])).toEqual([
      [50, 2],
      [51, 2],
    ]);
    const last = res.executions[res.executions.length - 1];
    expect(last?.state).toBe('ORDER_STATE_PARTIALLY_FILLED');
    expect(last?.leavesQty).toBe(6);
    expect(engine.depth(SYM, 5)).toEqual({ symbol: SYM, bids: [{ price: 52, qty: 6 }], offers: [{ price: 53, qty: 2 }] });
  });

  it('emits passive then aggressor executions per fill, linked by the trade', () => {
    const { engine } = setup();
    const s = idOf(engine.submit(sell(4, 50)));
    const res = engine.submit(buy(4, 50));
    const b = idOf(res);
    expect(types(res)).toEqual(['NEW', 'FILL', 'FILL']);
    const trade = res.trades[0];
    expect(trade?.type).toBe('TRADE_TYPE_REGULAR');
    expect(trade?.state).toBe('TRADE_STATE_NEW');
    expect(trade?.passive.order.orderId).toBe(s);
    expect(trade?.aggressor.order.orderId).toBe(b);
    expect(trade?.aggressor.aggressor).toBe(true);
    expect(trade?.passive.aggressor).toBe(false);
    expect(trade?.aggressor.tradeId).toBe(trade?.id);
    expect(trade?.passive.tradeId).toBe(trade?.id);
    expect(trade?.buyer.order.orderId).toBe(b);
    expect(trade?.seller.order.orderId).toBe(s);
    expect(engine.lastTradePrice(SYM)).toBe(50);
  });

  it('partially fills the resting order and keeps it first in the queue', () => {
    const { engine } = setup();
    const s = idOf(engine.submit(sell(10, 50)));
    const later = idOf(engine.submit(sell(10, 50)));
    const r1 = engine.submit(buy(4, 50));
    expect(of(r1, s).map((e) => e.type)).toEqual(['EXECUTION_TYPE_PARTIAL_FILL']);
    const r2 = engine.submit(buy(6, 50));
    expect(r2.trades[0]?.passive.order.orderId).toBe(s);
    expect(engine.getOrder(s)).toBeUndefined();
    expect(engine.getOrder(later)?.leavesQty).toBe(10);
  });
});

describe('depth and best bid/offer', () => {
  it('aggregates levels, bids descending and offers ascending, up to the depth limit', () => {
    const { engine } = setup();
    for (const p of [40, 42, 41, 42]) engine.submit(buy(1, p));
    for (const p of [60, 58, 59, 58, 61]) engine.submit(sell(2, p));
    const d = engine.depth(SYM, 2);
    expect(d.bids).toEqual([
      { price: 42, qty: 2 },
      { price: 41, qty: 1 },
    ]);
    expect(d.offers).toEqual([
      { price: 58, qty: 4 },
      { price: 59, qty: 2 },
    ]);
    expect(engine.book(SYM).depth(10).offers).toHaveLength(4);
    expect(engine.bbo(SYM)).toEqual({ symbol: SYM, bid: { price: 42, qty: 2 }, offer: { price: 58, qty: 4 } });
  });

  it('reports an empty side as undefined and drops emptied levels', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(1, 40)));
    expect(engine.bbo(SYM).offer).toBeUndefined();
    engine.cancel({ orderId: id });
    expect(engine.bbo(SYM).bid).toBeUndefined();
    expect(engine.depth(SYM).bids).toEqual([]);
    expect(engine.book(SYM).orderCount()).toBe(0);
  });

  it('keeps levels sorted when prices arrive in any order (wide price band)', () => {
    const { engine } = setup({ priceLimitHigh: 1_000_000 });
    const prices = [500, 10, 999_999, 250_000, 11, 499, 501];
    for (const p of prices) engine.submit(buy(1, p));
    expect(engine.depth(SYM, 10).bids.map((l) => l.price)).toEqual([...prices].sort((a, b) => b - a));
  });
});
