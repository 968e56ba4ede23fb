/**
 * The simulator gateway's order entry endpoints (/api/v1beta1) on the wire: insert, partial and full
 * fills seen on the order stream, cancel, cancel-replace, list calls (and their 20-request limit),
 * preview, two-sided crosses, account ownership, argument errors, routing errors, the per-firm rate limit,
 * and that malformed requests change nothing. Raw HTTP only; prices are raw scaled integers ("40" = 0.40).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB_MAIN,
  SYMBOL,
  SYMBOL2,
  at,
  limitOrder,
  list,
  resultOf,
  startHarness,
  type Harness,
  type Json,
} from './helpers/harness.ts';

let h: Harness;
let alice: string;
let bob: string;

async function start(gateway?: string): Promise<void> {
  h = await startHarness(gateway === undefined ? {} : { gateway });
  alice = await h.token('alice');
  bob = await h.token('bob');
}

/** A fresh simulator for every test of the enclosing describe. */
function simPerTest(): void {
  beforeEach(() => start());
  afterEach(() => h.close());
}

/** One simulator shared by the tests of the enclosing describe (tests that change no state they rely on). */
function simPerDescribe(): void {
  beforeAll(() => start());
  afterAll(() => h.close());
}

function expectInvalidArgument(response: { status: number; body: Json }): void {
  expect(response.status).toBe(400);
  expect(response.body['code']).toBe(3);
  expect(response.body['message']).toBe('INVALID_ARGUMENT');
  expect(typeof response.body['details']).toBe('string');
  expect(String(response.body['details'])).not.toBe('');
}

async function openOrders(token: string, body: Json = {}): Promise<Json[]> {
  const response = await h.api('get_open_orders', token, body);
  expect(response.status).toBe(200);
  return list(response.body, 'orders');
}

async function searchOrders(token: string, body: Json = {}): Promise<Json[]> {
  const response = await h.api('search_orders', token, body);
  expect(response.status).toBe(200);
  return list(response.body, 'order');
}

async function trades(token: string, body: Json = {}): Promise<Json[]> {
  const response = await h.api('search_trades', token, body);
  expect(response.status).toBe(200);
  return list(response.body, 'trade');
}

/** Executions of the update lines of an order stream, in arrival order. */
function executionsOf(lines: Json[]): Json[] {
  return lines.flatMap((line) => list(resultOf(line), 'update', 'executions'));
}

/** An execution's type; EXECUTION_TYPE_NEW is the proto3 zero value, so the wire may omit it. */
function typeOf(execution: Json): unknown {
  return execution['type'] ?? 'EXECUTION_TYPE_NEW';
}

