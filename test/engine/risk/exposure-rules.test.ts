// Exposure rules: worst-case position per symbol, gross exposure per event group, open orders, message rate.
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  OTHER_ACCOUNT,
  SYM,
  approvedOf,
  cancel,
  cancelAll,
  context,
  d,
  instrument,
  manager,
  openOrder,
  place,
  position,
  refusedOf,
  replace,
} from './helpers.ts';

describe('maxPosition', () => {
  it('approves an order that reaches maxPosition counting open orders on the same side', () => {
    const ctx = context({ positions: [position(4)], openOrders: [openOrder('b1', 'BUY', 3, '0.40'), openOrder('s1', 'SELL', 50, '0.60')] });
    expect(approvedOf(manager({ maxPosition: '10' }).check(place('BUY', 3, '0.45'), ctx))).toHaveLength(1);
  });

  it('refuses an order whose worst-case position (position + open orders + order) exceeds maxPosition', () => {
    const ctx = context({ positions: [position(4)], openOrders: [openOrder('b1', 'BUY', 3, '0.40')] });
    const refused = refusedOf(manager({ maxPosition: '10' }).check(place('BUY', 4, '0.45'), ctx));
    expect(refused.code).toBe('RISK_MAX_POSITION');
    expect(refused.message).toBe(
      `position 11 in ${SYM} (${ACCOUNT}) would exceed maxPosition 10: position 4, open BUY orders 3, this order 4`,
    );
  });

  it('refuses a sell that would take the short side beyond maxPosition', () => {
    const ctx = context({ positions: [position(2)], openOrders: [openOrder('s1', 'SELL', 5, '0.60')] });
    const refused = refusedOf(manager({ maxPosition: '10' }).check(place('SELL', 8, '0.55'), ctx));
    expect(refused.code).toBe('RISK_MAX_POSITION');
    expect(refused.message).toContain('position -11');
  });

  it('approves a buy that reduces a short already beyond maxPosition', () => {
    const ctx = context({ positions: [position(-20)] });
    expect(approvedOf(manager({ maxPosition: '10' }).check(place('BUY', 5, '0.45'), ctx))).toHaveLength(1);
  });

  it("counts positions per account: another account's position does not count", () => {
    const ctx = context({ positions: [position(10, SYM, OTHER_ACCOUNT)] });
    expect(approvedOf(manager({ maxPosition: '10' }).check(place('BUY', 10, '0.45'), ctx))).toHaveLength(1);
  });

  it('counts a replace by its new quantity instead of the old one', () => {
    const ctx = context({ positions: [position(4)], openOrders: [openOrder('b1', 'BUY', 6, '0.40')] });
    const risk = manager({ maxPosition: '10' });
    expect(approvedOf(risk.check(replace('b1', { qty: 6, price: '0.41' }), ctx))).toHaveLength(1);
    expect(refusedOf(risk.check(replace('b1', { qty: 7 }), ctx)).code).toBe('RISK_MAX_POSITION');
  });
});

describe('maxEventPosition', () => {
  const other = instrument({ symbol: 'EVT-B' });
  const unrelated = instrument({ symbol: 'OTHER-X', eventGroup: 'OTHER' });
  const instruments = [instrument(), other, unrelated];

  it('approves an order that keeps the gross worst-case exposure of the event group within the limit', () => {
    const ctx = context({ instruments, positions: [position(6, 'EVT-B'), position(100, 'OTHER-X')] });
    expect(approvedOf(manager({ maxEventPosition: '10' }).check(place('BUY', 4, '0.45'), ctx))).toHaveLength(1);
  });

  it('refuses an order that takes the gross exposure of the event group above the limit', () => {
    const ctx = context({ instruments, positions: [position(-6, 'EVT-B')], openOrders: [openOrder('b1', 'BUY', 2, '0.40')] });
    const refused = refusedOf(manager({ maxEventPosition: '10' }).check(place('BUY', 3, '0.45'), ctx));
    expect(refused.code).toBe('RISK_MAX_EVENT_POSITION');
    expect(refused.message).toBe(`gross exposure 11 in event group EVT (${ACCOUNT}) would exceed maxEventPosition 10 (now 8)`);
  });

  it('approves an order on the smaller side of a symbol that does not raise the gross exposure', () => {
    const ctx = context({ instruments, positions: [position(12, 'EVT-B'), position(5)] });
    expect(approvedOf(manager({ maxEventPosition: '10' }).check(place('SELL', 5, '0.55'), ctx))).toHaveLength(1);
  });
});

