/**
 * ExchangeCore, the simulator's single source of truth: orders submitted to it are matched, recorded in
 * the order history (with fills by price), put on the trade tape, booked in the ledger (positions and
 * cash) and published on `events$`; session stats follow the trades; settlement pays out and flattens.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeCore, type CoreEvent } from '../../../src/sim/exchange/exchange-core.ts';
import type { OrderRequest, Side } from '../../../src/sim/matching/types.ts';
import { ManualClock, SYMBOL, SYMBOL2, simConfig } from '../gateway/helpers/harness.ts';
import { captureCore, restoreCore } from '../../../src/sim/state/core-state.ts';

const A = 'firms/demo/accounts/a';
const B = 'firms/demo/accounts/b';

let clock: ManualClock;
let core: ExchangeCore;
let events: CoreEvent[];

function makeCore(maxTrades?: number): ExchangeCore {
  const config = simConfig();
  return new ExchangeCore({
    clock,
    instruments: config.instruments,
    startingBalance: config.startingBalance,
    currency: config.currency,
    ...(maxTrades === undefined ? {} : { maxTrades }),
  });
}

beforeEach(() => {
  clock = new ManualClock();
  core = makeCore();
  events = [];
  core.events$.subscribe((e) => events.push(e));
});

afterEach(() => {
  core.events$.complete();
});

function order(account: string, side: Side, qty: number, price: number, symbol = SYMBOL): OrderRequest {
  return {
    account,
    symbol,
    side,
    type: 'ORDER_TYPE_LIMIT',
    orderQty: qty,
    price,
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    participant: 'firms/demo/users/test',
  };
}

describe('ExchangeCore', () => {
  it('knows its instruments, their scales and states', () => {
    expect(core.instruments().map((i) => i.symbol)).toEqual([SYMBOL, SYMBOL2]);
    expect(core.instrument(SYMBOL)?.scales).toMatchObject({ priceScale: 100, qtyScale: 1 });
    expect(core.instrumentState(SYMBOL)).toBe('INSTRUMENT_STATE_OPEN');
    expect(core.instrumentState('NOPE')).toBe('INSTRUMENT_STATE_CLOSED');
    expect(core.instrument('NOPE')).toBeUndefined();
    expect(core.currency).toBe('USD');
  });

  it('records a resting order and publishes its execution and a book change', () => {
    const result = core.submit(order(A, 'SIDE_BUY', 5, 40));
    const id = result.executions[0]?.order.orderId ?? '';
    expect(core.order(id)?.latest.state).toBe('ORDER_STATE_NEW');
    expect(core.openOrders({ account: A }).map((o) => o.order.orderId)).toEqual([id]);
    expect(events.map((e) => e.kind)).toEqual(['execution', 'book']);
  });

  it('books a trade: tape, both positions, cash, order fills and published events', () => {
    const resting = core.submit(order(A, 'SIDE_BUY', 10, 40)).executions[0]?.order.orderId ?? '';
    clock.advance(1000);
    events.length = 0;
    core.submit(order(B, 'SIDE_SELL', 4, 38));
    const [trade] = core.trades();
    expect(trade).toMatchObject({ symbol: SYMBOL, price: 40, qty: 4, time: clock.t });
    expect(trade?.buyer.order.account).toBe(A);
    expect(trade?.seller.order.account).toBe(B);
    expect(core.ledger.position(A, SYMBOL).net).toBe(4);
    expect(core.ledger.position(B, SYMBOL).net).toBe(-4);
    expect(core.ledger.balance(A).cash.toFixed()).toBe('99998.4');
    expect(core.ledger.balance(B).cash.toFixed()).toBe('100001.6');
    const record = core.order(resting);
    expect(record?.latest.state).toBe('ORDER_STATE_PARTIALLY_FILLED');
    expect([...(record?.fills ?? [])]).toEqual([[40, 4]]);
    expect(record?.lastTradeId).toBe(trade?.id);
    expect(record?.lastTransactTime).toBe(clock.t);
    const kinds = events.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'execution')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'trade')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'position')).toHaveLength(2);
    expect(kinds.at(-1)).toBe('book');
    expect(kinds.indexOf('trade')).toBeGreaterThan(kinds.lastIndexOf('execution'));
  });

  it('keeps session stats per symbol in raw units', () => {
    core.submit(order(A, 'SIDE_BUY', 2, 40));
    core.submit(order(B, 'SIDE_SELL', 2, 40));
    core.submit(order(A, 'SIDE_BUY', 3, 45));
    core.submit(order(B, 'SIDE_SELL', 3, 45));
    core.submit(order(A, 'SIDE_SELL', 1, 35));
    core.submit(order(B, 'SIDE_BUY', 1, 35));
    expect(core.stats(SYMBOL)).toEqual({
      open: 40,
      high: 45,
      low: 35,
      last: 35,
      sharesTraded: 6,
      notionalTraded: 2 * 40 + 3 * 45 + 35,
      settlement: undefined,
    });
    expect(core.stats(SYMBOL2)).toMatchObject({ open: undefined, sharesTraded: 0 });
  });

  it('cancel and replace go through the core and are published', () => {
    const id = core.submit(order(A, 'SIDE_BUY', 5, 40)).executions[0]?.order.orderId ?? '';
    core.replace({ orderId: id, price: 41 });
    expect(core.openOrders({ account: A })[0]?.order.price).toBe(41);
    core.cancel({ orderId: id });
    expect(core.openOrders({ account: A })).toEqual([]);
    expect(core.order(id)?.latest.state).toBe('ORDER_STATE_CANCELED');
    const unknown = core.cancel({ orderId: 'O-unknown' });
    expect(unknown.cancelRejects[0]?.reason).toBe('CXL_REJ_REASON_UNKNOWN_ORDER');
    expect(events.some((e) => e.kind === 'cancelReject')).toBe(true);
  });

  it('remembers each cross by (leg account, cross_id), also after a state restore', () => {
    const result = core.cross({
      crossId: 'cx',
      requests: [
        { ...order(A, 'SIDE_BUY', 3, 40), clordId: 'b1' },
        { ...order(B, 'SIDE_SELL', 3, 40), clordId: 's1' },
      ],
    });
    const legs = [...new Set(result.executions.map((e) => e.order.orderId))];
    expect(legs).toHaveLength(2);
    expect(core.crossOrderIds(A, 'cx')).toEqual(legs);
    expect(core.crossOrderIds(B, 'cx')).toEqual(legs);
    expect(core.crossOrderIds(A, 'other')).toBeUndefined();
    const restored = makeCore();
    restoreCore(restored, captureCore(core, clock.now()));
    expect(restored.crossOrderIds(A, 'cx')).toEqual(legs);
    expect(restored.crossOrderIds(B, 'cx')).toEqual(legs);
    restored.events$.complete();
  });

  it('forgets a cross when its legs leave the order history', () => {
    const config = simConfig();
    const small = new ExchangeCore({
      clock,
      instruments: config.instruments,
      startingBalance: config.startingBalance,
      currency: config.currency,
      maxOrderHistory: 2,
    });
    small.cross({ crossId: 'cx', requests: [order(A, 'SIDE_BUY', 3, 40), order(B, 'SIDE_SELL', 3, 40)] });
    expect(small.crossOrderIds(A, 'cx')).toHaveLength(2);
    for (let i = 0; i < 2; i++) small.submit({ ...order(A, 'SIDE_BUY', 1, 30), timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' });
    expect(small.crossOrderIds(A, 'cx')).toBeUndefined();
    expect(small.crossOrderIds(B, 'cx')).toBeUndefined();
    small.events$.complete();
  });

  it('keeps only the most recent maxTrades trades on the tape', () => {
    core = makeCore(3);
    for (let i = 0; i < 5; i++) {
      core.submit(order(A, 'SIDE_BUY', 1, 40 + i));
      core.submit(order(B, 'SIDE_SELL', 1, 40 + i));
    }
    expect(core.trades().map((t) => t.price)).toEqual([42, 43, 44]);
    expect(core.ledger.position(A, SYMBOL).net).toBe(5);
  });

  it('trims the tape in batches past the cap, and still answers exactly the most recent maxTrades', () => {
    core = makeCore(100);
    for (let i = 0; i < 1000; i++) {
      core.submit(order(A, 'SIDE_BUY', 1, 40 + (i % 20)));
      core.submit(order(B, 'SIDE_SELL', 1, 40 + (i % 20)));
      expect(core.trades()).toHaveLength(Math.min(100, i + 1));
      expect(core.stores().tape.length).toBeLessThanOrEqual(100 + 64 + 1);
    }
    expect(core.trades().map((t) => t.price)).toEqual(Array.from({ length: 100 }, (_, k) => 40 + ((900 + k) % 20)));
  });

  it('settles at 1.00: longs are credited 1.00 per contract, shorts charged, positions flat, orders gone', () => {
    core.submit(order(A, 'SIDE_BUY', 10, 40));
    core.submit(order(B, 'SIDE_SELL', 10, 40));
    core.submit(order(A, 'SIDE_BUY', 1, 20));
    events.length = 0;
    clock.advance(60_000);
    core.settle(SYMBOL, 1);
    expect(core.ledger.balance(A).cash.toFixed()).toBe('100006');
    expect(core.ledger.balance(B).cash.toFixed()).toBe('99994');
    expect(core.ledger.position(A, SYMBOL).net).toBe(0);
    expect(core.ledger.position(A, SYMBOL).realizedPnl.toFixed()).toBe('6');
    expect(core.instrumentState(SYMBOL)).toBe('INSTRUMENT_STATE_EXPIRED');
    expect(core.openOrders({ symbol: SYMBOL })).toEqual([]);
    expect(core.stats(SYMBOL).settlement).toBe(100);
    const positions = events.filter((e): e is Extract<CoreEvent, { kind: 'position' }> => e.kind === 'position');
    expect(positions.map((e) => [e.position.account, e.position.net, e.position.updateTime])).toEqual([
      [A, 0, clock.t],
      [B, 0, clock.t],
    ]);
    expect(events.some((e) => e.kind === 'instrument')).toBe(true);
  });

  it('settles at 0.00: a long loses its cost', () => {
    core.submit(order(A, 'SIDE_BUY', 10, 40));
    core.submit(order(B, 'SIDE_SELL', 10, 40));
    core.settle(SYMBOL, 0);
    expect(core.ledger.balance(A).cash.toFixed()).toBe('99996');
    expect(core.ledger.balance(B).cash.toFixed()).toBe('100004');
    expect(core.stats(SYMBOL).settlement).toBe(0);
  });

  it('rejects new orders once the instrument has settled (expired)', () => {
    core.settle(SYMBOL, 1);
    const result = core.submit(order(A, 'SIDE_BUY', 1, 40));
    expect(result.executions[0]?.type).toBe('EXECUTION_TYPE_REJECTED');
  });
});