describe('insert_order', () => {
  simPerTest();

  it('accepts a limit order and shows it on get_open_orders with the wire fields', async () => {
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '10', '40', { clord_id: 'c-1' }));
    expect(inserted.status).toBe(200);
    expect(inserted.body).toEqual({ order_id: expect.any(String), clord_id: 'c-1', status: 'ACCEPTED' });
    const orders = await openOrders(alice);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      id: inserted.body['order_id'],
      clord_id: 'c-1',
      account: ALICE_MAIN,
      participant: 'firms/demo/users/alice',
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      order_qty: '10',
      leaves_qty: '10',
      price: '40',
      price_scale: '100',
      fractional_quantity_scale: '1',
      insert_time: new Date(h.clock.t).toISOString(),
    });
    // ORDER_STATE_NEW is the proto3 zero value: omitted, or spelled out
    expect([undefined, 'ORDER_STATE_NEW']).toContain(orders[0]?.['state']);
  });

  it('assigns a clord_id when none is sent and defaults time_in_force to DAY', async () => {
    const inserted = await h.api('insert_order', alice, {
      symbol: SYMBOL,
      side: 'SIDE_SELL',
      order_qty: '2',
      price: '60',
      account: ALICE_MAIN,
    });
    expect(inserted.status).toBe(200);
    expect(inserted.body['clord_id']).toMatch(/.+/);
    const [order] = await openOrders(alice);
    expect(order?.['clord_id']).toBe(inserted.body['clord_id']);
    expect(order?.['time_in_force']).toBe('TIME_IN_FORCE_DAY');
    expect(order?.['type']).toBe('ORDER_TYPE_LIMIT');
  });

  it("fills a resting order partially then fully, with NEW, PARTIAL_FILL and FILL on the owner's stream", async () => {
    const stream = await h.stream('create_order_subscription', alice, {});
    await stream.count(1);
    const rest = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '10', '40', { clord_id: 'rest-1' }));
    const id = rest.body['order_id'];
    expect((await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '4', '40'))).status).toBe(200);
    expect((await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '6', '39'))).status).toBe(200);
    await stream.until((line) => executionsOf([line]).some((e) => e['type'] === 'EXECUTION_TYPE_FILL'));
    const executions = executionsOf(stream.lines);
    expect(executions.map(typeOf)).toEqual(['EXECUTION_TYPE_NEW', 'EXECUTION_TYPE_PARTIAL_FILL', 'EXECUTION_TYPE_FILL']);
    for (const e of executions) expect(at(e, 'order', 'id')).toBe(id);
    const [created, partial, full] = executions as [Json, Json, Json];
    expect(at(created, 'order', 'leaves_qty')).toBe('10');
    expect(partial).toMatchObject({ last_px: '40', last_shares: '4', trade_id: expect.any(String) });
    expect(partial['aggressor']).toBeFalsy();
    expect(partial['order']).toMatchObject({ state: 'ORDER_STATE_PARTIALLY_FILLED', cum_qty: '4', leaves_qty: '6', avg_px: '40' });
    // the passive order trades at its own price even though the aggressor offered 0.39
    expect(full).toMatchObject({ last_px: '40', last_shares: '6' });
    expect(full['order']).toMatchObject({ state: 'ORDER_STATE_FILLED', cum_qty: '10', avg_px: '40' });
    expect([undefined, '0']).toContain(at(full, 'order', 'leaves_qty'));
    expect(new Set(executions.map((e) => e['id'])).size).toBe(3);
    expect(await openOrders(alice)).toEqual([]);
    const [record] = await searchOrders(alice);
    expect(record).toMatchObject({
      id,
      state: 'ORDER_STATE_FILLED',
      cum_qty: '10',
      avg_px: '40',
      price_to_quantity_filled: { '40': '10' },
      last_trade_id: full['trade_id'],
    });
  });

  it("does not send bob's executions to alice's stream", async () => {
    const stream = await h.stream('create_order_subscription', alice, {});
    await stream.count(1);
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '1', '70'));
    const mine = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '30'));
    const first = await stream.until((line) => executionsOf([line]).length > 0);
    expect(at(executionsOf([first])[0], 'order', 'id')).toBe(mine.body['order_id']);
  });

  it('answers a PRICE_OUT_OF_BOUNDS order with 400 and rests nothing', async () => {
    const response = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '150'));
    expectInvalidArgument(response);
    expect(String(response.body['details'])).toContain('PRICE_OUT_OF_BOUNDS');
    expect(await openOrders(alice)).toEqual([]);
  });

  it('answers an IOC that finds nothing with 200 and no resting order', async () => {
    const response = await h.api(
      'insert_order',
      alice,
      limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40', { time_in_force: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }),
    );
    expect(response.status).toBe(200);
    expect(await openOrders(alice)).toEqual([]);
  });
});

