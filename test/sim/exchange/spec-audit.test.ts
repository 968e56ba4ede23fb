/**
 * Spec audit points of issue 21, on the wire: `insert_order_cross` must have `cross_type` set (missing or
 * CROSS_TYPE_UNDEFINED is 400 INVALID_ARGUMENT, nothing created); the order book's `stats.openInterest`
 * follows the positions; executions carry `transact_trade_date` (the UTC day of their transact time); the
 * gateway's `search_trades` and `/v1/report/trades/search` answer `states: ["TRADE_STATE_UNDEFINED"]` the same
 * way; the demo users of the shipped sim configs pass the sim's own password policy.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, parseConfigText } from '../../../src/config/index.ts';
import { checkPassword } from '../../../src/sim/gateway/password-policy.ts';
import {
  ALICE,
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB,
  BOB_MAIN,
  CLIENT,
  SYMBOL,
  SYMBOL2,
  at,
  gatewayCaller,
  startFamilyA,
  type FamilyAHarness,
  type Json,
} from '../familya/helpers/harness.ts';

let h: FamilyAHarness;
let token = '';
const gateway = gatewayCaller(() => h);

const leg = (account: string, side: 'SIDE_BUY' | 'SIDE_SELL', qty: string, price: string, symbol = SYMBOL) => ({
  account,
  symbol,
  side,
  type: 'ORDER_TYPE_LIMIT',
  time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  order_qty: qty,
  price,
});

async function trade(symbol: string, buyer: [string, string], seller: [string, string], qty: string, price: string): Promise<void> {
  expect((await gateway(buyer[0], 'insert_order', leg(buyer[1], 'SIDE_BUY', qty, price, symbol))).status).toBe(200);
  expect((await gateway(seller[0], 'insert_order', leg(seller[1], 'SIDE_SELL', qty, price, symbol))).status).toBe(200);
}

beforeAll(async () => {
  h = await startFamilyA();
  token = await h.token(CLIENT);
});
afterAll(async () => {
  await h?.close();
});

describe('insert_order_cross needs cross_type', () => {
  const legs = () => [leg(ALICE_MAIN, 'SIDE_BUY', '2', '30'), leg(ALICE_HEDGE, 'SIDE_SELL', '2', '30')];

  it('refuses a cross without cross_type or with CROSS_TYPE_UNDEFINED (400 naming cross_type), creating nothing', async () => {
    const before = h.sim.core.engine.openOrders().length;
    for (const extra of [{}, { cross_type: 'CROSS_TYPE_UNDEFINED' }]) {
      const response = await gateway('alice', 'insert_order_cross', {
        cross_id: `x-ct-${Object.keys(extra).length}`,
        ...extra,
        requests: legs(),
      });
      expect(response.status).toBe(400);
      expect(response.body['message']).toBe('INVALID_ARGUMENT');
      expect(String(response.body['details'])).toMatch(/cross_type/);
    }
    expect(h.sim.core.engine.openOrders().length).toBe(before);
    const searched = await gateway('alice', 'search_orders', { accounts: [ALICE_MAIN, ALICE_HEDGE] });
    expect((searched.body['order'] as Json[] | undefined) ?? []).toEqual([]);
  });

  it('takes a cross with CROSS_TYPE_ALL_OR_NONE', async () => {
    const response = await gateway('alice', 'insert_order_cross', {
      cross_id: 'x-ct-aon',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: legs(),
    });
    expect(response.status).toBe(200);
    expect(response.body['responses'] as Json[]).toHaveLength(2);
  });
});

describe('open interest and trade dates', () => {
  it('stats.openInterest is the contracts held long across accounts, and follows trades that close positions', async () => {
    const interest = async () => {
      const book = await h.call('GET', `/v1/orderbook/${SYMBOL2}`, { token });
      expect(book.status).toBe(200);
      return String(at(book.body, 'stats.openInterest') ?? '0');
    };
    expect(await interest()).toBe('0');
    // bob buys 5 from alice's hedge account: 5 contracts are held
    await trade(SYMBOL2, ['bob', BOB_MAIN], ['alice', ALICE_HEDGE], '5', '41');
    expect(await interest()).toBe('5');
    // alice's hedge buys 2 back from bob: positions shrink on both sides
    await trade(SYMBOL2, ['alice', ALICE_HEDGE], ['bob', BOB_MAIN], '2', '42');
    expect(await interest()).toBe('3');
    // alice's main account buys 4 from bob: bob turns short, alice's main holds 4
    await trade(SYMBOL2, ['alice', ALICE_MAIN], ['bob', BOB_MAIN], '4', '43');
    expect(await interest()).toBe('4');
  });

  it('executions carry transact_trade_date, the UTC day of their transact time, at both doors', async () => {
    const found = await gateway('bob', 'search_trades', { accounts: [BOB_MAIN] });
    const trades = found.body['trade'] as Json[];
    expect(trades.length).toBeGreaterThan(0);
    for (const t of trades) {
      for (const side of ['aggressor', 'passive']) {
        const day = new Date(String(at(t, `${side}.transact_time`)));
        expect(at(t, `${side}.transact_trade_date`)).toEqual({
          year: day.getUTCFullYear(),
          month: day.getUTCMonth() + 1,
          day: day.getUTCDate(),
        });
      }
    }
    const familyA = await h.call('POST', '/v1/report/trades/search', { token, participant: BOB, body: { accounts: [BOB_MAIN] } });
    const first = (familyA.body['trade'] as Json[])[0];
    expect(at(first, 'aggressor.transactTradeDate')).toEqual({ year: 2026, month: 1, day: 5 });
  });
});

describe('states: ["TRADE_STATE_UNDEFINED"] in a trade search', () => {
  it('is answered the same way by the gateway and /v1: 400 INVALID_ARGUMENT', async () => {
    const body = { states: ['TRADE_STATE_UNDEFINED'] };
    const viaGateway = await gateway('alice', 'search_trades', { accounts: [ALICE_MAIN], ...body });
    const viaFamilyA = await h.call('POST', '/v1/report/trades/search', { token, participant: ALICE, body });
    expect([viaGateway.status, viaFamilyA.status]).toEqual([400, 400]);
    expect(String(viaGateway.body['details'])).toMatch(/TRADE_STATE_UNDEFINED/);
    expect(JSON.stringify(viaFamilyA.body)).toMatch(/TRADE_STATE_UNDEFINED/);
  });
});

describe('shipped demo passwords', () => {
  for (const file of ['config/sim.yaml', 'backtest/data/sample-sim.yaml']) {
    it(`${file}: every demo user's default password passes the sim's password policy`, () => {
      const root = parseConfigText(readFileSync(file, 'utf8'), configSchema, { env: {} });
      const users = root.sim?.users ?? [];
      expect(users.length).toBeGreaterThan(0);
      for (const user of users) expect([user.username, checkPassword(user.password, user.username).messages]).toEqual([user.username, []]);
    });
  }
});
