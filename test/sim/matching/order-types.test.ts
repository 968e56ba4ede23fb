// Order types: MARKET_TO_LIMIT, STOP and STOP_LIMIT.
import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../src/sim/matching/index.ts';
import { buy, first, idOf, of, sell, setup, SYM, types } from './helpers.ts';

function mtl(side: 'SIDE_BUY' | 'SIDE_SELL', qty: number, extra: Partial<OrderRequest> = {}): OrderRequest {
  return { symbol: SYM, side, type: 'ORDER_TYPE_MARKET_TO_LIMIT', orderQty: qty, account: 'mtl', ...extra };
}

function stop(side: 'SIDE_BUY' | 'SIDE_SELL', qty: number, stopPrice: number, extra: Partial<OrderRequest> = {}): OrderRequest {
  return { symbol: SYM, side, type: 'ORDER_TYPE_STOP', orderQty: qty, stopPrice, account: 'stopper', ...extra };
}

describe('MARKET_TO_LIMIT', () => {
  it('takes the best level only and rests the remainder as a limit at that price', () => {
    const { engine } = setup();
    engine.submit(sell(3, 50));
    engine.submit(sell(5, 51));
    const res = engine.submit(mtl('SIDE_BUY', 10));
    expect(res.trades.map((t) => [t.price, t.qty])).toEqual([[50, 3]]);
    const ack = first(res);
    expect(ack.order.price).toBe(50);
    expect(ack.order.type).toBe('ORDER_TYPE_MARKET_TO_LIMIT');
    expect(engine.bbo(SYM)).toEqual({ symbol: SYM, bid: { price: 50, qty: 7 }, offer: { price: 51, qty: 5 } });
  });

  it('is rejected with NO_LIQUIDITY when the other side is empty', () => {
    const { engine } = setup();
    engine.submit(buy(3, 50));
    const res = engine.submit(mtl('SIDE_BUY', 1));
    expect(types(res)).toEqual(['REJECTED']);
    expect(first(res).orderRejectReason).toBe('ORD_REJECT_REASON_NO_LIQUIDITY');
  });

  it('with IOC cancels what the best level cannot fill', () => {
    const { engine } = setup();
    engine.submit(sell(3, 50));
    engine.submit(sell(5, 51));
    const res = engine.submit(mtl('SIDE_BUY', 10, { timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }));
    expect(types(res)).toEqual(['NEW', 'FILL', 'PARTIAL_FILL', 'CANCELED']);
    expect(engine.bbo(SYM).bid).toBeUndefined();
  });
});

describe('STOP and STOP_LIMIT', () => {
  it('holds a stop off the book until the last trade reaches the stop price (buy: last >= stop)', () => {
    const { engine } = setup();
    const s = engine.submit(stop('SIDE_BUY', 2, 55));
    expect(types(s)).toEqual(['NEW']);
    expect(engine.book(SYM).orderCount()).toBe(0);
    engine.submit(sell(10, 56, { account: 'm1' }));
    // A trade at 54 does not trigger it.
    engine.submit(sell(1, 54, { account: 'm2' }));
    const below = engine.submit(buy(1, 54, { account: 'm3' }));
    expect(of(below, idOf(s))).toEqual([]);
    // A trade at 56 does: the stop becomes a market-to-limit and buys at the best offer.
    const at = engine.submit(buy(1, 56, { account: 'm3' }));
    const stopExecs = of(at, idOf(s));
    expect(stopExecs.map((e) => e.type)).toEqual(['EXECUTION_TYPE_FILL']);
    expect(stopExecs[0]?.lastPx).toBe(56);
    expect(stopExecs[0]?.order.triggered).toBe(true);
    expect(stopExecs[0]?.order.price).toBe(56);
  });

  it('triggers a sell stop when the last trade is at or below the stop price', () => {
    const { engine } = setup();
    engine.submit(buy(10, 40, { account: 'bid' }));
    const s = idOf(engine.submit(stop('SIDE_SELL', 3, 45)));
    engine.submit(buy(1, 46, { account: 'x' }));
    const res = engine.submit(sell(1, 46, { account: 'y' }));
    expect(of(res, s)).toEqual([]);
    engine.submit(buy(1, 45, { account: 'x' }));
    const hit = engine.submit(sell(1, 45, { account: 'y' }));
    expect(of(hit, s).map((e) => [e.type, e.lastPx, e.lastQty])).toEqual([['EXECUTION_TYPE_FILL', 40, 3]]);
  });

  it('turns a triggered STOP_LIMIT into a limit at its price, resting what does not fill', () => {
    const { engine } = setup();
    engine.submit(sell(2, 57, { account: 'm' }));
    const id = idOf(engine.submit({ ...stop('SIDE_BUY', 5, 55), type: 'ORDER_TYPE_STOP_LIMIT', price: 56 }));
    engine.submit(sell(1, 55, { account: 'z' }));
    const res = engine.submit(buy(1, 55, { account: 'w' }));
    expect(of(res, id)).toEqual([]);
    expect(engine.getOrder(id)?.order.triggered).toBe(true);
    expect(engine.bbo(SYM).bid).toEqual({ price: 56, qty: 5 });
  });

  it('cancels a triggered STOP with NO_LIQUIDITY when nothing is left to take', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(stop('SIDE_BUY', 5, 50)));
    engine.submit(sell(1, 50, { account: 'a' }));
    const res = engine.submit(buy(1, 50, { account: 'b' }));
    const e = of(res, id);
    expect(e.map((x) => x.type)).toEqual(['EXECUTION_TYPE_CANCELED']);
    expect(e[0]?.orderRejectReason).toBe('ORD_REJECT_REASON_NO_LIQUIDITY');
    expect(engine.getOrder(id)).toBeUndefined();
  });

  it('triggers at once when the condition already holds on entry', () => {
    const { engine } = setup();
    engine.submit(sell(1, 60, { account: 'a' }));
    engine.submit(buy(1, 60, { account: 'b' }));
    engine.submit(sell(4, 61, { account: 'c' }));
    const res = engine.submit(stop('SIDE_BUY', 2, 58));
    expect(types(res)).toEqual(['NEW', 'PARTIAL_FILL', 'FILL']);
    expect(res.trades[0]?.price).toBe(61);
  });

  it('cascades: a triggered stop trade can trigger further stops, earliest stop price first', () => {
    const { engine } = setup();
    engine.submit(sell(1, 50, { account: 'l1' }));
    engine.submit(sell(1, 51, { account: 'l2' }));
    engine.submit(sell(1, 52, { account: 'l3' }));
    const s2 = idOf(engine.submit(stop('SIDE_BUY', 1, 51, { account: 's2' })));
    const s1 = idOf(engine.submit(stop('SIDE_BUY', 1, 50, { account: 's1' })));
    const res = engine.submit(buy(1, 50, { account: 'go' }));
    // The trade at 50 triggers s1 (buys at 51), whose trade at 51 triggers s2 (buys at 52).
    expect(res.trades.map((t) => [t.price, t.aggressor.order.orderId])).toEqual([
      [50, idOf(res)],
      [51, s1],
      [52, s2],
    ]);
  });

  it('does not trigger stops outside OPEN and cancels them like any order', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(stop('SIDE_SELL', 1, 10)));
    expect(engine.openOrders({ account: 'stopper' }).map((o) => o.orderId)).toEqual([id]);
    const res = engine.cancel({ orderId: id });
    expect(types(res)).toEqual(['CANCELED']);
    expect(engine.openOrders()).toEqual([]);
  });
});