describe('maxOpenOrders', () => {
  const orders = [openOrder('b1', 'BUY', 1, '0.40'), openOrder('b2', 'BUY', 1, '0.41', { symbol: 'EVT-B', account: OTHER_ACCOUNT })];

  it('approves an order that reaches maxOpenOrders', () => {
    expect(approvedOf(manager({ maxOpenOrders: 3 }).check(place('BUY', 1, '0.45'), context({ openOrders: orders })))).toHaveLength(1);
  });

  it('refuses an order beyond maxOpenOrders across all symbols and accounts', () => {
    const refused = refusedOf(manager({ maxOpenOrders: 2 }).check(place('BUY', 1, '0.45'), context({ openOrders: orders })));
    expect([refused.code, refused.message]).toEqual(['RISK_MAX_OPEN_ORDERS', '2 open orders: one more would exceed maxOpenOrders 2']);
  });

  it('approves a replace at maxOpenOrders (it does not add an order)', () => {
    expect(approvedOf(manager({ maxOpenOrders: 2 }).check(replace('b1', { price: '0.42' }), context({ openOrders: orders })))).toHaveLength(
      1,
    );
  });
});

describe('maxMessagesPerSecond', () => {
  it('defaults to 50 messages in any second of intent times', () => {
    const risk = manager();
    for (let i = 0; i < 50; i += 1) approvedOf(risk.check(place('BUY', 1, '0.45', { time: 1000 + i }), context()));
    const refused = refusedOf(risk.check(place('BUY', 1, '0.45', { time: 1999 }), context()));
    expect([refused.code, refused.message]).toEqual([
      'RISK_ORDER_RATE',
      '50 messages in the last 1000 ms: 1 more would exceed maxMessagesPerSecond 50',
    ]);
    expect(approvedOf(risk.check(place('BUY', 1, '0.45', { time: 2000 }), context()))).toHaveLength(1);
  });

  it('refuses orders over the configured rate but never a cancel, and counts cancels', () => {
    const risk = manager({ maxMessagesPerSecond: 3 });
    const ctx = context({ openOrders: [openOrder('b1', 'BUY', 1, '0.40')] });
    approvedOf(risk.check(place('BUY', 1, '0.45', { time: 0 }), ctx));
    approvedOf(risk.check(cancel('b1', 100), ctx));
    approvedOf(risk.check(cancelAll(undefined, 200), ctx));
    expect(refusedOf(risk.check(place('BUY', 1, '0.45', { time: 300 }), ctx)).code).toBe('RISK_ORDER_RATE');
    expect(approvedOf(risk.check(cancel('b1', 400), ctx))).toHaveLength(1);
    expect(refusedOf(risk.check(replace('b1', { price: '0.41' }, 1000), ctx)).code).toBe('RISK_ORDER_RATE');
    expect(approvedOf(risk.check(replace('b1', { price: '0.41' }, 1201), ctx))).toHaveLength(1);
  });

  it('does not count refused intents', () => {
    const risk = manager({ maxMessagesPerSecond: 1, maxOrderQty: '1' });
    refusedOf(risk.check(place('BUY', 2, '0.45'), context()));
    expect(approvedOf(risk.check(place('BUY', 1, '0.45'), context()))).toHaveLength(1);
  });
});

describe('maxDailyLoss', () => {
  it('approves orders while the daily loss is below the limit', () => {
    expect(approvedOf(manager({ maxDailyLoss: '100' }).check(place('BUY', 1, '0.45'), context({ pnl: d('-99.99') })))).toHaveLength(1);
  });

  it('refuses a risk-increasing order once the daily loss reaches the limit and switches to reducing', () => {
    const risk = manager({ maxDailyLoss: '100' });
    const refused = refusedOf(risk.check(place('BUY', 1, '0.45'), context({ pnl: d(-100) })));
    expect(refused.code).toBe('RISK_DAILY_LOSS');
    expect(refused.message).toBe('daily PnL -100 reached the loss limit maxDailyLoss 100: only risk-reducing intents pass');
    expect([risk.tradingState.state, risk.tradingState.cause]).toEqual(['reducing', 'dailyLoss']);
    expect(approvedOf(risk.check(place('SELL', 2, '0.45'), context({ pnl: d(-100), positions: [position(5)] })))).toHaveLength(1);
  });
});