describe('cancel_order and cancel_replace_order', () => {
  simPerTest();

  it('cancels a working order: {} and it leaves the open orders, CANCELED on the stream', async () => {
    const stream = await h.stream('create_order_subscription', alice, {});
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'));
    const cancelled = await h.api('cancel_order', alice, { order_id: inserted.body['order_id'], symbol: SYMBOL });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({});
    expect(await openOrders(alice)).toEqual([]);
    const line = await stream.until((l) => executionsOf([l]).some((e) => e['type'] === 'EXECUTION_TYPE_CANCELED'));
    expect(at(executionsOf([line])[0], 'order', 'state')).toBe('ORDER_STATE_CANCELED');
  });

  it('answers a cancel of an unknown order with 404 NOT_FOUND', async () => {
    const response = await h.api('cancel_order', alice, { order_id: 'O9999999999999999', symbol: SYMBOL });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 5, message: 'NOT_FOUND' });
    expect(String(response.body['details'])).toContain('UNKNOWN_ORDER');
  });

  it('answers a second cancel of the same order with an error and no state change', async () => {
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'));
    expect((await h.api('cancel_order', alice, { order_id: inserted.body['order_id'], symbol: SYMBOL })).status).toBe(200);
    const again = await h.api('cancel_order', alice, { order_id: inserted.body['order_id'], symbol: SYMBOL });
    expect([400, 404]).toContain(again.status);
    expect(again.body['message']).toMatch(/^(NOT_FOUND|FAILED_PRECONDITION)$/);
  });

  it('refuses a cancel without order_id as INVALID_ARGUMENT', async () => {
    expectInvalidArgument(await h.api('cancel_order', alice, { symbol: SYMBOL }));
  });

  it("answers a cancel of another user's order as of an unknown one (404) and the order stays", async () => {
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'));
    const response = await h.api('cancel_order', bob, { order_id: inserted.body['order_id'], symbol: SYMBOL });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      code: 5,
      message: 'NOT_FOUND',
      details: `CXL_REJ_REASON_UNKNOWN_ORDER: unknown order ${String(inserted.body['order_id'])}`,
    });
    expect(await openOrders(alice)).toHaveLength(1);
  });

  it('cancel_replace_order changes price and quantity of the working order', async () => {
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '10', '30', { clord_id: 'r-1' }));
    const replaced = await h.api('cancel_replace_order', alice, {
      order_id: inserted.body['order_id'],
      symbol: SYMBOL,
      clord_id: 'r-2',
      price: '31',
      order_qty: '12',
    });
    expect(replaced.status).toBe(200);
    expect(typeof replaced.body['order_id']).toBe('string');
    const orders = await openOrders(alice);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ id: replaced.body['order_id'], price: '31', order_qty: '12', leaves_qty: '12', clord_id: 'r-2' });
  });

  it('a replace that becomes marketable trades', async () => {
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '3', '45'));
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '3', '30'));
    expect((await h.api('cancel_replace_order', alice, { order_id: inserted.body['order_id'], symbol: SYMBOL, price: '45' })).status).toBe(
      200,
    );
    const tape = await trades(alice);
    expect(tape).toHaveLength(1);
    expect(at(tape[0], 'aggressor', 'last_px')).toBe('45');
    expect(await openOrders(alice)).toEqual([]);
  });

  it("cancel_replace of an unknown order and of bob's order are both 404 (ids cannot be probed)", async () => {
    const unknown = await h.api('cancel_replace_order', alice, { order_id: 'O9999999999999999', symbol: SYMBOL, price: '31' });
    expect(unknown.status).toBe(404);
    expect(unknown.body['code']).toBe(5);
    const bobs = await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '20'));
    const foreign = await h.api('cancel_replace_order', alice, { order_id: bobs.body['order_id'], symbol: SYMBOL, price: '21' });
    expect(foreign.status).toBe(404);
    expect(foreign.body['code']).toBe(5);
    expect((await openOrders(bob))[0]?.['price']).toBe('20');
  });
});

