// Cancel, cancel-replace and mass cancel: results are executions or cancel rejects, never exceptions.
import { describe, expect, it } from 'vitest';
import { buy, first, idOf, of, sell, setup, SYM, types } from './helpers.ts';

describe('cancel', () => {
  it('cancels a working order by order id', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(5, 40)));
    const res = engine.cancel({ orderId: id });
    expect(types(res)).toEqual(['CANCELED']);
    expect(first(res).state).toBe('ORDER_STATE_CANCELED');
    expect(first(res).leavesQty).toBe(0);
    expect(engine.bbo(SYM).bid).toBeUndefined();
    expect(engine.getOrder(id)).toBeUndefined();
  });

  it('cancels by account and clord_id', () => {
    const { engine } = setup();
    engine.submit(buy(5, 40, { clordId: 'K1' }));
    expect(types(engine.cancel({ account: 'acct-b', clordId: 'K1' }))).toEqual(['CANCELED']);
  });

  it('cancels the remainder of a partially filled order, keeping cum_qty', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(sell(5, 50)));
    engine.submit(buy(2, 50));
    const e = first(engine.cancel({ orderId: id }));
    expect([e.cumQty, e.leavesQty, e.order.orderQty, e.state]).toEqual([2, 0, 5, 'ORDER_STATE_CANCELED']);
  });

  it('answers an unknown order with a cancel reject UNKNOWN_ORDER', () => {
    const { engine } = setup();
    const res = engine.cancel({ orderId: 'O9999999999999999', cancelClordId: 'cx' });
    expect(res.executions).toEqual([]);
    expect(res.cancelRejects).toEqual([
      expect.objectContaining({ reason: 'CXL_REJ_REASON_UNKNOWN_ORDER', isReplace: false, orderId: 'O9999999999999999', clordId: 'cx' }),
    ]);
    expect(engine.cancel({ orderId: 'garbage' }).cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_UNKNOWN_ORDER');
    expect(engine.cancel({ account: 'acct-b', clordId: 'none' }).cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_UNKNOWN_ORDER');
    expect(engine.cancel({}).cancelRejects[0]?.text).toMatch(/required/);
  });

  it('answers a finished order with TOO_LATE_TO_CANCEL', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(sell(1, 50)));
    engine.submit(buy(1, 50));
    const res = engine.cancel({ orderId: id });
    expect(res.cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_TOO_LATE_TO_CANCEL');
    expect(engine.cancel({ orderId: id }).cancelRejects).toHaveLength(1);
  });

  it("refuses to cancel another account's order or one of another symbol", () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(1, 40)));
    expect(engine.cancel({ orderId: id, account: 'intruder' }).cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_UNKNOWN_ORDER');
    expect(engine.cancel({ orderId: id, symbol: 'ELSE' }).cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_UNKNOWN_ORDER');
    expect(engine.getOrder(id)).toBeDefined();
  });

  it('still cancels while the instrument is halted', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(1, 40)));
    engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_HALTED');
    expect(types(engine.cancel({ orderId: id }))).toEqual(['CANCELED']);
  });
});

