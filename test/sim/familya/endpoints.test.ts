// Every /v1 endpoint's happy path on the wire (camelCase bodies, scaled integer prices), plus the limits
// the spec states: order book depth (default 3, max 10), list calls (max 20), instrument pages (max 1000).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALICE,
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB,
  BOB_MAIN,
  CLIENT,
  SYMBOL,
  SYMBOL2,
  T0,
  at,
  startFamilyA,
  type FamilyAHarness,
  type Json,
} from './helpers/harness.ts';

let h: FamilyAHarness;
let token: string;
let restingBuy: string;

const limit = (side: 'SIDE_BUY' | 'SIDE_SELL', qty: number, price: number, account: string, extra: Json = {}) => ({
  symbol: SYMBOL,
  side,
  type: 'ORDER_TYPE_LIMIT',
  timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  orderQty: String(qty),
  price: String(price),
  account,
  ...extra,
});

async function insert(participant: string, body: Json): Promise<string> {
  const response = await h.call('POST', '/v1/trading/orders', { token, participant, body });
  expect(response.status, response.text).toBe(200);
  expect(Object.keys(response.body)).toEqual(['orderId']);
  return String(response.body['orderId']);
}

beforeAll(async () => {
  h = await startFamilyA();
  token = await h.token(CLIENT);
  // A book with depth and one trade: alice bids 5 @ 0.40 and 0.39..0.30; bob sells 3 @ 0.40.
  restingBuy = await insert(ALICE, limit('SIDE_BUY', 5, 40, ALICE_MAIN, { clordId: 'alice-1' }));
  for (let px = 39; px >= 30; px--) await insert(ALICE, limit('SIDE_BUY', 1, px, ALICE_HEDGE));
  await insert(ALICE, limit('SIDE_SELL', 2, 60, ALICE_MAIN));
  h.clock.advance(1_000);
  await insert(BOB, limit('SIDE_SELL', 3, 40, BOB_MAIN));
});
afterAll(async () => {
  await h.close();
});

describe('market data', () => {
  it('GET /v1/orderbook/{symbol} has 3 levels by default, with state and stats', async () => {
    const response = await h.call('GET', `/v1/orderbook/${SYMBOL}`, { token });
    expect(response.status).toBe(200);
    expect(response.body['symbol']).toBe(SYMBOL);
    expect(response.body['bids']).toEqual([
      { px: '40', qty: '2' },
      { px: '39', qty: '1' },
      { px: '38', qty: '1' },
    ]);
    expect(response.body['offers']).toEqual([{ px: '60', qty: '2' }]);
    expect(response.body['state']).toBe('INSTRUMENT_STATE_OPEN');
    expect(at(response.body, 'stats.lastTradePx')).toBe('40');
    expect(at(response.body, 'stats.sharesTraded')).toBe('3');
  });

  it('depth 10 gives 10 levels; depth 11 is 400', async () => {
    const ten = await h.call('GET', `/v1/orderbook/${SYMBOL}?depth=10`, { token });
    expect((ten.body['bids'] as unknown[]).length).toBe(10);
    const eleven = await h.call('GET', `/v1/orderbook/${SYMBOL}?depth=11`, { token });
    expect(eleven.status).toBe(400);
    expect(at(eleven.body, 'error.code')).toBe('INVALID_ARGUMENT');
    expect((await h.call('GET', `/v1/orderbook/${SYMBOL}?depth=-1`, { token })).status).toBe(400);
  });

  it('an unknown symbol is 404', async () => {
    expect((await h.call('GET', '/v1/orderbook/NOPE', { token })).status).toBe(404);
  });

  it('GET /v1/orderbook/{symbol}/bbo', async () => {
    const response = await h.call('GET', `/v1/orderbook/${SYMBOL}/bbo`, { token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      symbol: SYMBOL,
      bid: { px: '40', qty: '2' },
      offer: { px: '60', qty: '2' },
      state: 'INSTRUMENT_STATE_OPEN',
    });
    const empty = await h.call('GET', `/v1/orderbook/${SYMBOL2}/bbo`, { token });
    expect(empty.body['bid']).toBeUndefined();
  });
});

