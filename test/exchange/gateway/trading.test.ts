// Gateway order entry and lookups against the real simulator: every trading endpoint's happy path with
// Decimal prices, an order that fills partially then fully (seen on the order stream, in searches,
// positions and balance), crosses (one that trades, an all-or-none one that cannot fill), list limits
// refused before sending, and paging iterators.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayErrorCode, isGatewayError } from '../../../src/exchange/gateway/index.ts';
import type { GatewayClient, OrderRequestInput } from '../../../src/exchange/gateway/index.ts';
import type { ExecutionEvent, OrderStreamEvent } from '../../../src/domain/stream-events.ts';
import { ACCOUNTS, OTHER_SYMBOL, SYMBOL, dec, startTestSim } from './helpers/sim.ts';
import type { TestSim } from './helpers/sim.ts';
import { record } from './helpers/events.ts';
import type { Recorder } from './helpers/events.ts';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const buy = (price: string, qty: number, extra: Partial<OrderRequestInput> = {}): OrderRequestInput => ({
  account: ACCOUNTS.aliceMain,
  symbol: SYMBOL,
  side: 'SIDE_BUY',
  type: 'ORDER_TYPE_LIMIT',
  timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  orderQty: dec(String(qty)),
  price: dec(price),
  ...extra,
});

const isExecution =
  (orderId: string, state?: string) =>
  (e: OrderStreamEvent): e is ExecutionEvent =>
    e.type === 'execution' && e.execution.order.id === orderId && (state === undefined || e.execution.order.state === state);

