// Instrument states: PREOPEN accepts without matching and uncrosses on OPEN; HALTED/SUSPENDED refuse;
// EXPIRED/TERMINATED expire every working order; settlement at 0 or price_scale.
import { describe, expect, it } from 'vitest';
import { isTradebotError } from '../../../src/errors.ts';
import { buy, first, idOf, sell, setup, SYM, types } from './helpers.ts';

describe('PREOPEN and the opening uncross', () => {
  it('accepts crossing orders without matching them', () => {
    const { engine } = setup({ state: 'INSTRUMENT_STATE_PREOPEN' });
    engine.submit(buy(5, 55));
    const res = engine.submit(sell(5, 50));
    expect(types(res)).toEqual(['NEW']);
    expect(engine.book(SYM).isCrossed()).toBe(true);
  });

  it('refuses orders that need immediate execution', () => {
    const { engine } = setup({ state: 'INSTRUMENT_STATE_PREOPEN' });
    for (const extra of [{ timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' as const }, { minQty: 1 }, { allOrNone: true }]) {
      expect(first(engine.submit(buy(1, 50, extra))).orderRejectReason).toBe('ORD_REJECT_REASON_EXCHANGE_CLOSED');
    }
  });

  it('matches crossed orders in time priority when the instrument opens', () => {
    const { engine } = setup({ state: 'INSTRUMENT_STATE_PREOPEN' });
    const b1 = idOf(engine.submit(buy(5, 55, { account: 'b1' })));
    const s1 = idOf(engine.submit(sell(3, 50, { account: 's1' })));
    const b2 = idOf(engine.submit(buy(4, 53, { account: 'b2' })));
    const s2 = idOf(engine.submit(sell(6, 52, { account: 's2' })));
    const res = engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_OPEN');
    expect(res.instrumentEvents).toEqual([
      { kind: 'STATE', symbol: SYM, state: 'INSTRUMENT_STATE_OPEN', previousState: 'INSTRUMENT_STATE_PREOPEN', time: expect.any(Number) },
    ]);
    // s1 (later than b1) trades with b1 at b1's price; s2 then takes b1's rest, then b2 at their prices.
    expect(res.trades.map((t) => [t.passive.order.orderId, t.aggressor.order.orderId, t.price, t.qty])).toEqual([
      [b1, s1, 55, 3],
      [b1, s2, 55, 2],
      [b2, s2, 53, 4],
    ]);
    expect(engine.book(SYM).isCrossed()).toBe(false);
    expect(engine.getOrder(s2)).toBeUndefined();
  });

  it('keeps the original time priority of what rests after the uncross', () => {
    const { engine } = setup({ state: 'INSTRUMENT_STATE_PREOPEN' });
    const a = idOf(engine.submit(buy(5, 50, { account: 'a' })));
    const b = idOf(engine.submit(buy(5, 50, { account: 'b' })));
    engine.submit(sell(1, 49, { account: 's' }));
    engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_OPEN');
    expect(engine.getOrder(a)?.leavesQty).toBe(4);
    const res = engine.submit(sell(5, 50, { account: 't' }));
    expect(res.trades.map((t) => [t.passive.order.orderId, t.qty])).toEqual([
      [a, 4],
      [b, 1],
    ]);
  });

  it('triggers held stops after the opening trades', () => {
    const { engine } = setup({ state: 'INSTRUMENT_STATE_PREOPEN' });
    engine.submit(buy(1, 55, { account: 'b' }));
    engine.submit(sell(1, 55, { account: 's' }));
    engine.submit(sell(2, 57, { account: 'liq' }));
    const stop = idOf(engine.submit({ symbol: SYM, side: 'SIDE_BUY', type: 'ORDER_TYPE_STOP', orderQty: 2, stopPrice: 55, account: 'st' }));
    const res = engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_OPEN');
    expect(res.trades.map((t) => [t.price, t.aggressor.order.orderId])).toEqual([
      [55, expect.any(String)],
      [57, stop],
    ]);
  });

  it('MATCH_AND_CLOSE_AUCTION collects orders and matches them when it ends', () => {
    const { engine } = setup();
    engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_MATCH_AND_CLOSE_AUCTION');
    engine.submit(buy(2, 60));
    engine.submit(sell(2, 58));
    const res = engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_CLOSED');
    expect(res.trades.map((t) => [t.price, t.qty])).toEqual([[60, 2]]);
  });
});

describe('HALTED, SUSPENDED, EXPIRED, TERMINATED', () => {
  it('HALTED and SUSPENDED refuse new orders but keep the book', () => {
    const { engine } = setup();
    engine.submit(buy(1, 40));
    for (const state of ['INSTRUMENT_STATE_HALTED', 'INSTRUMENT_STATE_SUSPENDED'] as const) {
      engine.setInstrumentState(SYM, state);
      const e = first(engine.submit(sell(1, 40)));
      expect([e.type, e.orderRejectReason]).toEqual(['EXECUTION_TYPE_REJECTED', 'ORD_REJECT_REASON_EXCHANGE_CLOSED']);
    }
    expect(engine.book(SYM).orderCount()).toBe(1);
    engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_OPEN');
    expect(engine.submit(sell(1, 40)).trades).toHaveLength(1);
  });

  it('EXPIRED and TERMINATED expire resting and stop orders', () => {
    for (const state of ['INSTRUMENT_STATE_EXPIRED', 'INSTRUMENT_STATE_TERMINATED'] as const) {
      const { engine } = setup();
      engine.submit(buy(1, 40));
      engine.submit(sell(2, 60));
      engine.submit({ symbol: SYM, side: 'SIDE_SELL', type: 'ORDER_TYPE_STOP', orderQty: 1, stopPrice: 10, account: 'x' });
      const res = engine.setInstrumentState(SYM, state);
      expect(types(res)).toEqual(['EXPIRED', 'EXPIRED', 'EXPIRED']);
      expect(res.executions.every((e) => e.state === 'ORDER_STATE_EXPIRED' && e.leavesQty === 0)).toBe(true);
      expect(engine.openOrders()).toEqual([]);
      expect(first(engine.submit(buy(1, 40))).orderRejectReason).toBe('ORD_REJECT_REASON_EXCHANGE_CLOSED');
    }
  });

  it('reports no event when the state does not change', () => {
    const { engine } = setup();
    expect(engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_OPEN').instrumentEvents).toEqual([]);
  });
});

describe('settlement', () => {
  it('settles at price_scale (1.00), expiring the instrument first', () => {
    const { engine } = setup();
    engine.submit(buy(1, 40));
    const res = engine.settle(SYM, 100);
    expect(types(res)).toEqual(['EXPIRED']);
    expect(res.instrumentEvents.map((e) => e.kind)).toEqual(['STATE', 'SETTLEMENT']);
    expect(res.instrumentEvents[1]).toEqual({ kind: 'SETTLEMENT', symbol: SYM, price: 100, time: expect.any(Number) });
    expect(engine.instrument(SYM)?.settlementPrice).toBe(100);
    expect(engine.instrument(SYM)?.state).toBe('INSTRUMENT_STATE_EXPIRED');
  });

  it('settles at 0 an instrument already terminated, without a state event', () => {
    const { engine } = setup({ state: 'INSTRUMENT_STATE_TERMINATED' });
    expect(engine.settle(SYM, 0).instrumentEvents.map((e) => e.kind)).toEqual(['SETTLEMENT']);
  });

  it('throws MATCHING_INVALID_SETTLEMENT_PRICE for any other price, and MATCHING_ALREADY_SETTLED on a change', () => {
    const { engine } = setup();
    expect(() => engine.settle(SYM, 55)).toThrow(expect.objectContaining({ code: 'MATCHING_INVALID_SETTLEMENT_PRICE' }));
    engine.settle(SYM, 0);
    expect(() => engine.settle(SYM, 100)).toThrow(expect.objectContaining({ code: 'MATCHING_ALREADY_SETTLED' }));
  });
});

describe('misuse throws TradebotError with MATCHING_ codes', () => {
  it('unknown instrument, bad state, bad definition, duplicate instrument, bad clock', () => {
    const { engine } = setup();
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        return isTradebotError(e) ? e.code : 'not a TradebotError';
      }
      return undefined;
    };
    expect(code(() => engine.setInstrumentState('NOPE', 'INSTRUMENT_STATE_OPEN'))).toBe('MATCHING_UNKNOWN_INSTRUMENT');
    expect(code(() => engine.book('NOPE'))).toBe('MATCHING_UNKNOWN_INSTRUMENT');
    expect(code(() => engine.setInstrumentState(SYM, 'INSTRUMENT_STATE_WHATEVER' as never))).toBe('MATCHING_INVALID_STATE');
    expect(
      code(() => engine.addInstrument({ symbol: SYM, tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 99, priceScale: 100 })),
    ).toBe('MATCHING_DUPLICATE_INSTRUMENT');
    const bad = { symbol: 'B', tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 99, priceScale: 100 };
    expect(code(() => engine.addInstrument({ ...bad, tickSize: 0 }))).toBe('MATCHING_INVALID_INSTRUMENT');
    expect(code(() => engine.addInstrument({ ...bad, priceLimitLow: 100 }))).toBe('MATCHING_INVALID_INSTRUMENT');
    expect(code(() => engine.addInstrument({ ...bad, maxOrderQty: Number.MAX_SAFE_INTEGER }))).toBe('MATCHING_INVALID_INSTRUMENT');
    expect(code(() => engine.addInstrument({ ...bad, state: 'OPEN' as never }))).toBe('MATCHING_INVALID_INSTRUMENT');
    expect(code(() => engine.endOfDay('NOPE'))).toBe('MATCHING_UNKNOWN_INSTRUMENT');
    const { engine: e2, clock } = setup();
    clock.t = 1.5;
    expect(code(() => e2.submit(buy(1, 50)))).toBe('MATCHING_BAD_CLOCK');
  });
});
