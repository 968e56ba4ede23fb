/**
 * The simulator gateway's lookup endpoints on the wire: search_trades paging and filters, search_orders,
 * paging on while the oldest orders and trades are pruned,
 * get_open_orders filters, list_account_positions after fills (net position, average entry), the account
 * balance after a buy, get_who_am_i, and that a caller only ever sees its own accounts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB_MAIN,
  SYMBOL,
  SYMBOL2,
  at,
  limitOrder,
  list,
  startHarness,
  type Harness,
  type Json,
} from './helpers/harness.ts';

let h: Harness;
let alice: string;
let bob: string;

beforeEach(async () => {
  h = await startHarness();
  alice = await h.token('alice');
  bob = await h.token('bob');
});

afterEach(async () => {
  await h.close();
});

async function ok(path: string, token: string, body: Json = {}): Promise<Json> {
  const response = await h.api(path, token, body);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Bob rests `count` one-lot offers at 0.50.. and alice lifts each with her own order: `count` trades. */
async function tradeSeveral(count: number, symbol = SYMBOL): Promise<string[]> {
  const aliceOrders: string[] = [];
  for (let i = 0; i < count; i++) {
    await ok('insert_order', bob, { ...limitOrder(BOB_MAIN, 'SIDE_SELL', '1', String(50 + i)), symbol });
    const mine = await ok('insert_order', alice, { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', String(50 + i)), symbol });
    aliceOrders.push(String(mine['order_id']));
    h.clock.advance(1000);
  }
  return aliceOrders;
}

describe('search_trades', () => {
  it('pages with page_size 2 over 5 trades, following next_page_token to the end without duplicates', async () => {
    await tradeSeveral(5);
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const body = await ok('search_trades', alice, { page_size: 2, page_token: token });
      const trades = list(body, 'trade');
      pages += 1;
      expect(trades.length).toBeLessThanOrEqual(2);
      seen.push(...trades.map((t) => String(t['id'])));
      token = String(body['next_page_token'] ?? '');
    } while (token !== '' && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const all = list(await ok('search_trades', alice, {}), 'trade').map((t) => t['id']);
    expect(seen).toEqual(all);
  });

  it('reports each trade with both executions, prices and the aggressor side', async () => {
    await tradeSeveral(1);
    const [trade] = list(await ok('search_trades', alice, {}), 'trade');
    expect(trade).toMatchObject({ id: expect.any(String), reporting_counterparty: 'SIDE_BUY' });
    expect(['TRADE_TYPE_REGULAR', undefined]).toContain(trade?.['trade_type']);
    expect(at(trade, 'aggressor', 'order', 'account')).toBe(ALICE_MAIN);
    expect(at(trade, 'aggressor', 'aggressor')).toBe(true);
    expect(at(trade, 'passive', 'order', 'account')).toBe(BOB_MAIN);
    expect(at(trade, 'aggressor', 'last_px')).toBe('50');
    expect(at(trade, 'passive', 'last_shares')).toBe('1');
    expect(at(trade, 'aggressor', 'trade_id')).toBe(trade?.['id']);
  });

  it('filters by symbol and by order_id', async () => {
    const onFirst = await tradeSeveral(2, SYMBOL);
    await tradeSeveral(1, SYMBOL2);
    expect(list(await ok('search_trades', alice, { symbol: SYMBOL }), 'trade')).toHaveLength(2);
    const second = list(await ok('search_trades', alice, { symbol: SYMBOL2 }), 'trade');
    expect(second).toHaveLength(1);
    expect(at(second[0], 'aggressor', 'order', 'symbol')).toBe(SYMBOL2);
    const byOrder = list(await ok('search_trades', alice, { order_id: onFirst[1] }), 'trade');
    expect(byOrder).toHaveLength(1);
    expect(at(byOrder[0], 'aggressor', 'order', 'id')).toBe(onFirst[1]);
    expect(list(await ok('search_trades', alice, { order_id: 'O9999999999999999' }), 'trade')).toEqual([]);
  });

  it('filters by trade_id and by a time window on the trade time', async () => {
    await tradeSeveral(3);
    const all = list(await ok('search_trades', alice, {}), 'trade');
    const middle = all[1];
    expect(list(await ok('search_trades', alice, { trade_id: middle?.['id'] }), 'trade').map((t) => t['id'])).toEqual([middle?.['id']]);
    const start = new Date(h.clock.t - 2000).toISOString();
    const end = new Date(h.clock.t - 1000).toISOString();
    const windowed = list(await ok('search_trades', alice, { start_time: start, end_time: end }), 'trade');
    expect(windowed.map((t) => t['id'])).toEqual([middle?.['id']]);
  });

  it('filters by trade_link_id: the trade of one cross carries its cross_id as its link', async () => {
    await tradeSeveral(2);
    await ok('insert_order_cross', alice, {
      cross_id: 'link-x',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '60'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '5', '60')],
    });
    expect(list(await ok('search_trades', alice, {}), 'trade')).toHaveLength(3);
    const linked = list(await ok('search_trades', alice, { trade_link_id: 'link-x' }), 'trade');
    expect(linked.map((t) => [t['trade_type'] ?? 'TRADE_TYPE_REGULAR', t['trade_link_id']])).toEqual([['TRADE_TYPE_CROSS', 'link-x']]);
    expect(list(await ok('search_trades', alice, { trade_link_id: 'other' }), 'trade')).toEqual([]);
    // bob took no part in the cross: his search by its link finds nothing
    expect(list(await ok('search_trades', bob, { trade_link_id: 'link-x' }), 'trade')).toEqual([]);
  });

  it("shows bob the same trades from his side, and nothing of alice's hedge account", async () => {
    await tradeSeveral(2);
    expect(list(await ok('search_trades', bob, {}), 'trade')).toHaveLength(2);
    expect(list(await ok('search_trades', alice, { accounts: [ALICE_HEDGE] }), 'trade')).toEqual([]);
  });

  it("refuses to search another user's account (403) and a forged page token (400)", async () => {
    await tradeSeveral(1);
    const foreign = await h.api('search_trades', alice, { accounts: [BOB_MAIN] });
    expect(foreign.status).toBe(403);
    expect(foreign.body['code']).toBe(7);
    const forged = await h.api('search_trades', alice, { page_token: 'not-a-token' });
    expect(forged.status).toBe(400);
    expect(forged.body['code']).toBe(3);
  });

  it('refuses a page_size above the maximum', async () => {
    const response = await h.api('search_trades', alice, { page_size: 1001 });
    expect(response.status).toBe(400);
    expect(response.body['code']).toBe(3);
  });
});