describe('gateway order entry', () => {
  let t: TestSim;
  let alice: GatewayClient;
  let bob: GatewayClient;
  let aliceOrders: Recorder<OrderStreamEvent>;

  beforeEach(async () => {
    t = await startTestSim({ users: ['alice', 'bob'] });
    alice = t.clientFor('alice', {
      newClordId: (() => {
        let n = 0;
        return () => `alice-${++n}`;
      })(),
    });
    bob = t.clientFor('bob');
    aliceOrders = record(alice.orderUpdates$());
    await aliceOrders.waitFor((e) => e.type === 'snapshot');
  });
  afterEach(async () => {
    aliceOrders.stop();
    await t.close();
  });

  it('inserts an order with a Decimal price and generates its clord_id', async () => {
    const result = await alice.insertOrder(buy('0.55', 10));
    expect(result).toMatchObject({ status: 'ACCEPTED', clordId: 'alice-1', text: '' });
    const ack = await aliceOrders.waitFor(isExecution(result.orderId));
    expect(ack.execution.type).toBe('EXECUTION_TYPE_NEW');
    expect(ack.execution.order.price.toFixed()).toBe('0.55');
    expect(ack.execution.order.clordId).toBe('alice-1');
    const open = await alice.getOpenOrders({ symbols: [SYMBOL] });
    expect(open.map((o) => [o.id, o.price.toFixed(), o.orderQty.toFixed(), o.state])).toEqual([
      [result.orderId, '0.55', '10', 'ORDER_STATE_NEW'],
    ]);
  });

  it('returns an order the exchange rejects (200, status REJECTED) as data, and the rejection reaches the stream', async () => {
    const result = await alice.insertOrder({
      account: ACCOUNTS.aliceMain,
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_MARKET_TO_LIMIT',
      orderQty: dec('1'),
    });
    expect(result.status).toBe('REJECTED');
    expect(result.text).toMatch(/no liquidity/);
    const rejected = await aliceOrders.waitFor(isExecution(result.orderId, 'ORDER_STATE_REJECTED'));
    expect(rejected.execution.orderRejectReason).toBe('ORD_REJECT_REASON_NO_LIQUIDITY');
  });

  it('fills an order partially, then fully', async () => {
    const { orderId } = await alice.insertOrder(buy('0.55', 10));
    await bob.insertOrder({
      account: ACCOUNTS.bobMain,
      symbol: SYMBOL,
      side: 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: dec('4'),
      price: dec('0.55'),
    });
    const partial = await aliceOrders.waitFor(isExecution(orderId, 'ORDER_STATE_PARTIALLY_FILLED'));
    expect(partial.execution.type).toBe('EXECUTION_TYPE_PARTIAL_FILL');
    expect([partial.execution.lastPx.toFixed(), partial.execution.lastShares.toFixed()]).toEqual(['0.55', '4']);
    expect([partial.execution.order.cumQty.toFixed(), partial.execution.order.leavesQty.toFixed()]).toEqual(['4', '6']);

    await bob.insertOrder({
      account: ACCOUNTS.bobMain,
      symbol: SYMBOL,
      side: 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: dec('6'),
      price: dec('0.54'),
    });
    const full = await aliceOrders.waitFor(isExecution(orderId, 'ORDER_STATE_FILLED'));
    expect(full.execution.type).toBe('EXECUTION_TYPE_FILL');
    expect([full.execution.order.cumQty.toFixed(), full.execution.order.leavesQty.toFixed(), full.execution.order.avgPx.toFixed()]).toEqual(
      ['10', '0', '0.55'],
    );

    expect(await alice.getOpenOrders()).toEqual([]);
    const found = await alice.searchOrders({ orderId });
    expect(found.orders.map((o) => o.state)).toEqual(['ORDER_STATE_FILLED']);
    const positions = await alice.listAccountPositions({ name: ACCOUNTS.aliceMain });
    expect(positions.positions.map((p) => [p.symbol, p.netPosition.toFixed(), p.avgEntryPx.toFixed()])).toEqual([[SYMBOL, '10', '0.55']]);
    const balance = await alice.getAccountBalance({ name: ACCOUNTS.aliceMain, currency: 'USD' });
    expect([balance.currency, balance.balance.toFixed()]).toEqual(['USD', '994.5']);
  });

  it('walks every page of trades and orders with the async iterators', async () => {
    const { orderId } = await alice.insertOrder(buy('0.55', 3));
    for (let i = 0; i < 3; i++) {
      await bob.insertOrder({
        account: ACCOUNTS.bobMain,
        symbol: SYMBOL,
        side: 'SIDE_SELL',
        type: 'ORDER_TYPE_LIMIT',
        orderQty: dec('1'),
        price: dec('0.55'),
      });
    }
    const first = await alice.searchTrades({ pageSize: 2 });
    expect(first.trades).toHaveLength(2);
    expect(first.nextPageToken).not.toBe('');
    const trades = [];
    for await (const trade of alice.iterateTrades({ pageSize: 1, symbol: SYMBOL })) trades.push(trade);
    expect(trades).toHaveLength(3);
    expect(new Set(trades.map((tr) => tr.id)).size).toBe(3);
    expect(trades.every((tr) => tr.passive.order.id === orderId && tr.passive.lastPx.toFixed() === '0.55')).toBe(true);

    await alice.insertOrder(buy('0.20', 1));
    const orders = [];
    for await (const order of alice.iterateOrders({ pageSize: 1 })) orders.push(order);
    expect(orders).toHaveLength(2);
  });

  it('previews an order without touching the book', async () => {
    const preview = await alice.previewOrder(buy('0.42', 7));
    expect([preview.price.toFixed(), preview.orderQty.toFixed(), preview.state, preview.symbol]).toEqual([
      '0.42',
      '7',
      'ORDER_STATE_NEW',
      SYMBOL,
    ]);
    expect(await alice.getOpenOrders()).toEqual([]);
  });

  it('inserts and cancels a list of orders', async () => {
    const inserted = await alice.insertOrderList([buy('0.10', 1), buy('0.11', 2), buy('0.12', 3)]);
    expect(inserted.responses).toHaveLength(3);
    expect(inserted.clordIds).toEqual(['alice-1', 'alice-2', 'alice-3']);
    expect((await alice.getOpenOrders()).map((o) => o.price.toFixed()).sort()).toEqual(['0.1', '0.11', '0.12']);
    await alice.cancelOrderList(inserted.responses.map((r) => ({ orderId: r.orderId, symbol: SYMBOL })));
    await aliceOrders.waitFor(
      (e) =>
        e.type === 'execution' && e.execution.order.id === inserted.responses[2]?.orderId && e.execution.type === 'EXECUTION_TYPE_CANCELED',
    );
    expect(await alice.getOpenOrders()).toEqual([]);
  });

  it('cancels one order', async () => {
    const { orderId } = await alice.insertOrder(buy('0.30', 1));
    await alice.cancelOrder({ orderId, symbol: SYMBOL });
    const canceled = await aliceOrders.waitFor(isExecution(orderId, 'ORDER_STATE_CANCELED'));
    expect(canceled.execution.type).toBe('EXECUTION_TYPE_CANCELED');
  });

  it('cancel-replaces one order and a list of orders', async () => {
    const { orderId } = await alice.insertOrder(buy('0.30', 5));
    const replaced = await alice.cancelReplaceOrder({ orderId, symbol: SYMBOL, price: dec('0.31'), orderQty: dec('6') });
    expect(replaced.clordId).toBe('alice-2');
    await aliceOrders.waitFor((e) => e.type === 'execution' && e.execution.type === 'EXECUTION_TYPE_REPLACE');
    let open = await alice.getOpenOrders();
    expect(open.map((o) => [o.price.toFixed(), o.orderQty.toFixed(), o.clordId])).toEqual([['0.31', '6', 'alice-2']]);

    const second = await alice.insertOrder(buy('0.20', 1));
    const list = await alice.cancelReplaceOrderList([
      { orderId: open[0]?.id ?? '', symbol: SYMBOL, price: dec('0.32') },
      { orderId: second.orderId, symbol: SYMBOL, price: dec('0.21') },
    ]);
    expect(list.responses).toHaveLength(2);
    open = await alice.getOpenOrders();
    expect(open.map((o) => o.price.toFixed()).sort()).toEqual(['0.21', '0.32']);
  });

  it('crosses two orders at one price', async () => {
    const leg = (side: 'SIDE_BUY' | 'SIDE_SELL', account: string): OrderRequestInput => ({
      account,
      symbol: OTHER_SYMBOL,
      side,
      type: 'ORDER_TYPE_LIMIT',
      orderQty: dec('5'),
      price: dec('0.40'),
    });
    const cross = await alice.insertOrderCross({
      crossId: 'cross-1',
      requests: [leg('SIDE_BUY', ACCOUNTS.aliceMain), leg('SIDE_SELL', ACCOUNTS.aliceHedge)],
    });
    expect(cross.crossId).toBe('cross-1');
    expect(cross.responses).toHaveLength(2);
    for (const { orderId } of cross.responses) {
      const filled = await aliceOrders.waitFor(isExecution(orderId, 'ORDER_STATE_FILLED'));
      expect([filled.execution.lastPx.toFixed(), filled.execution.lastShares.toFixed(), filled.execution.order.crossId]).toEqual([
        '0.4',
        '5',
        'cross-1',
      ]);
    }
    const trades = await alice.searchTrades({ symbol: OTHER_SYMBOL });
    expect(trades.trades.map((tr) => tr.tradeType)).toEqual(['TRADE_TYPE_CROSS']);
  });

  it('reports an all-or-none cross that cannot fill as rejected legs on the order stream', async () => {
    await bob.insertOrder({
      account: ACCOUNTS.bobMain,
      symbol: OTHER_SYMBOL,
      side: 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: dec('2'),
      price: dec('0.40'),
    });
    const leg = (side: 'SIDE_BUY' | 'SIDE_SELL', account: string): OrderRequestInput => ({
      account,
      symbol: OTHER_SYMBOL,
      side,
      type: 'ORDER_TYPE_LIMIT',
      orderQty: dec('5'),
      price: dec('0.40'),
    });
    const cross = await alice.insertOrderCross({
      crossType: 'CROSS_TYPE_ALL_OR_NONE',
      crossPrioritizedSide: 'SIDE_BUY',
      requests: [leg('SIDE_BUY', ACCOUNTS.aliceMain), leg('SIDE_SELL', ACCOUNTS.aliceHedge)],
    });
    expect(cross.crossId).toBe('alice-1');
    expect(cross.responses).toHaveLength(2);
    const reasons = [];
    for (const { orderId } of cross.responses) {
      const rejected = await aliceOrders.waitFor(isExecution(orderId, 'ORDER_STATE_REJECTED'));
      expect(rejected.execution.type).toBe('EXECUTION_TYPE_REJECTED');
      reasons.push(rejected.execution.orderRejectReason);
    }
    expect(reasons).toContain('ORD_REJECT_REASON_NO_LIQUIDITY');
    expect((await alice.searchTrades({ symbol: OTHER_SYMBOL })).trades).toEqual([]);
  });

  it('refuses lists over 20 and crosses without exactly two orders before sending', async () => {
    const orders = Array.from({ length: 21 }, () => buy('0.10', 1));
    const tooMany = await failure(alice.insertOrderList(orders));
    expect(isGatewayError(tooMany, GatewayErrorCode.LimitExceeded)).toBe(true);
    expect((tooMany as { details: Record<string, unknown> }).details).toMatchObject({ count: 21, max: 20 });
    expect(
      isGatewayError(
        await failure(alice.cancelOrderList(Array.from({ length: 21 }, (_, i) => ({ orderId: `o${i}`, symbol: SYMBOL })))),
        GatewayErrorCode.LimitExceeded,
      ),
    ).toBe(true);
    expect(
      isGatewayError(
        await failure(alice.cancelReplaceOrderList(Array.from({ length: 21 }, (_, i) => ({ orderId: `o${i}`, symbol: SYMBOL })))),
        GatewayErrorCode.LimitExceeded,
      ),
    ).toBe(true);
    const oneLeg = await failure(alice.insertOrderCross({ requests: [buy('0.10', 1)] }));
    expect(isGatewayError(oneLeg, GatewayErrorCode.InvalidRequest)).toBe(true);
    expect(t.sim.core.openOrders()).toEqual([]);
    expect([...t.sim.core.allOrders()]).toEqual([]);
  });

  it('accepts exactly 20 orders in one list call', async () => {
    const inserted = await alice.insertOrderList(Array.from({ length: 20 }, (_, i) => buy('0.10', i + 1)));
    expect(inserted.responses).toHaveLength(20);
  });

  it('answers who am I with the caller and its accounts', async () => {
    expect(await alice.getWhoAmI()).toMatchObject({
      participantId: 'firms/demo/users/alice',
      accounts: [ACCOUNTS.aliceMain, ACCOUNTS.aliceHedge],
    });
  });
});
