// FamilyAClient's wire behaviour against a fake exchange: headers (Bearer everywhere but health,
// x-participant-id on trading calls only), Decimal prices through the instrument scales, on-demand
// instrument loading, clord_id reuse on retried inserts, one retry after a 401, typed errors, paging.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/index.ts';
import { TransportErrorCode } from '../../../src/exchange/transport/index.ts';
import { FamilyAErrorCode, MapInstrumentCatalog } from '../../../src/exchange/familya/index.ts';
import type { FamilyAStack } from '../../../src/exchange/familya/index.ts';
import { startFakeExchange } from './helpers/fake-exchange.ts';
import type { FakeExchange } from './helpers/fake-exchange.ts';
import { makeKeys, testClock } from './helpers/keys.ts';
import { PARTICIPANT, exchangeConfig, knownCatalog, makeClient } from './helpers/client.ts';

const CLIENT = 'client-abc';
const keys = makeKeys();
const clock = testClock();
let fake: FakeExchange;
let stack: FamilyAStack;

const d = (text: string) => new Decimal(text);
const instrumentWire = (symbol: string) => ({
  symbol,
  priceScale: '100',
  fractionalQtyScale: '1',
  tickSize: '0.01',
  lowPriceLimit: '1',
  highPriceLimit: '99',
  state: 'INSTRUMENT_STATE_OPEN',
});

beforeAll(async () => {
  fake = await startFakeExchange({ clientId: CLIENT, publicKey: keys.publicKey, now: () => clock.now() });
});
afterAll(() => fake.close());
afterEach(async () => {
  await stack?.client.close();
  fake.apiRequests.length = 0;
});

function client(catalog: MapInstrumentCatalog | undefined = knownCatalog()) {
  stack = makeClient(exchangeConfig(fake.apiUrl, fake.authUrl, CLIENT, keys.privateKeyFile), {
    now: () => clock.now(),
    ...(catalog === undefined ? {} : { catalog }),
  });
  return stack.client;
}

const last = () => fake.apiRequests[fake.apiRequests.length - 1];

