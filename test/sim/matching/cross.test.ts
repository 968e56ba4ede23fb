// Two-sided crosses: validation (both legs rejected together), trade-through protection, prioritized side,
// all-or-none, CROSS trade type.
import { describe, expect, it } from 'vitest';
import type { CrossRequest, OrderRequest } from '../../../src/sim/matching/index.ts';
import { buy, idOf, of, sell, setup, SYM, types } from './helpers.ts';

function cross(
  qty: number,
  price: number,
  extra: Partial<CrossRequest> = {},
  legs: [Partial<OrderRequest>, Partial<OrderRequest>] = [{}, {}],
): CrossRequest {
  return {
    crossId: 'X1',
    requests: [buy(qty, price, { account: 'buyer', ...legs[0] }), sell(qty, price, { account: 'seller', ...legs[1] })],
    ...extra,
  };
}

describe('crosses', () => {
  it('trades the two legs with each other in one CROSS trade at the cross price', () => {
    const { engine } = setup();
    const res = engine.cross(cross(10, 50));
    expect(types(res)).toEqual(['NEW', 'NEW', 'FILL', 'FILL']);
    expect(res.trades).toHaveLength(1);
    const t = res.trades[0];
    expect([t?.type, t?.price, t?.qty]).toEqual(['TRADE_TYPE_CROSS', 50, 10]);
    expect(t?.aggressor.order.account).toBe('buyer');
    expect(res.executions[0]?.order.crossId).toBe('X1');
    expect(engine.lastTradePrice(SYM)).toBe(50);
    expect(engine.book(SYM).orderCount()).toBe(0);
  });

  it('trades at the touch ahead of resting orders at the cross price', () => {
    const { engine } = setup();
    engine.submit(buy(5, 50, { account: 'rest' }));
    engine.submit(sell(5, 51, { account: 'rest' }));
    const res = engine.cross(cross(3, 50));
    expect(res.trades.map((t) => t.type)).toEqual(['TRADE_TYPE_CROSS']);
    expect(engine.depth(SYM).bids).toEqual([{ price: 50, qty: 5 }]);
  });

  it('checkCross is a dry run: the refusal cross would give, with nothing emitted or numbered', () => {
    const { engine } = setup();
    engine.submit(sell(5, 49, { account: 'rest' }));
    const problem = engine.checkCross(cross(3, 50));
    expect(problem).toMatchObject({ leg: -1, reason: 'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS' });
    expect(engine.checkCross(cross(3, 49))).toBeNull();
    expect(engine.checkCross(cross(3, 50, {}, [{ price: 51 }, {}]))).not.toBeNull();
    // nothing happened: the next order gets the id right after the resting one
    const next = engine.submit(buy(1, 40, { account: 'rest' }));
    expect(idOf(next)).toMatch(/O0+2$/);
    expect(engine.depth(SYM).offers).toEqual([{ price: 49, qty: 5 }]);
  });

  it('rejects both legs when the price trades through the book', () => {
    const { engine } = setup();
    engine.submit(sell(5, 49, { account: 'rest' }));
    const res = engine.cross(cross(3, 50));
    expect(types(res)).toEqual(['REJECTED', 'REJECTED']);
    expect(res.executions.map((e) => e.orderRejectReason)).toEqual([
      'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS',
      'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS',
    ]);
    expect(res.executions[0]?.text).toMatch(/trades through the best offer 49/);
  });

  it('lets the prioritized leg take better-priced and same-priced resting orders first', () => {
    const { engine } = setup();
    const cheap = idOf(engine.submit(sell(2, 49, { account: 'rest' })));
    const same = idOf(engine.submit(sell(2, 50, { account: 'rest2' })));
    const res = engine.cross(cross(10, 50, { crossPrioritizedSide: 'SIDE_BUY' }));
    expect(res.trades.map((t) => [t.type, t.price, t.qty, t.passive.order.orderId])).toEqual([
      ['TRADE_TYPE_REGULAR', 49, 2, cheap],
      ['TRADE_TYPE_REGULAR', 50, 2, same],
      ['TRADE_TYPE_CROSS', 50, 6, expect.any(String)],
    ]);
    const sellLeg = res.executions[1]?.order.orderId as string;
    const sellExecs = of(res, sellLeg);
    expect(sellExecs.map((e) => [e.type, e.cumQty, e.leavesQty])).toEqual([
      ['EXECUTION_TYPE_NEW', 0, 10],
      ['EXECUTION_TYPE_PARTIAL_FILL', 6, 4],
      ['EXECUTION_TYPE_CANCELED', 6, 0],
    ]);
    expect(res.trades[2]?.aggressor.order.side).toBe('SIDE_BUY');
  });

  it('still refuses a trade-through on the side that is not prioritized', () => {
    const { engine } = setup();
    engine.submit(buy(2, 52, { account: 'rest' }));
    const res = engine.cross(cross(10, 50, { crossPrioritizedSide: 'SIDE_BUY' }));
    expect(types(res)).toEqual(['REJECTED', 'REJECTED']);
    expect(res.executions[0]?.text).toMatch(/best bid 52/);
  });

  it('ALL_OR_NONE refuses a cross whose prioritized leg would trade with the book', () => {
    const { engine } = setup();
    engine.submit(sell(2, 50, { account: 'rest' }));
    const res = engine.cross(cross(10, 50, { crossPrioritizedSide: 'SIDE_BUY', crossType: 'CROSS_TYPE_ALL_OR_NONE' }));
    expect(types(res)).toEqual(['REJECTED', 'REJECTED']);
    expect(res.executions[0]?.orderRejectReason).toBe('ORD_REJECT_REASON_NO_LIQUIDITY');
    const ok = engine.cross(cross(10, 50, { crossType: 'CROSS_TYPE_ALL_OR_NONE' }));
    expect(ok.trades.map((t) => t.qty)).toEqual([10]);
  });

  it('rejects malformed crosses, naming the leg at fault', () => {
    const { engine } = setup();
    const one = engine.cross({ crossId: 'c', requests: [buy(1, 50)] });
    expect(one.executions.map((e) => e.text)).toEqual(['a cross needs exactly 2 requests, got 1']);
    expect(engine.cross(cross(1, 50, { crossId: '' })).executions[0]?.text).toMatch(/cross_id is required/);
    const sameSide = engine.cross({ crossId: 'c', requests: [buy(1, 50), buy(1, 50, { account: 'z' })] });
    expect(sameSide.executions[0]?.text).toMatch(/opposite sides/);
    const qty = engine.cross({ crossId: 'c', requests: [buy(1, 50), sell(2, 50)] });
    expect(qty.executions[0]?.orderRejectReason).toBe('ORD_REJECT_REASON_INCORRECT_QUANTITY');
    const price = engine.cross({ crossId: 'c', requests: [buy(1, 50), sell(1, 51)] });
    expect(price.executions[0]?.text).toMatch(/same price/);
    const badLeg = engine.cross({ crossId: 'c', requests: [buy(1, 50), sell(1, 50, { account: '' })] });
    expect(badLeg.executions.map((e) => e.text)).toEqual(['other leg of the cross rejected: account is required', 'account is required']);
    const mtl = engine.cross({
      crossId: 'c',
      requests: [buy(1, 50), { ...sell(1, 50), type: 'ORDER_TYPE_MARKET_TO_LIMIT', price: undefined }],
    });
    expect(mtl.executions[1]?.orderRejectReason).toBe('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE');
    expect(engine.book(SYM).orderCount()).toBe(0);
    expect(engine.openOrders()).toEqual([]);
  });

  it('rejects a cross whose legs would self-match when either asks for prevention', () => {
    const { engine } = setup();
    const res = engine.cross(
      cross(1, 50, {}, [
        { account: 'same', selfMatchPreventionInstruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR' },
        { account: 'same' },
      ]),
    );
    expect(types(res)).toEqual(['REJECTED', 'REJECTED']);
    expect(engine.cross(cross(1, 50, {}, [{ account: 'same' }, { account: 'same' }])).trades).toHaveLength(1);
  });

  it('is refused outside OPEN with EXCHANGE_CLOSED', () => {
    const { engine } = setup({ state: 'INSTRUMENT_STATE_PREOPEN' });
    const res = engine.cross(cross(1, 50));
    expect(res.executions.map((e) => e.orderRejectReason)).toEqual([
      'ORD_REJECT_REASON_EXCHANGE_CLOSED',
      'ORD_REJECT_REASON_EXCHANGE_CLOSED',
    ]);
  });

  it('sets the last trade price, which can trigger stop orders', () => {
    const { engine } = setup();
    engine.submit(sell(2, 56, { account: 'liq' }));
    const stop = idOf(engine.submit({ symbol: SYM, side: 'SIDE_BUY', type: 'ORDER_TYPE_STOP', orderQty: 2, stopPrice: 55, account: 'st' }));
    const res = engine.cross(cross(1, 55));
    expect(res.trades.map((t) => [t.type, t.price])).toEqual([
      ['TRADE_TYPE_CROSS', 55],
      ['TRADE_TYPE_REGULAR', 56],
    ]);
    expect(of(res, stop).map((e) => e.type)).toEqual(['EXECUTION_TYPE_FILL']);
  });
});
