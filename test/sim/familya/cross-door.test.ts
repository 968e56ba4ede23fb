// Family A and the gateway are two doors into one exchange: an order inserted through /v1 reaches the
// gateway's order stream, searches and positions, and an order inserted through the gateway shows in
// /v1's open orders, order search, trade search and positions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALICE,
  ALICE_MAIN,
  ALICE_PASSWORD,
  BOB,
  BOB_MAIN,
  CLIENT,
  SYMBOL,
  at,
  startFamilyA,
  type FamilyAHarness,
  type Json,
} from './helpers/harness.ts';
import { NdjsonReader, type Line } from './helpers/ndjson.ts';

let h: FamilyAHarness;
let token: string;
let gatewayToken: string;
let stream: NdjsonReader;

async function gateway(path: string, body: unknown): Promise<Json> {
  const response = await fetch(`${h.sim.ready.gateway}/api/v1beta1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: gatewayToken },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Json;
  if (response.status !== 200) throw new Error(`gateway ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const executionsOf = (line: Line): Json[] => (at(line, 'result.update.executions') as Json[] | undefined) ?? [];

beforeAll(async () => {
  h = await startFamilyA();
  token = await h.token(CLIENT);
  const login = await fetch(`${h.sim.ready.gateway}/auth/v1beta1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: ALICE_PASSWORD }),
  });
  gatewayToken = String(((await login.json()) as Json)['accessToken']);
  stream = await NdjsonReader.open(`${h.sim.ready.gateway}/api/v1beta1/create_order_subscription`, gatewayToken, {});
  await stream.until((line) => at(line, 'result.snapshot') !== undefined);
});
afterAll(async () => {
  stream.close();
  await h.close();
});

describe('one exchange, two doors', () => {
  it('an order inserted through /v1 appears in the gateway order stream, open orders and search', async () => {
    const insert = await h.call('POST', '/v1/trading/orders', {
      token,
      participant: ALICE,
      body: {
        symbol: SYMBOL,
        side: 'SIDE_BUY',
        type: 'ORDER_TYPE_LIMIT',
        timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
        orderQty: '4',
        price: '45',
        account: ALICE_MAIN,
        clordId: 'fa-1',
      },
    });
    expect(insert.status, insert.text).toBe(200);
    const orderId = String(insert.body['orderId']);

    const line = await stream.until((l) => executionsOf(l).some((e) => at(e, 'order.id') === orderId));
    const execution = executionsOf(line).find((e) => at(e, 'order.id') === orderId);
    expect(execution).toMatchObject({
      order: { clord_id: 'fa-1', account: ALICE_MAIN, order_qty: '4', price: '45', submitting_participant: ALICE },
    });
    expect(execution?.['type']).toBeUndefined(); // EXECUTION_TYPE_NEW is the zero value: omitted

    const open = await gateway('get_open_orders', { accounts: [ALICE_MAIN] });
    expect((open['orders'] as Json[]).map((o) => o['id'])).toContain(orderId);
    const search = await gateway('search_orders', { clord_id: 'fa-1' });
    expect(at(search, 'order.0.id')).toBe(orderId);
  });

  it('an order inserted through the gateway shows in /v1, and a /v1 order trades against it', async () => {
    const inserted = await gateway('insert_order', {
      symbol: SYMBOL,
      side: 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      order_qty: '2',
      price: '70',
      account: ALICE_MAIN,
      clord_id: 'gw-1',
    });
    const orderId = String(inserted['order_id']);

    const open = await h.call('GET', '/v1/trading/open-orders', { token, participant: ALICE });
    expect((open.body['orders'] as Json[]).find((o) => o['id'] === orderId)).toMatchObject({ clordId: 'gw-1', price: '70', orderQty: '2' });
    const book = await h.call('GET', `/v1/orderbook/${SYMBOL}/bbo`, { token });
    expect(book.body['offer']).toEqual({ px: '70', qty: '2' });

    // bob lifts alice's gateway offer through /v1
    const take = await h.call('POST', '/v1/trading/orders', {
      token,
      participant: BOB,
      body: { symbol: SYMBOL, side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty: '2', price: '70', account: BOB_MAIN },
    });
    expect(take.status, take.text).toBe(200);

    const fill = await stream.until((l) =>
      executionsOf(l).some((e) => at(e, 'order.id') === orderId && e['type'] === 'EXECUTION_TYPE_FILL'),
    );
    expect(executionsOf(fill).find((e) => at(e, 'order.id') === orderId)).toMatchObject({ last_px: '70', last_shares: '2' });

    const trades = await h.call('POST', '/v1/report/trades/search', { token, body: { orderId } });
    expect(trades.body['trade'] as Json[]).toHaveLength(1);
    const gatewayTrades = await gateway('search_trades', { order_id: orderId });
    expect(at(gatewayTrades, 'trade.0.id')).toBe(at(trades.body, 'trade.0.id'));

    const positions = await h.call('GET', '/v1/positions', { token });
    const byAccount = Object.fromEntries((positions.body['positions'] as Json[]).map((p) => [p['account'], p['netPosition']]));
    expect(byAccount).toMatchObject({ [ALICE_MAIN]: '-2', [BOB_MAIN]: '2' });
    const gatewayPositions = await gateway('list_account_positions', { name: ALICE_MAIN });
    expect(at(gatewayPositions, 'positions.0.net_position')).toBe('-2');

    const gatewayBalance = await gateway('get_account_balance', { name: ALICE_MAIN });
    const familyABalance = await h.call('POST', '/v1/positions/balance', { token, body: { name: ALICE_MAIN } });
    expect(familyABalance.body['balance']).toBe(gatewayBalance['balance']);
  });

  it('a /v1 cancel of a gateway order reaches the gateway stream', async () => {
    const inserted = await gateway('insert_order', {
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      order_qty: '1',
      price: '5',
      account: ALICE_MAIN,
    });
    const orderId = String(inserted['order_id']);
    const cancel = await h.call('POST', '/v1/trading/orders/cancel', { token, participant: ALICE, body: { orderId, symbol: SYMBOL } });
    expect(cancel.status, cancel.text).toBe(200);
    await stream.until((l) => executionsOf(l).some((e) => at(e, 'order.id') === orderId && e['type'] === 'EXECUTION_TYPE_CANCELED'));
  });
});
