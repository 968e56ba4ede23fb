/**
 * The simulator gateway's NDJSON streams on the wire: create_order_subscription (snapshot first, then
 * updates, heartbeats, filters, snapshot_only), create_market_data_subscription (full levels up to the
 * depth, sorted, an update per book change, limits), create_instrument_state_change_subscription, and
 * fault injection with `sim.dropStreams()`. Every wait is on a stream line or the body's end.
 */
import { afterEach, describe, expect, it } from 'vitest';
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
  type HarnessOptions,
  type Json,
} from './helpers/harness.ts';

let h: Harness;
let alice: string;
let bob: string;

/** Heartbeats every 50 ms, set in the YAML as `sim.gateway.heartbeatSeconds: 0.05`. */
const FAST_HEARTBEAT: HarnessOptions = { gateway: 'rateLimitPerSecond: 10000, heartbeatSeconds: 0.05' };

async function start(options: HarnessOptions = {}): Promise<void> {
  h = await startHarness(options);
  alice = await h.token('alice');
  bob = await h.token('bob');
}

afterEach(async () => {
  await h?.close();
});

const isSnapshot = (line: Json) => at(line, 'result', 'snapshot') !== undefined;
const isHeartbeat = (line: Json) => at(line, 'result', 'heartbeat') !== undefined;
const isUpdate = (line: Json) => at(line, 'result', 'update') !== undefined;
const executions = (line: Json) => list(resultOf(line), 'update', 'executions');

describe('create_order_subscription', () => {
  it('sends the snapshot of working orders first, then each new execution as an update', async () => {
    await start();
    const resting = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', { clord_id: 'before' }));
    await h.api('insert_order', alice, { ...limitOrder(ALICE_HEDGE, 'SIDE_SELL', '2', '70'), symbol: SYMBOL2 });
    const stream = await h.stream('create_order_subscription', alice, {});
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('application/x-ndjson');
    const [first] = await stream.count(1);
    expect(isSnapshot(first as Json)).toBe(true);
    const orders = list(resultOf(first as Json), 'snapshot', 'orders');
    expect(orders.map((o) => o['id']).sort()).toHaveLength(2);
    expect(orders.find((o) => o['clord_id'] === 'before')).toMatchObject({ id: resting.body['order_id'], leaves_qty: '5', price: '40' });
    expect(at(first, 'result', 'session_id')).toMatch(/.+/);
    expect(at(first, 'result', 'processed_sent_time')).toBe(new Date(h.clock.t).toISOString());

    const later = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '30'));
    const update = await stream.until(isUpdate);
    expect(executions(update).map((e) => at(e, 'order', 'id'))).toEqual([later.body['order_id']]);
    expect(at(update, 'result', 'session_id')).toBe(at(first, 'result', 'session_id'));
    expect(stream.lines.indexOf(update)).toBe(1);
  });

  it('leaves filled and cancelled orders out of the snapshot', async () => {
    await start();
    const cancelled = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'));
    await h.api('cancel_order', alice, { order_id: cancelled.body['order_id'], symbol: SYMBOL });
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '1', '45'));
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '45'));
    const partial = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_SELL', '3', '60'));
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '60'));
    const stream = await h.stream('create_order_subscription', alice, { snapshot_only: true });
    await stream.ended;
    const orders = list(resultOf(stream.lines[0] as Json), 'snapshot', 'orders');
    expect(orders.map((o) => [o['id'], o['state'], o['cum_qty'], o['leaves_qty']])).toEqual([
      [partial.body['order_id'], 'ORDER_STATE_PARTIALLY_FILLED', '1', '2'],
    ]);
  });

  it('with snapshot_only sends exactly the snapshot and ends the body', async () => {
    await start();
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'));
    const stream = await h.stream('create_order_subscription', alice, { snapshot_only: true });
    await stream.ended;
    expect(stream.lines).toHaveLength(1);
    expect(isSnapshot(stream.lines[0] as Json)).toBe(true);
    expect(list(resultOf(stream.lines[0] as Json), 'snapshot', 'orders')).toHaveLength(1);
  });

  it('sends heartbeats with the session id on an idle stream', async () => {
    await start(FAST_HEARTBEAT);
    expect(h.sim.config.gateway.heartbeatSeconds).toBe(0.05);
    const stream = await h.stream('create_order_subscription', alice, {});
    const beat = await stream.until(isHeartbeat);
    expect(at(beat, 'result', 'heartbeat')).toEqual({});
    expect(at(beat, 'result', 'session_id')).toBe(at(stream.lines[0], 'result', 'session_id'));
    await stream.until(isHeartbeat, stream.lines.indexOf(beat) + 1);
  });

  it('filters by account and symbol', async () => {
    await start();
    const stream = await h.stream('create_order_subscription', alice, { accounts: [ALICE_HEDGE], symbols: [SYMBOL2] });
    await stream.count(1);
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'));
    await h.api('insert_order', alice, limitOrder(ALICE_HEDGE, 'SIDE_BUY', '1', '40'));
    const wanted = await h.api('insert_order', alice, { ...limitOrder(ALICE_HEDGE, 'SIDE_BUY', '1', '40'), symbol: SYMBOL2 });
    const update = await stream.until(isUpdate);
    expect(executions(update).map((e) => at(e, 'order', 'id'))).toEqual([wanted.body['order_id']]);
  });

  it('shows both sides of a trade only to their owners', async () => {
    await start();
    const aliceStream = await h.stream('create_order_subscription', alice, {});
    const bobStream = await h.stream('create_order_subscription', bob, {});
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '2', '40'));
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '2', '40'));
    const aliceFill = await aliceStream.until((l) => executions(l).some((e) => e['type'] === 'EXECUTION_TYPE_FILL'));
    const bobFill = await bobStream.until((l) => executions(l).some((e) => e['type'] === 'EXECUTION_TYPE_FILL'));
    expect(at(executions(aliceFill)[0], 'order', 'account')).toBe(ALICE_MAIN);
    expect(at(executions(bobFill)[0], 'order', 'account')).toBe(BOB_MAIN);
    expect(executions(aliceFill)[0]?.['trade_id']).toBe(executions(bobFill)[0]?.['trade_id']);
    expect(executions(bobFill)[0]?.['aggressor']).toBe(true);
    for (const line of aliceStream.lines) for (const e of executions(line)) expect(at(e, 'order', 'account')).toBe(ALICE_MAIN);
  });

  it('sends a refused replace as update.cancel_reject with is_replace and the reason', async () => {
    await start();
    const stream = await h.stream('create_order_subscription', alice, {});
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40', { clord_id: 'k1' }));
    const second = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '41', { clord_id: 'k2' }));
    const refused = await h.api('cancel_replace_order', alice, {
      order_id: second.body['order_id'],
      symbol: SYMBOL,
      clord_id: 'k1',
      price: '42',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 9, message: 'FAILED_PRECONDITION', details: expect.stringContaining('DUPLICATE_CLORD_ID') });
    const line = await stream.until((l) => at(l, 'result', 'update', 'cancel_reject') !== undefined);
    expect(at(line, 'result', 'update', 'cancel_reject')).toMatchObject({
      order_id: second.body['order_id'],
      is_replace: true,
      reject_reason: 'CXL_REJ_REASON_DUPLICATE_CLORD_ID',
      text: expect.any(String),
    });
    expect(list((await h.api('get_open_orders', alice)).body, 'orders').map((o) => o['price'])).toEqual(['40', '41']);
  });

  it("refuses a subscription to another user's account (403) and without a token (401), as JSON", async () => {
    await start();
    const foreign = await h.api('create_order_subscription', alice, { accounts: [BOB_MAIN] });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 7, message: 'PERMISSION_DENIED' });
    const anonymous = await h.post('/api/v1beta1/create_order_subscription', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body['code']).toBe(16);
  });
});