describe('reports', () => {
  it('POST /v1/report/trades/search finds the trade and pages', async () => {
    const response = await h.call('POST', '/v1/report/trades/search', { token, body: { symbol: SYMBOL } });
    expect(response.status).toBe(200);
    const trades = response.body['trade'] as Json[];
    expect(trades).toHaveLength(1);
    expect(at(trades[0], 'aggressor.order.account')).toBe(BOB_MAIN);
    expect(at(trades[0], 'passive.order.id')).toBe(restingBuy);
    expect(at(trades[0], 'aggressor.lastPx')).toBe('40');
    expect(response.body['nextPageToken'] ?? '').toBe('');
    const onlyBob = await h.call('POST', '/v1/report/trades/search', {
      token,
      participant: BOB,
      body: { accounts: [BOB_MAIN], pageSize: 1 },
    });
    expect(onlyBob.body['trade'] as Json[]).toHaveLength(1);
    const undefinedState = await h.call('POST', '/v1/report/trades/search', { token, body: { states: ['TRADE_STATE_UNDEFINED'] } });
    expect(undefinedState.status).toBe(400);
  });

  it('POST /v1/report/trades/stats with bars', async () => {
    const start = new Date(T0).toISOString();
    const end = new Date(T0 + 4_000).toISOString();
    const response = await h.call('POST', '/v1/report/trades/stats', {
      token,
      body: { symbol: SYMBOL, startTime: start, endTime: end, bars: 2 },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body['stats']).toMatchObject({
      first: '40',
      last: '40',
      high: '40',
      low: '40',
      totalTradeCount: '1',
      volume: '3',
      notional: '120',
    });
    expect(response.body['bars'] as unknown[]).toHaveLength(2);
    expect(at(response.body, 'bars.0.totalTradeCount')).toBe('1');
    expect(at(response.body, 'bars.1.totalTradeCount')).toBeUndefined();
    expect(response.body['barStartTime']).toEqual([start, new Date(T0 + 2_000).toISOString()]);
    expect(response.body['barEndTime']).toEqual([new Date(T0 + 2_000).toISOString(), end]);
  });

  it('POST /v1/report/orders/search pages', async () => {
    const first = await h.call('POST', '/v1/report/orders/search', { token, body: { accounts: [ALICE_MAIN], pageSize: 1 } });
    expect(first.status).toBe(200);
    expect(first.body['order'] as unknown[]).toHaveLength(1);
    const next = first.body['nextPageToken'];
    expect(typeof next === 'string' && next !== '').toBe(true);
    const second = await h.call('POST', '/v1/report/orders/search', {
      token,
      body: { accounts: [ALICE_MAIN], pageSize: 1, pageToken: next },
    });
    expect(second.body['order'] as unknown[]).toHaveLength(1);
    expect(at(second.body, 'order.0.id')).not.toBe(at(first.body, 'order.0.id'));
    const byClord = await h.call('POST', '/v1/report/orders/search', { token, body: { clordId: 'alice-1' } });
    expect(at(byClord.body, 'order.0.id')).toBe(restingBuy);
    expect(at(byClord.body, 'order.0.state')).toBe('ORDER_STATE_PARTIALLY_FILLED');
  });
});

describe('trading', () => {
  it('POST /v1/trading/orders/preview answers the order without touching the book', async () => {
    const response = await h.call('POST', '/v1/trading/orders/preview', {
      token,
      participant: ALICE,
      body: { request: limit('SIDE_BUY', 7, 20, ALICE_MAIN) },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body['previewOrder']).toMatchObject({ symbol: SYMBOL, orderQty: '7', price: '20', account: ALICE_MAIN });
    // ORDER_STATE_NEW is the enum's zero value: omitted on the wire
    expect(at(response.body, 'previewOrder.state')).toBeUndefined();
    const book = await h.call('GET', `/v1/orderbook/${SYMBOL}?depth=10`, { token });
    expect((book.body['bids'] as Json[]).some((l) => l['px'] === '20')).toBe(false);
  });

  it('POST /v1/trading/orders/preview checks the order as an insert would: outside the price limits is a 400', async () => {
    const response = await h.call('POST', '/v1/trading/orders/preview', {
      token,
      participant: ALICE,
      body: { request: limit('SIDE_BUY', 7, 150, ALICE_MAIN) },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.text).toMatch(/PRICE_OUT_OF_BOUNDS|price/i);
    const insert = await h.call('POST', '/v1/trading/orders', { token, participant: ALICE, body: limit('SIDE_BUY', 7, 150, ALICE_MAIN) });
    expect(insert.status).toBe(400);
    expect(response.body['code']).toBe(insert.body['code']);
  });

  it('GET /v1/trading/open-orders, replace, cancel', async () => {
    const id = await insert(ALICE, limit('SIDE_BUY', 2, 21, ALICE_MAIN));
    const open = await h.call('GET', `/v1/trading/open-orders?accounts=${encodeURIComponent(ALICE_MAIN)}&symbols=${SYMBOL}`, {
      token,
      participant: ALICE,
    });
    expect(open.status).toBe(200);
    expect((open.body['orders'] as Json[]).map((o) => o['id'])).toContain(id);

    const replaced = await h.call('POST', '/v1/trading/orders/replace', {
      token,
      participant: ALICE,
      body: { orderId: id, symbol: SYMBOL, price: '22', orderQty: '3' },
    });
    expect(replaced.status, replaced.text).toBe(200);
    const newId = String(replaced.body['orderId']);
    const after = await h.call('GET', '/v1/trading/open-orders', { token, participant: ALICE });
    expect((after.body['orders'] as Json[]).find((o) => o['id'] === newId)).toMatchObject({ price: '22', orderQty: '3' });

    const cancel = await h.call('POST', '/v1/trading/orders/cancel', {
      token,
      participant: ALICE,
      body: { orderId: newId, symbol: SYMBOL },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body).toEqual({});
    const gone = await h.call('GET', '/v1/trading/open-orders', { token, participant: ALICE });
    expect((gone.body['orders'] as Json[]).map((o) => o['id'])).not.toContain(newId);
  });

  it('replace/list and cancel/list (max 20 per call)', async () => {
    const a = await insert(ALICE, limit('SIDE_BUY', 1, 11, ALICE_MAIN));
    const b = await insert(ALICE, limit('SIDE_BUY', 1, 12, ALICE_MAIN));
    const replaced = await h.call('POST', '/v1/trading/orders/replace/list', {
      token,
      participant: ALICE,
      body: {
        requests: [
          { orderId: a, price: '13' },
          { orderId: b, price: '14' },
        ],
      },
    });
    expect(replaced.status, replaced.text).toBe(200);
    const ids = (replaced.body['responses'] as Json[]).map((r) => String(r['orderId']));
    expect(ids).toHaveLength(2);
    const cancelled = await h.call('POST', '/v1/trading/orders/cancel/list', {
      token,
      participant: ALICE,
      body: { requests: ids.map((orderId) => ({ orderId, symbol: SYMBOL })) },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    const open = await h.call('GET', '/v1/trading/open-orders', { token, participant: ALICE });
    expect((open.body['orders'] as Json[]).filter((o) => ids.includes(String(o['id'])))).toEqual([]);
    const tooMany = await h.call('POST', '/v1/trading/orders/cancel/list', {
      token,
      participant: ALICE,
      body: { requests: Array.from({ length: 21 }, () => ({ orderId: a })) },
    });
    expect(tooMany.status).toBe(400);
  });

  it('an order rejected by the market is 400 FAILED_PRECONDITION with ORDER_REJECTED', async () => {
    const response = await h.call('POST', '/v1/trading/orders', {
      token,
      participant: ALICE,
      body: { ...limit('SIDE_BUY', 1, 50, ALICE_MAIN), type: 'ORDER_TYPE_MARKET_TO_LIMIT', price: undefined, symbol: SYMBOL2 },
    });
    expect(response.status).toBe(400);
    expect(at(response.body, 'error.code')).toBe('FAILED_PRECONDITION');
    expect(at(response.body, 'error.details.0.reason')).toBe('ORDER_REJECTED');
  });

  it('an off-tick price is 400 INVALID_ARGUMENT', async () => {
    const response = await h.call('POST', '/v1/trading/orders', { token, participant: ALICE, body: limit('SIDE_BUY', 1, 100, ALICE_MAIN) });
    expect(response.status).toBe(400);
  });
});

describe('positions and balances', () => {
  it('GET /v1/positions shows the fill on both sides', async () => {
    const response = await h.call('GET', '/v1/positions', { token });
    expect(response.status).toBe(200);
    const positions = response.body['positions'] as Json[];
    expect(positions.find((p) => p['account'] === ALICE_MAIN)).toMatchObject({ symbol: SYMBOL, netPosition: '3' });
    expect(positions.find((p) => p['account'] === BOB_MAIN)).toMatchObject({ symbol: SYMBOL, netPosition: '-3' });
    const bobOnly = await h.call('GET', `/v1/positions?account=${encodeURIComponent(BOB_MAIN)}`, { token, participant: BOB });
    expect((bobOnly.body['positions'] as Json[]).map((p) => p['account'])).toEqual([BOB_MAIN]);
  });

  it('POST /v1/positions/balance and /balances', async () => {
    const one = await h.call('POST', '/v1/positions/balance', { token, body: { name: BOB_MAIN, currency: 'USD' } });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ account: BOB_MAIN, currency: 'USD', balance: '100001.2' });
    const many = await h.call('POST', '/v1/positions/balances', { token, body: { accounts: [ALICE_MAIN, BOB_MAIN] } });
    expect((many.body['balances'] as Json[]).map((b) => b['account'])).toEqual([ALICE_MAIN, BOB_MAIN]);
  });
});

describe('reference data', () => {
  it('POST /v1/refdata/symbols', async () => {
    const response = await h.call('POST', '/v1/refdata/symbols', { token, body: {} });
    expect(response.body).toEqual({ symbols: [SYMBOL, SYMBOL2] });
  });

  it('POST /v1/refdata/instruments pages and filters; pageSize above 1000 is 400', async () => {
    const page1 = await h.call('POST', '/v1/refdata/instruments', { token, body: { pageSize: 1 } });
    expect(page1.status).toBe(200);
    expect(page1.body['instruments']).toEqual([
      expect.objectContaining({ symbol: SYMBOL, priceScale: '100', tickSize: '0.01', lowPriceLimit: '1', highPriceLimit: '99' }),
    ]);
    expect(page1.body['nextPageToken']).toBe('1');
    const page2 = await h.call('POST', '/v1/refdata/instruments', { token, body: { pageSize: 1, pageToken: '1' } });
    expect(at(page2.body, 'instruments.0.symbol')).toBe(SYMBOL2);
    const filtered = await h.call('POST', '/v1/refdata/instruments', { token, body: { symbols: [SYMBOL2] } });
    expect((filtered.body['instruments'] as Json[]).map((i) => i['symbol'])).toEqual([SYMBOL2]);
    expect((await h.call('POST', '/v1/refdata/instruments', { token, body: { pageSize: 1001 } })).status).toBe(400);
    expect((await h.call('POST', '/v1/refdata/instruments', { token, body: { symbols: ['NOPE'] } })).status).toBe(400);
  });

  it('POST /v1/refdata/metadata', async () => {
    const response = await h.call('POST', '/v1/refdata/metadata', { token, body: { symbols: [SYMBOL] } });
    expect(response.body).toEqual({
      metadata: [
        {
          symbol: SYMBOL,
          description: 'Will it rain?',
          eventId: 'WEATHER',
          eventDescription: 'Will it rain?',
          currency: 'USD',
          state: 'INSTRUMENT_STATE_OPEN',
        },
      ],
    });
  });
});

describe('accounts, users, funding', () => {
  it('GET /v1/accounts/whoami and /v1/whoami', async () => {
    for (const path of ['/v1/accounts/whoami', '/v1/whoami']) {
      const response = await h.call('GET', path, { token });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        participantId: ALICE,
        firmId: 'demo',
        userId: 'alice',
        username: 'alice',
        accounts: [ALICE_MAIN, ALICE_HEDGE],
      });
      expect(response.body['scopes']).toContain('write:orders');
    }
    const asBob = await h.call('GET', '/v1/whoami', { token, participant: BOB });
    expect(asBob.body).toMatchObject({ participantId: BOB, accounts: [BOB_MAIN] });
  });

  it('POST /v1/users creates a user of the firm; GET /v1/users lists it', async () => {
    const created = await h.call('POST', '/v1/users', {
      token,
      body: { username: 'dave', externalId: 'ext-dave', email: 'dave@example.com', firstName: 'Dave', lastName: 'D' },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ id: 'firms/demo/users/dave', externalId: 'ext-dave', username: 'dave', kycStatus: 'NOT_STARTED' });
    const list = await h.call('GET', '/v1/users', { token });
    expect((list.body['users'] as Json[]).map((u) => u['username'])).toEqual(['alice', 'bob', 'dave']);
    const again = await h.call('POST', '/v1/users', { token, body: { username: 'dave' } });
    expect(again.status).toBe(409);
    expect((await h.call('POST', '/v1/users', { token, body: {} })).status).toBe(400);
  });

  it('GET /v1/funding/accounts', async () => {
    const response = await h.call('GET', `/v1/funding/accounts?account=${encodeURIComponent(ALICE_MAIN)}`, { token });
    expect(response.status).toBe(200);
    expect(response.body['fundingAccounts']).toEqual([
      expect.objectContaining({ account: ALICE_MAIN, type: 'BANK', status: 'ACTIVE', currency: 'USD' }),
    ]);
  });

  it('POST /v1/aeropay/deposits and /v1/checkout/deposits credit the balance', async () => {
    const before = await h.call('POST', '/v1/positions/balance', { token, body: { name: ALICE_HEDGE } });
    const start = Number(before.body['balance']);
    const aeropay = await h.call('POST', '/v1/aeropay/deposits', { token, body: { account: ALICE_HEDGE, amount: '250.50' } });
    expect(aeropay.status, aeropay.text).toBe(200);
    expect(aeropay.body['deposit']).toMatchObject({
      provider: 'aeropay',
      account: ALICE_HEDGE,
      amount: '250.50',
      currency: 'USD',
      status: 'COMPLETED',
    });
    const checkout = await h.call('POST', '/v1/checkout/deposits', { token, body: { account: ALICE_HEDGE, amount: '100' } });
    expect(checkout.status).toBe(200);
    const after = await h.call('POST', '/v1/positions/balance', { token, body: { name: ALICE_HEDGE } });
    expect(Number(after.body['balance'])).toBeCloseTo(start + 350.5, 6);
    expect((await h.call('POST', '/v1/checkout/deposits', { token, body: { account: ALICE_HEDGE, amount: '-5' } })).status).toBe(400);
    expect((await h.call('POST', '/v1/checkout/deposits', { token, body: { account: ALICE_HEDGE, amount: '1.001' } })).status).toBe(400);
  });
});

describe('kyc (start and status; the flow is in test/sim/kyc)', () => {
  it('POST /v1/kyc/verify then GET /v1/kyc/status', async () => {
    const started = await h.call('POST', '/v1/kyc/verify', { token, body: { externalId: 'ext-erin', firstName: 'Erin' } });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ externalId: 'ext-erin', status: 'NOT_STARTED', decision: '', participantId: '', account: '' });
    const status = await h.call('GET', '/v1/kyc/status?externalId=ext-erin', { token });
    expect(status.body).toMatchObject({ externalId: 'ext-erin', status: 'NOT_STARTED' });
    expect((await h.call('GET', '/v1/kyc/status?externalId=nobody', { token })).status).toBe(404);
  });

  it('POST /v1/kyc/webhook refuses a plain HTTP URL', async () => {
    const response = await h.call('POST', '/v1/kyc/webhook', { token, body: { webhookUrl: 'http://127.0.0.1:9/hook' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ validated: false, message: 'the webhook URL must use HTTPS, not http' });
  });
});