describe('headers', () => {
  it('calls health without a token', async () => {
    fake.route('GET', '/v1/health', () => ({ body: { status: 'SERVING' } }));
    expect(await client().health()).toEqual({ status: 'SERVING' });
    expect(last()?.headers.authorization).toBeUndefined();
    expect(fake.tokenRequests.length).toBe(0);
  });

  it('sends Bearer on market data but no participant header', async () => {
    fake.route('GET', '/v1/orderbook/EVT-A', () => ({
      body: { symbol: 'EVT-A', bids: [{ px: '42', qty: '10' }], offers: [{ px: '44', qty: '5' }], state: 'INSTRUMENT_STATE_OPEN' },
    }));
    const book = await client().orderbook('EVT-A', 5);
    expect(book.bids[0]?.px.toString()).toBe('0.42');
    expect(book.offers[0]?.qty.toString()).toBe('5');
    expect(book.state).toBe('INSTRUMENT_STATE_OPEN');
    expect(last()?.query.get('depth')).toBe('5');
    expect(last()?.headers.authorization).toMatch(/^Bearer eyJ/);
    expect(last()?.headers['x-participant-id']).toBeUndefined();
  });

  it('sends the participant on trading calls, with the order priced through the scales and a generated clord_id', async () => {
    fake.route('POST', '/v1/trading/orders', () => ({ body: { orderId: 'ord-1' } }));
    const result = await client().insertOrder({
      symbol: 'EVT-B',
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('1.5'),
      price: d('0.4251'),
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    expect(result.orderId).toBe('ord-1');
    expect(result.clordId).toMatch(/^[0-9a-f-]{36}$/);
    expect(last()?.headers['x-participant-id']).toBe(PARTICIPANT);
    expect(last()?.body).toEqual({
      clordId: result.clordId,
      symbol: 'EVT-B',
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      orderQty: '150',
      price: '4251',
    });
  });

  it('refuses a price finer than the instrument allows before sending', async () => {
    fake.route('POST', '/v1/trading/orders', () => ({ body: { orderId: 'ord-1' } }));
    await expect(
      client().insertOrder({ symbol: 'EVT-A', side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty: d('1'), price: d('0.425') }),
    ).rejects.toMatchObject({
      code: 'SCALE_NOT_REPRESENTABLE',
    });
    expect(fake.apiRequests).toHaveLength(0);
  });
});

describe('instrument scales', () => {
  it('loads an unknown symbol from reference data once, then prices with it', async () => {
    fake.route('POST', '/v1/refdata/instruments', (req) => ({
      body: { instruments: ((req.body as { symbols?: string[] }).symbols ?? []).filter((s) => s === 'EVT-C').map(instrumentWire) },
    }));
    fake.route('GET', '/v1/orderbook/EVT-C/bbo', () => ({ body: { symbol: 'EVT-C', bid: { px: '37', qty: '2' } } }));
    const catalog = new MapInstrumentCatalog();
    const c = client(catalog);
    const [a, b] = await Promise.all([c.bbo('EVT-C'), c.bbo('EVT-C')]);
    expect(a.bid?.px.toString()).toBe('0.37');
    expect(b.offer).toBeUndefined();
    const refdataCalls = fake.apiRequests.filter((r) => r.path === '/v1/refdata/instruments');
    expect(refdataCalls).toHaveLength(1);
    expect(refdataCalls[0]?.body).toEqual({ symbols: ['EVT-C'], pageSize: 1000 });
    expect(refdataCalls[0]?.headers['x-participant-id']).toBeUndefined();
    expect(catalog.scalesOf('EVT-C')?.priceScale).toBe(100);
  });

  it('reports a symbol the exchange does not list', async () => {
    fake.route('POST', '/v1/refdata/instruments', () => ({ body: { instruments: [] } }));
    fake.route('GET', '/v1/orderbook/NOPE', () => ({ body: { symbol: 'NOPE', bids: [{ px: '1', qty: '1' }] } }));
    await expect(client(new MapInstrumentCatalog()).orderbook('NOPE')).rejects.toMatchObject({
      code: FamilyAErrorCode.BadResponse,
      message: expect.stringContaining('NOPE'),
    });
  });

  it('refuses an order for a symbol the exchange refuses to list, before sending it', async () => {
    fake.route('POST', '/v1/refdata/instruments', () => ({
      status: 400,
      body: { error: { code: 'INVALID_ARGUMENT', message: 'unknown symbol ZZZ' } },
    }));
    fake.route('POST', '/v1/trading/orders', () => ({ body: { orderId: 'never' } }));
    const c = client(new MapInstrumentCatalog());
    await expect(
      c.insertOrder({ symbol: 'ZZZ', side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty: d('1'), price: d('0.5') }),
    ).rejects.toMatchObject({
      code: 'SCALE_UNKNOWN_SYMBOL',
      message: expect.stringContaining('ZZZ'),
    });
    expect(fake.apiRequests.filter((r) => r.path === '/v1/trading/orders')).toHaveLength(0);
  });

  it('propagates a connectivity failure of the instrument lookup', async () => {
    fake.route('POST', '/v1/refdata/instruments', () => ({ status: 503, body: 'down' }));
    await expect(client(new MapInstrumentCatalog()).bbo('EVT-Q')).rejects.toMatchObject({ code: TransportErrorCode.ServerError });
  });

  it('fills the catalog from refdataInstruments pages and refuses a page size above 1000', async () => {
    fake.route('POST', '/v1/refdata/instruments', (req) => {
      const token = (req.body as { pageToken?: string }).pageToken ?? '';
      return {
        body: token === '' ? { instruments: [instrumentWire('X1')], nextPageToken: 'p2' } : { instruments: [instrumentWire('X2')] },
      };
    });
    const catalog = new MapInstrumentCatalog();
    const c = client(catalog);
    const all = await c.loadInstruments();
    expect(all.map((i) => i.symbol)).toEqual(['X1', 'X2']);
    expect([catalog.scalesOf('X1')?.priceScale, catalog.scalesOf('X2')?.priceScale]).toEqual([100, 100]);
    await expect(c.refdataInstruments({ pageSize: 1001 })).rejects.toMatchObject({ code: FamilyAErrorCode.LimitExceeded });
  });
});

describe('retries and authentication', () => {
  it('repeats an insert after a 503 with the same clord_id', async () => {
    let calls = 0;
    fake.route('POST', '/v1/trading/orders', () => (++calls === 1 ? { status: 503, body: 'busy' } : { body: { orderId: 'ord-9' } }));
    const result = await client().insertOrder({
      symbol: 'EVT-A',
      side: 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('2'),
      price: d('0.55'),
      clordId: 'my-clord',
    });
    expect(result).toEqual({ orderId: 'ord-9', clordId: 'my-clord' });
    const inserts = fake.apiRequests.filter((r) => r.path === '/v1/trading/orders');
    expect(inserts.map((r) => (r.body as { clordId: string }).clordId)).toEqual(['my-clord', 'my-clord']);
  });

  it('never repeats a non-idempotent call (createUser) after a 503', async () => {
    fake.route('POST', '/v1/users', () => ({ status: 503, body: 'busy' }));
    await expect(client().createUser({ username: 'e-1' })).rejects.toMatchObject({ code: TransportErrorCode.ServerError, retryable: true });
    expect(fake.apiRequests.filter((r) => r.path === '/v1/users')).toHaveLength(1);
  });

  it('gets a fresh token and retries once after a 401', async () => {
    fake.route('GET', '/v1/accounts/whoami', () => ({ body: { participantId: PARTICIPANT, scopes: ['read:accounts'] } }));
    const c = client();
    await c.whoAmI();
    const exchangesBefore = stack.tokens.exchanges;
    fake.expireTokens();
    expect((await c.whoAmI()).participantId).toBe(PARTICIPANT);
    expect(stack.tokens.exchanges).toBe(exchangesBefore + 1);
    const whoami = fake.apiRequests.filter((r) => r.path === '/v1/accounts/whoami');
    expect(whoami).toHaveLength(3);
    expect(whoami[1]?.headers.authorization).not.toBe(whoami[2]?.headers.authorization);
  });

  it('fails with FAMILY_A_AUTH_FAILED when a fresh token is refused too', async () => {
    fake.route('GET', '/v1/accounts/whoami', () => ({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'no' } } }));
    await expect(client().whoAmI()).rejects.toMatchObject({ code: FamilyAErrorCode.AuthFailed, kind: 'authentication' });
    expect(fake.apiRequests.filter((r) => r.path === '/v1/accounts/whoami')).toHaveLength(2);
  });
});