describe('list calls', () => {
  simPerTest();

  it('insert_order_list inserts 3 orders and answers their ids in request order', async () => {
    const response = await h.api('insert_order_list', alice, {
      requests: [
        limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10', { clord_id: 'l-1' }),
        limitOrder(ALICE_MAIN, 'SIDE_BUY', '2', '11', { clord_id: 'l-2' }),
        limitOrder(ALICE_HEDGE, 'SIDE_SELL', '3', '90', { clord_id: 'l-3' }),
      ],
    });
    expect(response.status).toBe(200);
    const ids = list(response.body, 'responses').map((r) => r['order_id']);
    expect(ids).toHaveLength(3);
    const orders = await openOrders(alice);
    expect(orders).toHaveLength(3);
    const byClord = new Map(orders.map((o) => [o['clord_id'], o['id']]));
    expect([byClord.get('l-1'), byClord.get('l-2'), byClord.get('l-3')]).toEqual(ids);
  });

  it('refuses insert_order_list with 21 requests (400) and inserts none', async () => {
    const requests = Array.from({ length: 21 }, (_, i) => limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', String(10 + i)));
    const response = await h.api('insert_order_list', alice, { requests });
    expectInvalidArgument(response);
    expect(String(response.body['details'])).toContain('20');
    expect(await openOrders(alice)).toEqual([]);
  });

  it('accepts exactly 20 requests', async () => {
    const requests = Array.from({ length: 20 }, (_, i) => limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', String(10 + i)));
    const response = await h.api('insert_order_list', alice, { requests });
    expect(response.status).toBe(200);
    expect(list(response.body, 'responses')).toHaveLength(20);
  });

  it('refuses an empty insert_order_list', async () => {
    expectInvalidArgument(await h.api('insert_order_list', alice, { requests: [] }));
  });

  it('refuses a whole insert_order_list when one request is invalid or names a foreign account', async () => {
    const bad = await h.api('insert_order_list', alice, {
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10'), limitOrder(ALICE_MAIN, 'SIDE_BUY', '0', '10')],
    });
    expectInvalidArgument(bad);
    const foreign = await h.api('insert_order_list', alice, {
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10'), limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '10')],
    });
    expect(foreign.status).toBe(403);
    expect(await openOrders(alice)).toEqual([]);
  });

  it('cancel_order_list cancels every named order', async () => {
    const inserted = await h.api('insert_order_list', alice, {
      requests: [
        limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10'),
        limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '11'),
        limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '12'),
      ],
    });
    const ids = list(inserted.body, 'responses').map((r) => String(r['order_id']));
    const response = await h.api('cancel_order_list', alice, {
      requests: ids.slice(0, 2).map((order_id) => ({ order_id, symbol: SYMBOL })),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});
    expect((await openOrders(alice)).map((o) => o['id'])).toEqual([ids[2]]);
  });

  it("cancel_order_list refuses 21 requests; another user's order in a list is left out, as an unknown one", async () => {
    const mine = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10'));
    const theirs = await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '10'));
    const many = Array.from({ length: 21 }, () => ({ order_id: mine.body['order_id'], symbol: SYMBOL }));
    expectInvalidArgument(await h.api('cancel_order_list', alice, { requests: many }));
    const mixed = await h.api('cancel_order_list', alice, {
      requests: [
        { order_id: mine.body['order_id'], symbol: SYMBOL },
        { order_id: theirs.body['order_id'], symbol: SYMBOL },
      ],
    });
    expect(mixed.status).toBe(200);
    expect(mixed.body).toEqual({});
    expect(await openOrders(alice)).toHaveLength(0);
    expect(await openOrders(bob)).toHaveLength(1);
  });

  it('cancel_replace_order_list replaces several orders', async () => {
    const inserted = await h.api('insert_order_list', alice, {
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10'), limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '11')],
    });
    const ids = list(inserted.body, 'responses').map((r) => String(r['order_id']));
    const response = await h.api('cancel_replace_order_list', alice, {
      requests: ids.map((order_id) => ({ order_id, symbol: SYMBOL, order_qty: '5' })),
    });
    expect(response.status).toBe(200);
    expect(list(response.body, 'responses')).toHaveLength(2);
    expect((await openOrders(alice)).map((o) => o['order_qty'])).toEqual(['5', '5']);
  });

  it('cancel_replace_order_list answers each order id in request order, a refused replace too (cancel_reject on the stream)', async () => {
    const inserted = await h.api('insert_order_list', alice, {
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10'), limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '11')],
    });
    const [live, done] = list(inserted.body, 'responses').map((r) => String(r['order_id']));
    expect((await h.api('cancel_order', alice, { order_id: done, symbol: SYMBOL })).status).toBe(200);
    const stream = await h.stream('create_order_subscription', alice, {});
    await stream.until((line) => at(resultOf(line), 'snapshot') !== undefined);
    const response = await h.api('cancel_replace_order_list', alice, {
      requests: [live, done].map((order_id) => ({ order_id, symbol: SYMBOL, order_qty: '5' })),
    });
    expect(response.status).toBe(200);
    expect(list(response.body, 'responses').map((r) => r['order_id'])).toEqual([live, done]);
    const reject = await stream.until((l) => at(l, 'result', 'update', 'cancel_reject') !== undefined);
    expect(at(reject, 'result', 'update', 'cancel_reject')).toMatchObject({ order_id: done, is_replace: true });
    await stream.until((l) => executionsOf([l]).some((e) => at(e, 'order', 'id') === live && typeOf(e) === 'EXECUTION_TYPE_REPLACE'));
    expect((await openOrders(alice)).map((o) => [o['id'], o['order_qty']])).toEqual([[live, '5']]);
    // the single call answers the same refusal as an error instead
    const single = await h.api('cancel_replace_order', alice, { order_id: done, symbol: SYMBOL, order_qty: '5' });
    expect(single.status).toBe(400);
  });
});

