// Time in force (IOC, FOK, GTT, DAY / end of day) and entry conditions (min_qty, all_or_none, post-only).
import { describe, expect, it } from 'vitest';
import { buy, first, idOf, of, sell, setup, SYM, types } from './helpers.ts';

describe('IMMEDIATE_OR_CANCEL', () => {
  it('fills what it can and cancels the rest', () => {
    const { engine } = setup();
    engine.submit(sell(3, 50));
    const res = engine.submit(buy(5, 50, { timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }));
    expect(types(res)).toEqual(['NEW', 'FILL', 'PARTIAL_FILL', 'CANCELED']);
    const last = res.executions[3];
    expect(last?.state).toBe('ORDER_STATE_CANCELED');
    expect([last?.cumQty, last?.leavesQty]).toEqual([3, 0]);
    expect(engine.bbo(SYM).bid).toBeUndefined();
  });

  it('is cancelled unexecuted when nothing crosses', () => {
    const { engine } = setup();
    const res = engine.submit(buy(5, 50, { timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }));
    expect(types(res)).toEqual(['NEW', 'CANCELED']);
  });
});

describe('FILL_OR_KILL and all_or_none', () => {
  it('FOK fills completely when enough is executable within its limit', () => {
    const { engine } = setup();
    engine.submit(sell(3, 50));
    engine.submit(sell(3, 51));
    const res = engine.submit(buy(6, 51, { timeInForce: 'TIME_IN_FORCE_FILL_OR_KILL' }));
    expect(types(res)).toEqual(['NEW', 'FILL', 'PARTIAL_FILL', 'FILL', 'FILL']);
  });

  it('FOK is cancelled with nothing traded when the whole quantity is not executable', () => {
    const { engine } = setup();
    engine.submit(sell(3, 50));
    engine.submit(sell(3, 52));
    const res = engine.submit(buy(6, 51, { timeInForce: 'TIME_IN_FORCE_FILL_OR_KILL' }));
    expect(types(res)).toEqual(['NEW', 'CANCELED']);
    expect(res.executions[1]?.orderRejectReason).toBe('ORD_REJECT_REASON_NO_LIQUIDITY');
    expect(res.executions[1]?.text).toMatch(/fill_or_kill order needs 6; only 3/);
    expect(res.trades).toHaveLength(0);
    expect(engine.bbo(SYM).offer).toEqual({ price: 50, qty: 3 });
  });

  it('all_or_none with a resting tif behaves like FOK on entry and never rests', () => {
    const { engine } = setup();
    engine.submit(sell(3, 50));
    const res = engine.submit(buy(4, 50, { allOrNone: true, timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL' }));
    expect(types(res)).toEqual(['NEW', 'CANCELED']);
    expect(res.executions[1]?.text).toMatch(/all_or_none/);
    const ok = engine.submit(buy(3, 50, { allOrNone: true }));
    expect(types(ok)).toEqual(['NEW', 'FILL', 'FILL']);
  });
});

describe('min_qty', () => {
  it('cancels the order unexecuted when less than min_qty is executable on entry', () => {
    const { engine } = setup();
    engine.submit(sell(2, 50));
    const res = engine.submit(buy(10, 50, { minQty: 3 }));
    expect(types(res)).toEqual(['NEW', 'CANCELED']);
    expect(res.executions[1]?.text).toMatch(/min_qty 3 not executable; only 2/);
    expect(engine.bbo(SYM).offer?.qty).toBe(2);
  });

  it('trades at least min_qty and rests the remainder with no minimum afterwards', () => {
    const { engine } = setup();
    engine.submit(sell(4, 50));
    const res = engine.submit(buy(10, 50, { minQty: 3 }));
    expect(types(res)).toEqual(['NEW', 'FILL', 'PARTIAL_FILL']);
    expect(engine.bbo(SYM).bid).toEqual({ price: 50, qty: 6 });
    const later = engine.submit(sell(1, 50));
    expect(later.trades).toHaveLength(1);
  });

  it('with IOC cancels the remainder after trading at least min_qty', () => {
    const { engine } = setup();
    engine.submit(sell(4, 50));
    const res = engine.submit(buy(10, 50, { minQty: 4, timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }));
    expect(types(res)).toEqual(['NEW', 'FILL', 'PARTIAL_FILL', 'CANCELED']);
  });
});

describe('participate_dont_initiate (post-only)', () => {
  it('rests when it does not cross', () => {
    const { engine } = setup();
    engine.submit(sell(1, 51));
    expect(types(engine.submit(buy(1, 50, { participateDontInitiate: true })))).toEqual(['NEW']);
  });

  it('is rejected when it would take liquidity, leaving the book untouched', () => {
    const { engine } = setup();
    engine.submit(sell(1, 50));
    const res = engine.submit(buy(1, 50, { participateDontInitiate: true }));
    expect(types(res)).toEqual(['REJECTED']);
    expect(first(res).text).toMatch(/would take liquidity/);
    expect(engine.bbo(SYM).offer).toEqual({ price: 50, qty: 1 });
  });
});

describe('GOOD_TILL_TIME', () => {
  it('expires when the clock reaches good_till_time, via expire()', () => {
    const { engine, clock } = setup();
    const id = idOf(engine.submit(buy(2, 40, { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t + 1000 })));
    clock.advance(999);
    expect(types(engine.expire())).toEqual([]);
    clock.advance(1);
    const res = engine.expire();
    expect(types(res)).toEqual(['EXPIRED']);
    expect(first(res).order.orderId).toBe(id);
    expect(first(res).state).toBe('ORDER_STATE_EXPIRED');
    expect(first(res).text).toBe('good_till_time reached');
    expect(engine.bbo(SYM).bid).toBeUndefined();
  });

  it('expire(now) uses the time given', () => {
    const { engine, clock } = setup();
    engine.submit(buy(2, 40, { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t + 1000 }));
    const res = engine.expire(clock.t + 5000);
    expect(types(res)).toEqual(['EXPIRED']);
    expect(first(res).transactTime).toBe(clock.t + 5000);
  });

  it('expires due orders before processing the next request, so they cannot trade', () => {
    const { engine, clock } = setup();
    const id = idOf(engine.submit(sell(2, 50, { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t + 10 })));
    clock.advance(10);
    const res = engine.submit(buy(2, 50));
    expect(types(res)).toEqual(['EXPIRED', 'NEW']);
    expect(of(res, id)[0]?.type).toBe('EXECUTION_TYPE_EXPIRED');
    expect(res.trades).toHaveLength(0);
  });

  it('does not expire an order that finished earlier', () => {
    const { engine, clock } = setup();
    const id = idOf(engine.submit(sell(2, 50, { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t + 10 })));
    engine.cancel({ orderId: id });
    clock.advance(100);
    expect(engine.expire().executions).toEqual([]);
  });
});

describe('DAY and end of day', () => {
  it('endOfDay expires DAY orders (tif absent means DAY) and leaves GTC and GTT orders', () => {
    const { engine, clock } = setup();
    const day = idOf(engine.submit(buy(1, 40)));
    const dayExplicit = idOf(engine.submit(buy(1, 41, { timeInForce: 'TIME_IN_FORCE_DAY' })));
    const gtc = idOf(engine.submit(buy(1, 42, { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL' })));
    const gtt = idOf(engine.submit(buy(1, 43, { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t + 1e9 })));
    const res = engine.endOfDay();
    expect(res.executions.map((e) => [e.order.orderId, e.type, e.text])).toEqual([
      [day, 'EXECUTION_TYPE_EXPIRED', 'end of day'],
      [dayExplicit, 'EXECUTION_TYPE_EXPIRED', 'end of day'],
    ]);
    expect(engine.openOrders().map((o) => o.orderId)).toEqual([gtc, gtt]);
    expect(first(engine.submit(buy(1, 44))).order.timeInForce).toBe('TIME_IN_FORCE_DAY');
  });

  it('endOfDay(symbol) only touches that instrument', () => {
    const { engine } = setup();
    engine.addInstrument({ symbol: 'OTHER', tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 99, priceScale: 100 });
    engine.submit(buy(1, 40));
    engine.submit(buy(1, 40, { symbol: 'OTHER' }));
    expect(types(engine.endOfDay('OTHER'))).toEqual(['EXPIRED']);
    expect(engine.openOrders({ symbol: SYM })).toHaveLength(1);
  });
});