describe('create_market_data_subscription', () => {
  async function ladder(): Promise<void> {
    for (const [price, qty] of [
      ['40', '1'],
      ['41', '2'],
      ['42', '3'],
      ['39', '4'],
    ] as const)
      await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', qty, price));
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '42'));
    for (const [price, qty] of [
      ['50', '1'],
      ['48', '2'],
      ['49', '3'],
    ] as const)
      await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', qty, price));
  }

  it('sends the full aggregated levels up to the depth: bids descending, offers ascending', async () => {
    await start();
    await ladder();
    const stream = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL], depth: 3 });
    const [first] = await stream.count(1);
    const update = at(first, 'result', 'update') as Json;
    expect(update['symbol']).toBe(SYMBOL);
    expect(update['bids']).toEqual([
      { px: '42', qty: '8' },
      { px: '41', qty: '2' },
      { px: '40', qty: '1' },
    ]);
    expect(update['offers']).toEqual([
      { px: '48', qty: '2' },
      { px: '49', qty: '3' },
      { px: '50', qty: '1' },
    ]);
    expect(update['state']).toBe('INSTRUMENT_STATE_OPEN');
    expect(update['transact_time']).toBe(new Date(h.clock.t).toISOString());
  });

  it('defaults to depth 10 and sends one snapshot per requested symbol', async () => {
    await start();
    for (let i = 0; i < 12; i++) await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', String(20 + i)));
    const stream = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL, SYMBOL2], snapshot_only: true });
    await stream.ended;
    expect(stream.lines.map((l) => at(l, 'result', 'update', 'symbol'))).toEqual([SYMBOL, SYMBOL2]);
    const bids = list(stream.lines[0], 'result', 'update', 'bids');
    expect(bids).toHaveLength(10);
    expect(bids[0]).toEqual({ px: '31', qty: '1' });
    expect(list(stream.lines[1], 'result', 'update', 'bids')).toEqual([]);
  });

  it('sends an update with the full levels after a new order, and stats after a trade', async () => {
    await start();
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '2', '40'));
    const stream = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL] });
    await stream.count(1);
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '3', '41'));
    const after = await stream.until((l) => list(l, 'result', 'update', 'bids').length === 2);
    expect(list(after, 'result', 'update', 'bids')).toEqual([
      { px: '41', qty: '3' },
      { px: '40', qty: '2' },
    ]);
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '3', '41'));
    const traded = await stream.until((l) => at(l, 'result', 'update', 'stats', 'last_trade_px') === '41');
    expect(list(traded, 'result', 'update', 'bids')).toEqual([{ px: '40', qty: '2' }]);
    expect(at(traded, 'result', 'update', 'stats')).toMatchObject({ shares_traded: '3', high_px: '41', low_px: '41', open_px: '41' });
  });

  it('ignores book changes of other symbols', async () => {
    await start();
    const stream = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL2] });
    await stream.count(1);
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'));
    await h.api('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '33'), symbol: SYMBOL2 });
    const update = await stream.until((l) => list(l, 'result', 'update', 'bids').length > 0);
    expect(stream.lines.indexOf(update)).toBe(1);
    expect(at(update, 'result', 'update', 'symbol')).toBe(SYMBOL2);
  });

  it('sends heartbeats on an idle market data stream', async () => {
    await start(FAST_HEARTBEAT);
    const stream = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL] });
    expect(at(await stream.until(isHeartbeat), 'result', 'heartbeat')).toEqual({});
  });

  it('refuses more than 1000 symbols, no symbols and an unknown symbol with 400 INVALID_ARGUMENT', async () => {
    await start();
    const many = Array.from({ length: 1001 }, (_, i) => `SYM-${i}`);
    for (const body of [{ symbols: many }, { symbols: [] }, { symbols: [SYMBOL, 'NOPE'] }]) {
      const response = await h.api('create_market_data_subscription', alice, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 3, message: 'INVALID_ARGUMENT' });
    }
  });
});