describe('search_orders and get_open_orders', () => {
  it('search_orders returns every order of the caller, filled and working, with filters and paging', async () => {
    const filled = await tradeSeveral(2);
    const working = await ok('insert_order', alice, {
      ...limitOrder(ALICE_HEDGE, 'SIDE_SELL', '4', '90', { clord_id: 'hedge-1' }),
      symbol: SYMBOL2,
    });
    const all = list(await ok('search_orders', alice, {}), 'order');
    expect(all.map((o) => o['id'])).toEqual([...filled, working['order_id']]);
    expect(all.map((o) => o['state'] ?? 'ORDER_STATE_NEW')).toEqual(['ORDER_STATE_FILLED', 'ORDER_STATE_FILLED', 'ORDER_STATE_NEW']);
    expect(list(await ok('search_orders', alice, { symbol: SYMBOL2 }), 'order').map((o) => o['id'])).toEqual([working['order_id']]);
    expect(list(await ok('search_orders', alice, { clord_id: 'hedge-1' }), 'order').map((o) => o['id'])).toEqual([working['order_id']]);
    expect(list(await ok('search_orders', alice, { order_id: filled[0] }), 'order').map((o) => o['id'])).toEqual([filled[0]]);
    expect(list(await ok('search_orders', alice, { states: ['ORDER_STATE_FILLED'] }), 'order')).toHaveLength(2);
    expect(list(await ok('search_orders', alice, { accounts: [ALICE_HEDGE] }), 'order')).toHaveLength(1);
    const firstPage = await ok('search_orders', alice, { page_size: 2 });
    expect(list(firstPage, 'order')).toHaveLength(2);
    const secondPage = await ok('search_orders', alice, { page_size: 2, page_token: firstPage['next_page_token'] });
    expect(list(secondPage, 'order').map((o) => o['id'])).toEqual([working['order_id']]);
    expect(secondPage['next_page_token'] ?? '').toBe('');
  });

  it('pages on through the order history and the trade tape while their oldest entries are pruned, skipping nothing', async () => {
    await h.close();
    h = await startHarness({ tweak: (c) => ({ ...c, maxOrderHistory: 4, maxTrades: 3 }) });
    alice = await h.token('alice');
    bob = await h.token('bob');
    const cancelled = async (i: number): Promise<string> => {
      const placed = await ok('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40', { clord_id: `p${i}` }));
      await ok('cancel_order', alice, { order_id: placed['order_id'], symbol: SYMBOL });
      return String(placed['order_id']);
    };
    const ids = [await cancelled(1), await cancelled(2), await cancelled(3), await cancelled(4)];
    const first = await ok('search_orders', alice, { page_size: 2 });
    expect(list(first, 'order').map((o) => o['id'])).toEqual(ids.slice(0, 2));
    await cancelled(5); // two more finished orders: the two oldest leave the history
    await cancelled(6);
    const second = await ok('search_orders', alice, { page_size: 2, page_token: first['next_page_token'] });
    expect(list(second, 'order').map((o) => o['id'])).toEqual(ids.slice(2, 4));
    // trades: the tape keeps the last 3 (trimmed in batches); a page token still points at the next trade
    const tradeIds = async (body: Json) => list(body, 'trade').map((t) => t['id']);
    await tradeSeveral(3);
    const tradesFirst = await ok('search_trades', alice, { page_size: 2 });
    const seen = await tradeIds(tradesFirst);
    const all = await tradeIds(await ok('search_trades', alice, {}));
    expect(seen).toEqual(all.slice(0, 2));
    for (let i = 0; i < 3; i++) await tradeSeveral(25); // enough for the tape to be trimmed (it keeps 3, trims past 3 + 64)
    const tradesSecond = await ok('search_trades', alice, { page_size: 100, page_token: tradesFirst['next_page_token'] });
    const after = await tradeIds(tradesSecond);
    expect(after.some((id) => seen.includes(id))).toBe(false);
    expect(after.length).toBeGreaterThan(0);
    expect((await h.api('search_trades', alice, { page_token: 'x1' })).status).toBe(400);
  });

  it("get_open_orders filters by account and symbol and never shows bob's orders", async () => {
    await ok('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '10'));
    await ok('insert_order', alice, { ...limitOrder(ALICE_HEDGE, 'SIDE_BUY', '1', '11'), symbol: SYMBOL2 });
    await ok('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_BUY', '1', '12'));
    expect(list(await ok('get_open_orders', alice, {}), 'orders')).toHaveLength(2);
    expect(list(await ok('get_open_orders', alice, { accounts: [ALICE_HEDGE] }), 'orders').map((o) => o['price'])).toEqual(['11']);
    expect(list(await ok('get_open_orders', alice, { symbols: [SYMBOL] }), 'orders').map((o) => o['price'])).toEqual(['10']);
    expect((await h.api('get_open_orders', alice, { accounts: [BOB_MAIN] })).status).toBe(403);
  });
});

