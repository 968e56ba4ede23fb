// What every execution and trade carries: ids, order snapshot, fills, avg_px, times, passthrough fields.
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from '../../../src/sim/matching/index.ts';
import { buy, eventContract, first, idOf, ManualClock, sell, setup, SYM } from './helpers.ts';

describe('executions', () => {
  it('have unique exec ids that increase (as numbers and as strings) in emission order', () => {
    const { engine } = setup();
    const ids: string[] = [];
    const seqs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = i % 2 === 0 ? engine.submit(sell(1 + (i % 3), 50)) : engine.submit(buy(2, 50));
      for (const e of res.executions) {
        ids.push(e.id);
        seqs.push(e.seq);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(seqs.every((s, i) => i === 0 || s > (seqs[i - 1] as number))).toBe(true);
  });

  it('carry the order snapshot at that instant, with the terms of the request', () => {
    const { engine, clock } = setup();
    const res = engine.submit(
      buy(10, 45, {
        clordId: 'C1',
        participant: 'firms/f/users/u',
        commissionBasisPoints: 12,
        makerCommissionBasisPoints: 3,
        tag: 'wire-context',
        timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      }),
    );
    const e = first(res);
    expect(e.order).toMatchObject({
      symbol: SYM,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      price: 45,
      stopPrice: undefined,
      orderQty: 10,
      account: 'acct-b',
      clordId: 'C1',
      participant: 'firms/f/users/u',
      commissionBasisPoints: 12,
      makerCommissionBasisPoints: 3,
      tag: 'wire-context',
      insertTime: clock.t,
      triggered: false,
    });
    expect(e).toMatchObject({
      type: 'EXECUTION_TYPE_NEW',
      state: 'ORDER_STATE_NEW',
      cumQty: 0,
      leavesQty: 10,
      lastPx: 0,
      lastQty: 0,
      aggressor: false,
      tradeSeq: 0,
      transactTime: clock.t,
      orderRejectReason: 'ORD_REJECT_REASON_EXCHANGE_OPTION',
      text: '',
    });
    expect(e.avgPx).toBe('0');
    expect(e.tradeId).toBeUndefined();
    expect(e.orderId).toBe(e.order.orderId);
  });

  it('are immutable snapshots: later fills do not change earlier executions', () => {
    const { engine } = setup();
    const ack = first(engine.submit(sell(10, 50)));
    engine.submit(buy(4, 50));
    expect([ack.cumQty, ack.leavesQty, ack.state]).toEqual([0, 10, 'ORDER_STATE_NEW']);
    expect(engine.getOrder(ack.order.orderId)).toMatchObject({ cumQty: 4, leavesQty: 6, state: 'ORDER_STATE_PARTIALLY_FILLED' });
  });

  it('report fills with last_px, last_shares, cum_qty, leaves_qty and an exact avg_px', () => {
    const { engine } = setup();
    engine.submit(sell(1, 50));
    engine.submit(sell(2, 51));
    const res = engine.submit(buy(3, 51));
    const mine = res.executions.filter((e) => e.order.orderId === idOf(res));
    expect(mine.map((e) => [e.type, e.lastPx, e.lastShares, e.cumQty, e.leavesQty, e.avgPx, e.aggressor])).toEqual([
      ['EXECUTION_TYPE_NEW', 0, 0, 0, 3, '0', false],
      ['EXECUTION_TYPE_PARTIAL_FILL', 50, 1, 1, 2, '50.000000', true],
      ['EXECUTION_TYPE_FILL', 51, 2, 3, 0, '50.666667', true],
    ]);
    expect(mine[2]?.cumNotional).toBe(152);
  });

  it('use the clock reading of the call as transact time, and trades carry it too', () => {
    const { engine, clock } = setup();
    engine.submit(sell(1, 50));
    clock.advance(1234);
    const res = engine.submit(buy(1, 50));
    expect(res.executions.every((e) => e.transactTime === clock.t)).toBe(true);
    expect(res.trades[0]?.time).toBe(clock.t);
  });

  it('use the engine id prefix for order, execution and trade ids', () => {
    const engine = new MatchingEngine({ clock: new ManualClock(), idPrefix: 'SIM1-' });
    engine.addInstrument(eventContract());
    engine.submit(sell(1, 50));
    const res = engine.submit(buy(1, 50));
    expect(first(res).order.orderId).toBe('SIM1-O0000000000000002');
    expect(first(res).id).toBe('SIM1-E0000000000000002');
    expect(res.trades[0]?.id).toBe('SIM1-T0000000000000001');
    expect(engine.getOrder('O0000000000000001')).toBeUndefined();
  });

  it('return empty shared lists for what a call did not produce', () => {
    const { engine } = setup();
    const res = engine.submit(buy(1, 40));
    expect(res.trades).toEqual([]);
    expect(res.cancelRejects).toEqual([]);
    expect(res.instrumentEvents).toEqual([]);
    expect(Object.isFrozen(res.trades)).toBe(true);
  });
});

describe('JSON form', () => {
  it('serializes executions and trades with string ids and avg_px, without internals', () => {
    const { engine } = setup();
    engine.submit(sell(2, 50, { clordId: 'S1' }));
    const res = engine.submit(buy(2, 50, { clordId: 'B1' }));
    const json = JSON.parse(JSON.stringify(res.trades[0])) as Record<string, Record<string, unknown>>;
    expect(json).toMatchObject({ id: 'T0000000000000001', type: 'TRADE_TYPE_REGULAR', price: 50, qty: 2 });
    expect(json.aggressor).toMatchObject({
      id: 'E0000000000000004',
      type: 'EXECUTION_TYPE_FILL',
      tradeId: 'T0000000000000001',
      avgPx: '50.000000',
      order: { orderId: 'O0000000000000002', clordId: 'B1', side: 'SIDE_BUY' },
    });
    expect(JSON.stringify(res.executions[0])).not.toMatch(/idPrefix|idCache|ids/);
  });
});

describe('open orders and lookups', () => {
  it('lists working orders in entry order, filtered by account and symbol', () => {
    const { engine } = setup();
    const a = idOf(engine.submit(buy(1, 40, { account: 'x' })));
    const b = idOf(engine.submit(sell(1, 60, { account: 'y' })));
    expect(engine.openOrders().map((o) => o.orderId)).toEqual([a, b]);
    expect(engine.openOrders({ account: 'y' }).map((o) => o.orderId)).toEqual([b]);
    expect(engine.openOrders({ symbol: 'ZZZ' })).toEqual([]);
    expect(engine.instrument(SYM)).toMatchObject({
      symbol: SYM,
      state: 'INSTRUMENT_STATE_OPEN',
      maxOrderQty: Math.floor(Number.MAX_SAFE_INTEGER / 99),
    });
    expect(engine.instrument('ZZZ')).toBeUndefined();
    expect(engine.symbols()).toEqual([SYM]);
    expect(engine.lastTradePrice(SYM)).toBeUndefined();
  });
});