describe('create_instrument_state_change_subscription', () => {
  it('sends the current state of each instrument, then each state change', async () => {
    await start();
    const stream = await h.stream('create_instrument_state_change_subscription', alice, {});
    const initial = await stream.count(2);
    expect(initial.map((l) => [at(l, 'result', 'update', 'symbol'), at(l, 'result', 'update', 'state')])).toEqual([
      [SYMBOL, 'INSTRUMENT_STATE_OPEN'],
      [SYMBOL2, 'INSTRUMENT_STATE_OPEN'],
    ]);
    h.clock.advance(5000);
    h.sim.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    const change = await stream.until((l) => at(l, 'result', 'update', 'state') === 'INSTRUMENT_STATE_HALTED');
    expect(at(change, 'result', 'update', 'symbol')).toBe(SYMBOL);
    expect(at(change, 'result', 'update', 'transact_time')).toBe(new Date(h.clock.t).toISOString());
  });

  it('filters by symbol and sends heartbeats', async () => {
    await start(FAST_HEARTBEAT);
    const stream = await h.stream('create_instrument_state_change_subscription', alice, { symbols: [SYMBOL2] });
    await stream.count(1);
    h.sim.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    h.sim.core.setInstrumentState(SYMBOL2, 'INSTRUMENT_STATE_HALTED');
    const change = await stream.until((l) => at(l, 'result', 'update', 'state') === 'INSTRUMENT_STATE_HALTED');
    expect(at(change, 'result', 'update', 'symbol')).toBe(SYMBOL2);
    await stream.until(isHeartbeat);
    expect(stream.lines.filter((l) => at(l, 'result', 'update', 'symbol') === SYMBOL)).toEqual([]);
  });

  it('a halted instrument answers a new order 200 with status REJECTED and a text, and rests nothing', async () => {
    await start();
    h.sim.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    const response = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ order_id: expect.any(String), status: 'REJECTED', text: expect.stringContaining('HALTED') });
    expect(list((await h.api('get_open_orders', alice)).body, 'orders')).toEqual([]);
  });
});

describe('dropStreams and shutdown', () => {
  it('sim.dropStreams() ends every open stream from the server side; new streams still work', async () => {
    await start();
    const orders = await h.stream('create_order_subscription', alice, {});
    const book = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL] });
    const states = await h.stream('create_instrument_state_change_subscription', bob, {});
    await Promise.all([orders.count(1), book.count(1), states.count(2)]);
    h.sim.dropStreams();
    await Promise.all([orders.ended, book.ended, states.ended]);
    expect([orders.isEnded, book.isEnded, states.isEnded]).toEqual([true, true, true]);

    const again = await h.stream('create_order_subscription', alice, {});
    await again.count(1);
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'));
    const update = await again.until(isUpdate);
    expect(at(executions(update)[0], 'order', 'id')).toBe(inserted.body['order_id']);
    expect(orders.lines).toHaveLength(1);
  });

  it('sim.close() ends open streams', async () => {
    await start();
    const stream = await h.stream('create_order_subscription', alice, {});
    await stream.count(1);
    await h.sim.close();
    await stream.ended;
    expect(stream.isEnded).toBe(true);
    h = { ...h, close: async () => undefined };
  });
});