describe('preview_order', () => {
  simPerTest();

  it('returns preview_order as the order would be, without touching the book or using an order id', async () => {
    const stream = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL] });
    await stream.count(1);
    const preview = await h.api('preview_order', alice, { request: limitOrder(ALICE_MAIN, 'SIDE_BUY', '7', '41', { clord_id: 'p-1' }) });
    expect(preview.status).toBe(200);
    expect(preview.body['preview_order']).toMatchObject({
      clord_id: 'p-1',
      account: ALICE_MAIN,
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      order_qty: '7',
      leaves_qty: '7',
      price: '41',
      type: 'ORDER_TYPE_LIMIT',
    });
    expect(await openOrders(alice)).toEqual([]);
    expect(await searchOrders(alice)).toEqual([]);
    // the next real order is the first order the exchange ever numbered, and the first book change
    const real = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '20'));
    const [only] = await searchOrders(alice);
    expect(only?.['id']).toBe(real.body['order_id']);
    const update = await stream.until((l) => list(resultOf(l), 'update', 'bids').length > 0);
    expect(list(resultOf(update), 'update', 'bids')).toEqual([{ px: '20', qty: '1' }]);
  });

  it('checks a preview like an insert: outside the price limits, no price, a stop price on a LIMIT is 400; nothing changes', async () => {
    const outside = await h.api('preview_order', alice, { request: limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '150') });
    expectInvalidArgument(outside);
    expect(String(outside.body['details'])).toMatch(/PRICE_OUT_OF_BOUNDS/);
    // the insert of the same order answers the same way
    const insert = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '150'));
    expect([insert.status, insert.body['details']]).toEqual([400, outside.body['details']]);
    expectInvalidArgument(await h.api('preview_order', alice, { request: limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '0') }));
    expectInvalidArgument(
      await h.api('preview_order', alice, { request: limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40', { stop_price: '45' }) }),
    );
    expect(await searchOrders(alice)).toEqual([]);
  });

  it('previews an order on a halted instrument as REJECTED (200), as the insert would answer', async () => {
    h.sim.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    const preview = await h.api('preview_order', alice, { request: limitOrder(ALICE_MAIN, 'SIDE_BUY', '2', '41') });
    expect(preview.status).toBe(200);
    expect(preview.body['preview_order']).toMatchObject({ state: 'ORDER_STATE_REJECTED', order_qty: '2' });
    expect(at(preview.body, 'preview_order', 'leaves_qty') ?? '0').toBe('0');
    expect(await searchOrders(alice)).toEqual([]);
  });

  it('refuses a preview for a foreign account (403) or an unknown symbol (400)', async () => {
    expect((await h.api('preview_order', alice, { request: limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '41') })).status).toBe(403);
    expectInvalidArgument(
      await h.api('preview_order', alice, { request: { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '41'), symbol: 'NOPE' } }),
    );
  });
});