describe('errors', () => {
  it('maps 403 to FAMILY_A_PERMISSION_DENIED naming the scope', async () => {
    fake.route('GET', '/v1/trading/open-orders', () => ({
      status: 403,
      body: { error: { code: 'PERMISSION_DENIED', status: 403, message: 'needs read:orders', details: [{ reason: 'SCOPE_MISSING' }] } },
    }));
    const error = await client()
      .openOrders()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: FamilyAErrorCode.PermissionDenied,
      kind: 'permission',
      httpStatus: 403,
      exchange: { reason: 'SCOPE_MISSING' },
    });
    expect((error as Error).message).toContain('read:orders');
  });

  it('maps a 400 with the JSON error shape to FAMILY_A_REJECTED with the exchange code and message', async () => {
    fake.route('POST', '/v1/trading/orders/cancel', () => ({
      status: 400,
      body: { error: { code: 'FAILED_PRECONDITION', status: 400, message: 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL: filled', details: [] } },
    }));
    const error = await client()
      .cancelOrder({ orderId: 'o-1', symbol: 'EVT-A' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: FamilyAErrorCode.Rejected,
      kind: 'rejection',
      retryable: false,
      exchange: { code: 'FAILED_PRECONDITION', message: 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL: filled' },
    });
  });

  it('keeps a plain-text error body as the message', async () => {
    fake.route('POST', '/v1/trading/orders/cancel', () => ({ status: 404, body: 'no such order' }));
    await expect(client().cancelOrder({ orderId: 'o-1', symbol: 'EVT-A' })).rejects.toMatchObject({
      code: FamilyAErrorCode.Rejected,
      exchange: { message: 'no such order' },
    });
  });

  it('reports a 2xx body of the wrong shape as FAMILY_A_BAD_RESPONSE naming the field', async () => {
    fake.route('GET', '/v1/accounts/whoami', () => ({ body: { participantId: 42 } }));
    await expect(client().whoAmI()).rejects.toMatchObject({
      code: FamilyAErrorCode.BadResponse,
      message: expect.stringContaining('participantId'),
    });
  });

  it('refuses bad requests before sending', async () => {
    const c = client();
    await expect(c.orderbook('EVT-A', 11)).rejects.toMatchObject({ code: FamilyAErrorCode.InvalidRequest });
    const cancels = Array.from({ length: 21 }, (_, i) => ({ orderId: `o-${i}`, symbol: 'EVT-A' }));
    await expect(c.cancelOrderList(cancels)).rejects.toMatchObject({ code: FamilyAErrorCode.LimitExceeded });
    await expect(c.replaceOrderList([])).rejects.toMatchObject({ code: FamilyAErrorCode.InvalidRequest });
    await expect(c.registerKycWebhook('http://example.com/hook')).rejects.toMatchObject({ code: FamilyAErrorCode.InvalidRequest });
    expect(fake.apiRequests).toHaveLength(0);
  });

  it('rejects a webhook the exchange did not validate', async () => {
    fake.route('POST', '/v1/kyc/webhook', () => ({ body: { validated: false, message: 'answered 500' } }));
    await expect(client().registerKycWebhook('https://hooks.example.com/kyc')).rejects.toMatchObject({
      code: FamilyAErrorCode.Rejected,
      message: expect.stringContaining('answered 500'),
    });
  });
});

describe('paging', () => {
  it('walks every page of a trade search', async () => {
    fake.route('POST', '/v1/report/trades/search', (req) => {
      const token = (req.body as { pageToken?: string }).pageToken ?? '';
      const next: Record<string, string> = { '': 'p2', p2: 'p3', p3: '' };
      const leg = (id: string) => ({ id, lastPx: '42', lastShares: '1', order: { symbol: 'EVT-A', price: '42' } });
      const trade = { id: `t-${token || 'p1'}`, state: 'TRADE_STATE_NEW', aggressor: leg('e-1'), passive: leg('e-2') };
      return { body: { trade: [trade], nextPageToken: next[token] } };
    });
    const ids: string[] = [];
    for await (const trade of client().allTrades({ symbol: 'EVT-A', pageSize: 1 })) {
      ids.push(trade.id);
      expect(trade.aggressor.lastPx.toString()).toBe('0.42');
    }
    expect(ids).toEqual(['t-p1', 't-p2', 't-p3']);
    const bodies = fake.apiRequests.map((r) => r.body);
    expect(bodies).toEqual([
      { symbol: 'EVT-A', pageSize: 1 },
      { symbol: 'EVT-A', pageSize: 1, pageToken: 'p2' },
      { symbol: 'EVT-A', pageSize: 1, pageToken: 'p3' },
    ]);
  });

  it('stops with FAMILY_A_BAD_RESPONSE when the server repeats a page token', async () => {
    fake.route('POST', '/v1/report/orders/search', () => ({ body: { order: [], nextPageToken: 'same' } }));
    const walk = async () => {
      for await (const _ of client().searchOrderPages()) void _;
    };
    await expect(walk()).rejects.toMatchObject({ code: FamilyAErrorCode.BadResponse });
  });
});