describe('cancel-replace', () => {
  it('keeps time priority when only the quantity goes down at the same price', () => {
    const { engine } = setup();
    const a = idOf(engine.submit(sell(5, 50, { account: 'a' })));
    const b = idOf(engine.submit(sell(5, 50, { account: 'b' })));
    const res = engine.replace({ orderId: a, orderQty: 3 });
    expect(types(res)).toEqual(['REPLACE']);
    expect([first(res).order.orderQty, first(res).leavesQty, first(res).state]).toEqual([3, 3, 'ORDER_STATE_NEW']);
    const hit = engine.submit(buy(3, 50));
    expect(hit.trades.map((t) => t.passive.order.orderId)).toEqual([a]);
    expect(engine.depth(SYM).offers).toEqual([{ price: 50, qty: 5 }]);
    expect(engine.getOrder(b)?.leavesQty).toBe(5);
  });

  it('keeps priority on a tif-only change', () => {
    const { engine } = setup();
    const a = idOf(engine.submit(sell(5, 50, { account: 'a' })));
    engine.submit(sell(5, 50, { account: 'b' }));
    engine.replace({ orderId: a, timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL' });
    expect(engine.submit(buy(1, 50)).trades[0]?.passive.order.orderId).toBe(a);
  });

  it('loses time priority when the quantity goes up', () => {
    const { engine } = setup();
    const a = idOf(engine.submit(sell(5, 50, { account: 'a' })));
    const b = idOf(engine.submit(sell(5, 50, { account: 'b' })));
    engine.replace({ orderId: a, orderQty: 6 });
    expect(engine.submit(buy(1, 50)).trades[0]?.passive.order.orderId).toBe(b);
    expect(engine.depth(SYM).offers).toEqual([{ price: 50, qty: 10 }]);
  });

  it('loses time priority when the price changes, even when moving back', () => {
    const { engine } = setup();
    const a = idOf(engine.submit(sell(5, 50, { account: 'a' })));
    const b = idOf(engine.submit(sell(5, 50, { account: 'b' })));
    engine.replace({ orderId: a, price: 51 });
    engine.replace({ orderId: a, price: 50 });
    expect(engine.submit(buy(1, 50)).trades[0]?.passive.order.orderId).toBe(b);
  });

  it('matches as aggressor when the new price crosses', () => {
    const { engine } = setup();
    const bid = idOf(engine.submit(buy(5, 48)));
    const ask = idOf(engine.submit(sell(2, 50)));
    const res = engine.replace({ orderId: bid, price: 50 });
    expect(types(res)).toEqual(['REPLACE', 'FILL', 'PARTIAL_FILL']);
    expect(res.trades[0]?.aggressor.order.orderId).toBe(bid);
    expect(res.trades[0]?.passive.order.orderId).toBe(ask);
    expect(engine.bbo(SYM).bid).toEqual({ price: 50, qty: 3 });
  });

  it('finishes the order when the new quantity is at or below cum_qty', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(sell(10, 50)));
    engine.submit(buy(4, 50));
    const res = engine.replace({ orderId: id, orderQty: 3 });
    const e = first(res);
    expect([e.type, e.state, e.order.orderQty, e.cumQty, e.leavesQty]).toEqual(['EXECUTION_TYPE_REPLACE', 'ORDER_STATE_FILLED', 4, 4, 0]);
    expect(engine.getOrder(id)).toBeUndefined();
    expect(engine.bbo(SYM).offer).toBeUndefined();
  });

  it('changes the clord_id, keeping the order id and reporting orig_clord_id', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(5, 40, { clordId: 'A' })));
    const e = first(engine.replace({ account: 'acct-b', clordId: 'A', newClordId: 'B', price: 41 }));
    expect([e.order.orderId, e.order.clordId, e.order.origClordId]).toEqual([id, 'B', 'A']);
    expect(engine.cancel({ account: 'acct-b', clordId: 'A' }).cancelRejects).toHaveLength(1);
    expect(types(engine.cancel({ account: 'acct-b', clordId: 'B' }))).toEqual(['CANCELED']);
  });

  it('rejects a new clord_id used by another working order with DUPLICATE_CLORD_ID', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(5, 40, { clordId: 'A' })));
    engine.submit(buy(5, 41, { clordId: 'B' }));
    const res = engine.replace({ orderId: id, newClordId: 'B', price: 42 });
    expect(res.cancelRejects[0]).toEqual(expect.objectContaining({ reason: 'CXL_REJ_REASON_DUPLICATE_CLORD_ID', isReplace: true }));
    expect(engine.getOrder(id)?.order.price).toBe(40);
  });

  it('rejects invalid new values with a cancel reject and leaves the order unchanged', () => {
    const { engine, clock } = setup({ lotSize: 10 });
    const id = idOf(engine.submit(buy(50, 40)));
    const reject = (r: Parameters<typeof engine.replace>[0]) => engine.replace(r).cancelRejects[0];
    expect(reject({ orderId: id, price: 100 })?.text).toMatch(/outside the price limits/);
    expect(reject({ orderId: id, orderQty: 15 })?.text).toMatch(/lot size/);
    expect(reject({ orderId: id, timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' })?.reason).toBe('CXL_REJ_REASON_OTHER');
    expect(reject({ orderId: id, timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME' })?.text).toMatch(/good_till_time/);
    expect(reject({ orderId: id, goodTillTime: clock.t + 5 })?.text).toMatch(/only allowed with/);
    expect(reject({ orderId: id, stopPrice: 30 })?.text).toMatch(/stop order that has not triggered/);
    expect(engine.getOrder(id)?.order.orderQty).toBe(50);
  });

  it('rejects replacing a finished or unknown order', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(1, 40)));
    engine.cancel({ orderId: id });
    expect(engine.replace({ orderId: id, price: 41 }).cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_TOO_LATE_TO_CANCEL');
    expect(engine.replace({ orderId: 'nope', price: 41 }).cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_UNKNOWN_ORDER');
  });

  it('refuses a replace that would make a post-only order take liquidity', () => {
    const { engine } = setup();
    engine.submit(sell(1, 50));
    const id = idOf(engine.submit(buy(1, 48, { participateDontInitiate: true })));
    const res = engine.replace({ orderId: id, price: 50 });
    expect(res.cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_EXCHANGE_OPTION');
    expect(res.trades).toHaveLength(0);
  });

  it('refuses replaces while the instrument is halted', () => {
    const { engine } = setup();
    const id = idOf(engine.submit(buy(1, 40)));
    engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_HALTED');
    expect(engine.replace({ orderId: id, price: 41 }).cancelRejects[0]?.text).toMatch(/HALTED/);
  });

  it('moves a good_till_time: the old time no longer expires the order', () => {
    const { engine, clock } = setup();
    const id = idOf(engine.submit(buy(1, 40, { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t + 10 })));
    engine.replace({ orderId: id, goodTillTime: clock.t + 100 });
    clock.advance(50);
    expect(engine.expire().executions).toEqual([]);
    clock.advance(50);
    expect(types(engine.expire())).toEqual(['EXPIRED']);
  });

  it('replaces a held stop order (stop price and quantity) and it still triggers', () => {
    const { engine } = setup();
    engine.submit(sell(10, 60, { account: 'liq' }));
    const id = idOf(engine.submit({ symbol: SYM, side: 'SIDE_BUY', type: 'ORDER_TYPE_STOP', orderQty: 2, stopPrice: 58, account: 'st' }));
    const r = engine.replace({ orderId: id, stopPrice: 55, orderQty: 3 });
    expect([first(r).order.stopPrice, first(r).leavesQty]).toEqual([55, 3]);
    expect(engine.replace({ orderId: id, price: 56 }).cancelRejects[0]?.text).toMatch(/no price/);
    engine.submit(sell(1, 55, { account: 'x' }));
    const res = engine.submit(buy(1, 55, { account: 'y' }));
    expect(of(res, id).map((e) => [e.type, e.lastQty, e.lastPx])).toEqual([['EXECUTION_TYPE_FILL', 3, 60]]);
  });
});

describe('mass cancel', () => {
  it('cancels by account, by symbol, by both, or everything', () => {
    const { engine } = setup();
    engine.addInstrument({ symbol: 'B', tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 99, priceScale: 100 });
    engine.submit(buy(1, 40, { account: 'x' }));
    engine.submit(buy(1, 40, { account: 'y' }));
    engine.submit(buy(1, 40, { account: 'x', symbol: 'B' }));
    engine.submit(buy(1, 40, { account: 'y', symbol: 'B' }));
    engine.submit({ symbol: 'B', side: 'SIDE_SELL', type: 'ORDER_TYPE_STOP', orderQty: 1, stopPrice: 10, account: 'x' });
    const both = engine.massCancel({ account: 'x', symbol: 'B' });
    expect(both.executions.map((e) => [e.order.account, e.order.symbol, e.type])).toEqual([
      ['x', 'B', 'EXECUTION_TYPE_CANCELED'],
      ['x', 'B', 'EXECUTION_TYPE_CANCELED'],
    ]);
    expect(engine.massCancel({ account: 'y' }).executions).toHaveLength(2);
    expect(engine.massCancel({ symbol: SYM }).executions).toHaveLength(1);
    expect(engine.massCancel().executions).toHaveLength(0);
    expect(engine.openOrders()).toEqual([]);
  });
});