describe('insert_order_cross', () => {
  simPerTest();

  it("crosses alice's two accounts: both legs fill in one CROSS trade", async () => {
    const response = await h.api('insert_order_cross', alice, {
      cross_id: 'x-1',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '50')],
    });
    expect(response.status).toBe(200);
    const ids = list(response.body, 'responses').map((r) => r['order_id']);
    expect(ids).toHaveLength(2);
    const orders = await searchOrders(alice);
    expect(orders.map((o) => [o['id'], o['state'], o['cum_qty'], o['cross_id']])).toEqual([
      [ids[0], 'ORDER_STATE_FILLED', '5', 'x-1'],
      [ids[1], 'ORDER_STATE_FILLED', '5', 'x-1'],
    ]);
    const tape = await trades(alice);
    expect(tape).toHaveLength(1);
    expect(tape[0]?.['trade_type']).toBe('TRADE_TYPE_CROSS');
    expect(at(tape[0], 'aggressor', 'last_shares')).toBe('5');
    expect(at(tape[0], 'aggressor', 'last_px')).toBe('50');
  });

  it('an all-or-none cross whose prioritized leg would take resting liquidity does not trade', async () => {
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '5', '55'));
    const response = await h.api('insert_order_cross', alice, {
      cross_id: 'x-aon',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      cross_prioritized_side: 'SIDE_BUY',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '60'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '60')],
    });
    // a market condition, like an insert_order answered ACCEPTED/REJECTED: 200 with the two (rejected) legs
    expect(response.status).toBe(200);
    expect(await trades(alice)).toEqual([]);
    expect(await trades(bob)).toEqual([]);
    expect(await openOrders(bob)).toHaveLength(1);
    const legs = await searchOrders(alice);
    expect(legs.map((leg) => leg['id'])).toEqual(list(response.body, 'responses').map((r) => r['order_id']));
    expect(legs.map((leg) => leg['state'])).toEqual(['ORDER_STATE_REJECTED', 'ORDER_STATE_REJECTED']);
    const stream = await h.stream('create_order_subscription', alice, { snapshot_only: true });
    await stream.ended;
    expect(list(resultOf(stream.lines[0] as Json), 'snapshot', 'orders')).toEqual([]);
  });

  it('a cross that would trade through a better resting bid is 400 and leaves no trace (no orders, no executions)', async () => {
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_BUY', '5', '45'));
    const stream = await h.stream('create_order_subscription', alice, {});
    await stream.until((line) => at(resultOf(line), 'snapshot') !== undefined);
    const cross = {
      cross_id: 'x-tt',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '40')],
    };
    const response = await h.api('insert_order_cross', alice, cross);
    expectInvalidArgument(response);
    expect(String(response.body['details'])).toMatch(/PRICE_OUT_OF_BOUNDS: cross price 40 trades through the best bid 45/);
    expect(await trades(alice)).toEqual([]);
    expect(await openOrders(alice)).toEqual([]);
    expect(await searchOrders(alice)).toEqual([]);
    expect(await openOrders(bob)).toHaveLength(1);
    // a marker order: its NEW is the first execution alice's stream carries after the refused cross
    const marker = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '30', { clord_id: 'marker' }));
    await stream.until((line) => executionsOf([line]).some((e) => at(e, 'order', 'id') === marker.body['order_id']));
    expect(executionsOf(stream.lines).map((e) => at(e, 'order', 'clord_id'))).toEqual(['marker']);
    // the same request is refused again (nothing of it was remembered)
    expectInvalidArgument(await h.api('insert_order_cross', alice, cross));
  });

  it('a cross whose legs self-match under SMP is 400 and leaves no trace', async () => {
    const smp = { self_match_prevention_instruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR' };
    const response = await h.api('insert_order_cross', alice, {
      cross_id: 'x-smp',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', smp), limitOrder(ALICE_MAIN, 'SIDE_SELL', '5', '40')],
    });
    expectInvalidArgument(response);
    expect(await searchOrders(alice)).toEqual([]);
  });

  it('a cross on a halted instrument is answered like insert_order: 200, the legs REJECTED on the stream', async () => {
    h.sim.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    const stream = await h.stream('create_order_subscription', alice, {});
    await stream.until((line) => at(resultOf(line), 'snapshot') !== undefined);
    const insert = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'));
    expect(insert.status).toBe(200);
    expect(insert.body['status']).toBe('REJECTED');
    const cross = await h.api('insert_order_cross', alice, {
      cross_id: 'x-halt',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '40')],
    });
    expect(cross.status).toBe(200);
    const ids = list(cross.body, 'responses').map((r) => r['order_id']);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const line = await stream.until((l) => executionsOf([l]).some((e) => at(e, 'order', 'id') === id));
      const execution = executionsOf([line]).find((e) => at(e, 'order', 'id') === id) as Json;
      expect([typeOf(execution), execution['text']]).toEqual(['EXECUTION_TYPE_REJECTED', expect.stringMatching(/HALTED/)]);
    }
    const legs = (await searchOrders(alice)).filter((o) => o['cross_id'] === 'x-halt');
    expect(legs.map((o) => [o['id'], o['state']])).toEqual(ids.map((id) => [id, 'ORDER_STATE_REJECTED']));
    expect(await trades(alice)).toEqual([]);
  });

  it('answers a repeated cross (same cross_id, or the same leg clord_ids) with the earlier legs and executes nothing', async () => {
    const body = {
      cross_id: 'x-rep',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [
        limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50', { clord_id: 'leg-b' }),
        limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '50', { clord_id: 'leg-s' }),
      ],
    };
    const first = await h.api('insert_order_cross', alice, body);
    const second = await h.api('insert_order_cross', alice, body);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    // the same leg clord_ids under another cross_id: still the earlier cross
    const third = await h.api('insert_order_cross', alice, { ...body, cross_id: 'x-rep-2' });
    expect(third.body).toEqual(first.body);
    // the same cross_id with new clord_ids: the earlier cross too
    const fourth = await h.api('insert_order_cross', alice, {
      cross_id: 'x-rep',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '50')],
    });
    expect(fourth.body).toEqual(first.body);
    expect(await trades(alice)).toHaveLength(1);
    expect(await searchOrders(alice)).toHaveLength(2);
    // one leg's clord_id reused in a new cross: refused, nothing created
    const mixed = await h.api('insert_order_cross', alice, {
      cross_id: 'x-new',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [
        limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50', { clord_id: 'leg-b' }),
        limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '50', { clord_id: 'fresh' }),
      ],
    });
    expectInvalidArgument(mixed);
    expect(String(mixed.body['details'])).toMatch(/requests\[0\]\.clord_id leg-b was already used/);
    expect(await searchOrders(alice)).toHaveLength(2);
  });

  it('a cross whose legs have different quantities is 400 and does not trade', async () => {
    expectInvalidArgument(
      await h.api('insert_order_cross', alice, {
        cross_id: 'x-q',
        cross_type: 'CROSS_TYPE_ALL_OR_NONE',
        requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '4', '50')],
      }),
    );
    expect(await trades(alice)).toEqual([]);
    expect(await openOrders(alice)).toEqual([]);
    expect(await searchOrders(alice)).toEqual([]);
  });

  it('refuses a cross without cross_id or with one leg (400)', async () => {
    const legs = [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '50')];
    expectInvalidArgument(await h.api('insert_order_cross', alice, { cross_type: 'CROSS_TYPE_ALL_OR_NONE', requests: legs }));
    expectInvalidArgument(
      await h.api('insert_order_cross', alice, { cross_id: 'x', cross_type: 'CROSS_TYPE_ALL_OR_NONE', requests: legs.slice(0, 1) }),
    );
    expect(await searchOrders(alice)).toEqual([]);
  });

  it("refuses a cross with a leg on bob's account (403)", async () => {
    const response = await h.api('insert_order_cross', alice, {
      cross_id: 'x',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50'), limitOrder(BOB_MAIN, 'SIDE_SELL', '5', '50')],
    });
    expect(response.status).toBe(403);
    expect(await trades(bob)).toEqual([]);
  });
});