describe('positions and balances', () => {
  it('list_account_positions reports net_position and avg_entry_px after fills at two prices', async () => {
    await ok('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '10', '40'));
    await ok('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '10', '50'));
    await ok('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '20', '50'));
    const body = await ok('list_account_positions', alice, { name: ALICE_MAIN });
    const [position] = list(body, 'positions');
    expect(position).toMatchObject({ account: ALICE_MAIN, symbol: SYMBOL, net_position: '20', avg_entry_px: '45', cost_basis: '9' });
    expect(list(body, 'available_position')).toEqual([{ account: ALICE_MAIN, symbol: SYMBOL, qty: '20' }]);
    const [bobs] = list(await ok('list_account_positions', bob, { name: BOB_MAIN }), 'positions');
    expect(bobs).toMatchObject({ net_position: '-20', avg_entry_px: '45' });
  });

  it('reports realized PnL after a round trip and a flat position', async () => {
    await ok('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '10', '40'));
    await ok('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '10', '40'));
    await ok('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_BUY', '10', '55'));
    await ok('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_SELL', '10', '55'));
    const [position] = list(await ok('list_account_positions', alice, { name: ALICE_MAIN }), 'positions');
    expect(position?.['realized_pnl']).toBe('1.5');
    expect(position?.['net_position'] ?? '0').toBe('0');
    expect(list(await ok('list_account_positions', alice, { name: ALICE_MAIN }), 'available_position')).toEqual([]);
  });

  it('filters positions by symbol and refuses a foreign account', async () => {
    await tradeSeveral(1, SYMBOL);
    await tradeSeveral(1, SYMBOL2);
    expect(list(await ok('list_account_positions', alice, { name: ALICE_MAIN }), 'positions')).toHaveLength(2);
    expect(
      list(await ok('list_account_positions', alice, { name: ALICE_MAIN, symbol: SYMBOL2 }), 'positions').map((p) => p['symbol']),
    ).toEqual([SYMBOL2]);
    const foreign = await h.api('list_account_positions', alice, { name: BOB_MAIN });
    expect(foreign.status).toBe(403);
    expect((await h.api('list_account_positions', alice, {})).status).toBe(400);
  });

  it('get_account_balance starts at the starting balance and decreases by the notional of a buy', async () => {
    const before = await ok('get_account_balance', alice, { name: ALICE_MAIN, currency: 'USD' });
    expect(before).toMatchObject({ account: ALICE_MAIN, currency: 'USD', balance: '100000', buying_power: '100000' });
    await ok('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '10', '42'));
    await ok('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '10', '42'));
    const after = await ok('get_account_balance', alice, { name: ALICE_MAIN });
    expect(after['balance']).toBe('99995.8');
    const seller = await ok('get_account_balance', bob, { name: BOB_MAIN });
    expect(seller['balance']).toBe('100004.2');
    expect(after['update_time']).toBe(new Date(h.clock.t).toISOString());
  });

  it('holds a working buy order out of buying power but not out of the balance', async () => {
    await ok('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '10', '30'));
    const balance = await ok('get_account_balance', alice, { name: ALICE_MAIN });
    expect(balance).toMatchObject({ balance: '100000', open_orders: '3', buying_power: '99997' });
  });

  it('refuses a foreign account (403) and an unknown currency (400)', async () => {
    expect((await h.api('get_account_balance', alice, { name: BOB_MAIN })).status).toBe(403);
    const currency = await h.api('get_account_balance', alice, { name: ALICE_MAIN, currency: 'EUR' });
    expect(currency.status).toBe(400);
    expect(currency.body['code']).toBe(3);
  });
});

describe('get_who_am_i', () => {
  it('names the caller, firm, user and accounts', async () => {
    expect(await ok('get_who_am_i', alice)).toEqual({
      participant_id: 'firms/demo/users/alice',
      firm_id: 'demo',
      user_id: 'alice',
      username: 'alice',
      accounts: [ALICE_MAIN, ALICE_HEDGE],
    });
    expect(await ok('get_who_am_i', bob)).toMatchObject({ username: 'bob', accounts: [BOB_MAIN] });
  });
});