describe('argument and routing errors', () => {
  simPerDescribe();

  it("refuses an order on an account that is not the caller's with 403 {code: 7}", async () => {
    const response = await h.api('insert_order', alice, limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '40'));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 7, message: 'PERMISSION_DENIED', details: expect.stringContaining(BOB_MAIN) });
  });

  it.each<[string, Json]>([
    ['an unknown symbol', { symbol: 'NOPE-2026' }],
    ['a non-numeric quantity', { order_qty: 'abc' }],
    ['a zero quantity', { order_qty: '0' }],
    ['a negative quantity', { order_qty: '-1' }],
    ['a fractional quantity for a whole-contract instrument', { order_qty: '1.5' }],
    ['a missing side', { side: undefined }],
    ['an unknown side', { side: 'SIDE_SIDEWAYS' }],
    ['a non-numeric price', { price: 'cheap' }],
    ['a missing price on a limit order', { price: undefined }],
    ['a missing account', { account: undefined }],
    ['an unknown order type', { type: 'ORDER_TYPE_WISHFUL' }],
  ])('answers %s with 400 {code: 3, message: INVALID_ARGUMENT, details: <string>}', async (_name, patch) => {
    const response = await h.api('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), ...patch });
    expectInvalidArgument(response);
    expect(Object.keys(response.body).sort()).toEqual(['code', 'details', 'message']);
  });

  it('names the symbol field (not the quantity that noticed it) for an unknown or missing symbol', async () => {
    const unknown = await h.api('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), symbol: 'NOPE' });
    expectInvalidArgument(unknown);
    expect(unknown.body['details']).toBe('symbol: unknown symbol "NOPE"; use a symbol of the exchange\'s instruments');
    const missing = await h.api('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), symbol: undefined });
    expect(missing.body['details']).toBe('symbol: is required');
    const inList = await h.api('insert_order_list', alice, {
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), symbol: 'NOPE' }],
    });
    expect(inList.body['details']).toBe('requests[1].symbol: unknown symbol "NOPE"; use a symbol of the exchange\'s instruments');
    expect(String(unknown.body['details'])).not.toMatch(/order_qty/);
  });

  it.each([
    ['malformed JSON', '{"symbol": '],
    ['a JSON array', '[1, 2]'],
    ['a JSON string', '"insert"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
  ])('answers %s as the body with 400 INVALID_ARGUMENT', async (_name, raw) => {
    const response = await h.post('/api/v1beta1/insert_order', undefined, { token: alice, raw });
    expectInvalidArgument(response);
  });

  it('checks the token before the body: malformed JSON without a token is 401', async () => {
    const response = await h.post('/api/v1beta1/insert_order', undefined, { raw: '{' });
    expect(response.status).toBe(401);
    expect(response.body['code']).toBe(16);
  });

  it('ignores unknown request fields (forward compatibility)', async () => {
    const response = await h.api('preview_order', alice, {
      request: { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), future_field: { x: 1 } },
      also_new: true,
    });
    expect(response.status).toBe(200);
    expect(response.body['preview_order']).toMatchObject({ price: '40' });
  });

  it('answers an unknown path with 404 NOT_FOUND', async () => {
    const response = await h.post('/api/v1beta1/insert_orders', {}, { token: alice });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 5, message: 'NOT_FOUND' });
  });

  it('answers a known path with the wrong method with 501 UNIMPLEMENTED', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await h.post('/api/v1beta1/insert_order', {}, { token: alice, method });
      expect(response.status).toBe(501);
      expect(response.body).toMatchObject({ code: 12, message: 'UNIMPLEMENTED' });
    }
  });

  it('never changes state on malformed requests and keeps serving afterwards', async () => {
    const good = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '3', '40', { clord_id: 'keep' }));
    const before = await openOrders(alice);
    const burst = await Promise.all([
      h.post('/api/v1beta1/insert_order', undefined, { token: alice, raw: '{' }),
      h.post('/api/v1beta1/insert_order', undefined, { token: alice, raw: '[]' }),
      h.api('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), order_qty: 'abc' }),
      h.api('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), symbol: 'NOPE' }),
      h.api('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'), side: undefined }),
      h.api('insert_order', alice, limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '40')),
      h.api('cancel_order', alice, { order_id: 'nope', symbol: SYMBOL }),
      h.api('cancel_order', alice, { symbol: SYMBOL }),
      h.api('cancel_replace_order', alice, { order_id: good.body['order_id'], symbol: SYMBOL, price: 'x' }),
      h.api('cancel_replace_order', alice, { order_id: 'O9999999999999999', symbol: SYMBOL, price: '41' }),
      h.api('insert_order_list', alice, { requests: 'nope' }),
      h.api('insert_order_cross', alice, { cross_id: 'bad', requests: [{}] }),
      h.post('/api/v1beta1/cancel_order', undefined, { token: alice, raw: 'not json at all' }),
      h.api('get_open_orders', alice, { accounts: 'not-a-list' }),
    ]);
    for (const response of burst) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(typeof response.body['code']).toBe('number');
    }
    expect(await openOrders(alice)).toEqual(before);
    expect(await trades(alice)).toEqual([]);
    const after = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_SELL', '1', '60'));
    expect(after.status).toBe(200);
    expect(await openOrders(alice)).toHaveLength(2);
  });

  it('serves requests through a private link Host header the same', async () => {
    const response = await h.post('/api/v1beta1/get_who_am_i', {}, { token: alice, headers: { host: 'rest.sim.tradebot.local' } });
    expect(response.status).toBe(200);
  });
});

describe('rate limit', () => {
  afterEach(() => h.close());

  it('answers beyond rateLimitPerSecond with 429 RESOURCE_EXHAUSTED and a retry-after header, then recovers', async () => {
    await start('rateLimitPerSecond: 5');
    const responses = [];
    for (let i = 0; i < 10; i++) responses.push(await h.api('get_open_orders', alice));
    const limited = responses.filter((r) => r.status === 429);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    expect(limited).toHaveLength(5);
    for (const r of limited) {
      expect(r.body).toMatchObject({ code: 8, message: 'RESOURCE_EXHAUSTED' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    h.clock.advance(1000);
    expect((await h.api('get_open_orders', alice)).status).toBe(200);
  });

  it("counts per firm: bob of the same firm shares alice's bucket", async () => {
    await start('rateLimitPerSecond: 5');
    for (let i = 0; i < 5; i++) expect((await h.api('get_who_am_i', alice)).status).toBe(200);
    expect((await h.api('get_who_am_i', bob)).status).toBe(429);
  });

  it('a rate-limited insert does not insert', async () => {
    await start('rateLimitPerSecond: 5');
    for (let i = 0; i < 5; i++) await h.api('get_who_am_i', alice);
    expect((await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'))).status).toBe(429);
    h.clock.advance(1000);
    expect(await openOrders(alice)).toEqual([]);
  });
});

describe('a second instrument', () => {
  simPerTest();

  it('keeps books apart: crossing prices on different symbols do not trade', async () => {
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '60'));
    await h.api('insert_order', bob, { ...limitOrder(BOB_MAIN, 'SIDE_SELL', '1', '40'), symbol: SYMBOL2 });
    expect(await trades(alice)).toEqual([]);
    expect(await openOrders(alice, { symbols: [SYMBOL] })).toHaveLength(1);
    expect(await openOrders(bob, { symbols: [SYMBOL2] })).toHaveLength(1);
    expect(await openOrders(bob, { symbols: [SYMBOL] })).toEqual([]);
  });
});
