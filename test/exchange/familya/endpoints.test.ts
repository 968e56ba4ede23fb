// Every /v1 endpoint through its client method: the method and path sent, Bearer on all but health,
// x-participant-id exactly on the /v1/trading calls, the request body's camelCase keys, and a decoded answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/index.ts';
import { ENDPOINTS } from '../../../src/exchange/familya/index.ts';
import type { EndpointName, FamilyAClient, FamilyAStack } from '../../../src/exchange/familya/index.ts';
import { startFakeExchange } from './helpers/fake-exchange.ts';
import type { FakeExchange, RecordedRequest } from './helpers/fake-exchange.ts';
import { makeKeys } from './helpers/keys.ts';
import { PARTICIPANT, exchangeConfig, knownCatalog, makeClient } from './helpers/client.ts';

const keys = makeKeys();
let fake: FakeExchange;
let stack: FamilyAStack;

beforeAll(async () => {
  fake = await startFakeExchange({ clientId: 'c1', publicKey: keys.publicKey });
  stack = makeClient(exchangeConfig(fake.apiUrl, fake.authUrl, 'c1', keys.privateKeyFile), { catalog: knownCatalog() });
});
afterAll(async () => {
  await stack.client.close();
  await fake.close();
});
afterEach(() => {
  fake.apiRequests.length = 0;
});

const d = (text: string) => new Decimal(text);
const order = { id: 'o-1', symbol: 'EVT-A', price: '42', orderQty: '3', side: 'SIDE_BUY', state: 'ORDER_STATE_NEW' };

interface Case {
  endpoint: EndpointName;
  path: string;
  reply: unknown;
  call: (c: FamilyAClient) => Promise<unknown>;
  /** Checks on the request (body, query) and the decoded result. */
  check?: (req: RecordedRequest, result: unknown) => void;
}

const cases: Case[] = [
  { endpoint: 'health', path: '/v1/health', reply: { status: 'SERVING' }, call: (c) => c.health() },
  {
    endpoint: 'orderbook',
    path: '/v1/orderbook/EVT-A',
    reply: { symbol: 'EVT-A', bids: [{ px: '42', qty: '1' }] },
    call: (c) => c.orderbook('EVT-A'),
    check: (req) => expect(req.query.has('depth')).toBe(false),
  },
  {
    endpoint: 'bbo',
    path: '/v1/orderbook/EVT-A/bbo',
    reply: { symbol: 'EVT-A', offer: { px: '44', qty: '2' } },
    call: (c) => c.bbo('EVT-A'),
  },
  {
    endpoint: 'searchTrades',
    path: '/v1/report/trades/search',
    reply: { trade: [], nextPageToken: '' },
    call: (c) => c.searchTrades({ symbol: 'EVT-A', states: ['TRADE_STATE_CLEARED'], accounts: ['firms/f1/accounts/a1'] }),
    check: (req) => expect(req.body).toEqual({ symbol: 'EVT-A', states: ['TRADE_STATE_CLEARED'], accounts: ['firms/f1/accounts/a1'] }),
  },
  {
    endpoint: 'tradeStats',
    path: '/v1/report/trades/stats',
    reply: { stats: { first: '40', last: '42', high: '45', low: '39', totalTradeCount: '7', volume: '12', notional: '480' } },
    call: (c) => c.tradeStats({ symbol: 'EVT-A', bars: 2 }),
    check: (req, result) => {
      expect(req.body).toEqual({ symbol: 'EVT-A', bars: 2 });
      expect((result as { stats: { high: Decimal; notional: Decimal } }).stats.high.toString()).toBe('0.45');
      expect((result as { stats: { notional: Decimal } }).stats.notional.toString()).toBe('4.8');
    },
  },
  {
    endpoint: 'registerKycWebhook',
    path: '/v1/kyc/webhook',
    reply: { validated: true, message: 'ok' },
    call: (c) => c.registerKycWebhook('https://hooks.example.com/kyc'),
    check: (req) => expect(req.body).toEqual({ webhookUrl: 'https://hooks.example.com/kyc' }),
  },
  {
    endpoint: 'insertOrder',
    path: '/v1/trading/orders',
    reply: { orderId: 'o-1' },
    call: (c) => c.insertOrder({ symbol: 'EVT-A', side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty: d('3'), price: d('0.42') }),
  },
  {
    endpoint: 'previewOrder',
    path: '/v1/trading/orders/preview',
    reply: { previewOrder: order },
    call: (c) => c.previewOrder({ symbol: 'EVT-A', side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty: d('3'), price: d('0.42') }),
    check: (req, result) => {
      expect(req.body).toEqual({ request: { symbol: 'EVT-A', side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty: '3', price: '42' } });
      expect((result as { price: Decimal }).price.toString()).toBe('0.42');
    },
  },
  {
    endpoint: 'cancelOrder',
    path: '/v1/trading/orders/cancel',
    reply: {},
    call: (c) => c.cancelOrder({ orderId: 'o-1', symbol: 'EVT-A', clordId: 'cx-1' }),
    check: (req) => expect(req.body).toEqual({ orderId: 'o-1', symbol: 'EVT-A', clordId: 'cx-1' }),
  },
  {
    endpoint: 'cancelOrderList',
    path: '/v1/trading/orders/cancel/list',
    reply: {},
    call: (c) =>
      c.cancelOrderList([
        { orderId: 'o-1', symbol: 'EVT-A' },
        { orderId: 'o-2', symbol: 'EVT-A' },
      ]),
    check: (req) =>
      expect(req.body).toEqual({
        requests: [
          { orderId: 'o-1', symbol: 'EVT-A' },
          { orderId: 'o-2', symbol: 'EVT-A' },
        ],
      }),
  },
  {
    endpoint: 'replaceOrder',
    path: '/v1/trading/orders/replace',
    reply: { orderId: 'o-2' },
    call: (c) => c.replaceOrder({ orderId: 'o-1', symbol: 'EVT-A', price: d('0.43'), orderQty: d('3') }),
    check: (req, result) => {
      expect(req.body).toEqual({ orderId: 'o-1', symbol: 'EVT-A', price: '43', orderQty: '3' });
      expect(result).toEqual({ orderId: 'o-2' });
    },
  },
  {
    endpoint: 'replaceOrderList',
    path: '/v1/trading/orders/replace/list',
    reply: { responses: [{ orderId: 'o-3' }] },
    call: (c) => c.replaceOrderList([{ orderId: 'o-1', symbol: 'EVT-A', price: d('0.44') }]),
    check: (_req, result) => expect(result).toEqual(['o-3']),
  },
  {
    endpoint: 'openOrders',
    path: '/v1/trading/open-orders',
    reply: { orders: [order] },
    call: (c) => c.openOrders({ symbols: ['EVT-A', 'EVT-B'] }),
    check: (req) => expect(req.query.getAll('symbols')).toEqual(['EVT-A', 'EVT-B']),
  },
  {
    endpoint: 'searchOrders',
    path: '/v1/report/orders/search',
    reply: { order: [order], nextPageToken: '' },
    call: (c) => c.searchOrders({ symbol: 'EVT-A' }),
  },
  {
    endpoint: 'positions',
    path: '/v1/positions',
    reply: { positions: [{ account: 'firms/f1/accounts/a1', symbol: 'EVT-A', netPosition: '3', avgEntryPx: '42' }] },
    call: (c) => c.positions({ accounts: ['firms/f1/accounts/a1'], symbol: 'EVT-A' }),
    check: (req, result) => {
      expect(req.query.getAll('account')).toEqual(['firms/f1/accounts/a1']);
      expect(req.query.get('symbol')).toBe('EVT-A');
      expect((result as { positions: { avgEntryPx: Decimal }[] }).positions[0]?.avgEntryPx.toString()).toBe('0.42');
    },
  },
  {
    endpoint: 'balance',
    path: '/v1/positions/balance',
    reply: { account: 'firms/f1/accounts/a1', currency: 'USD', balance: '100.25' },
    call: (c) => c.balance('firms/f1/accounts/a1', 'USD'),
    check: (req) => expect(req.body).toEqual({ name: 'firms/f1/accounts/a1', currency: 'USD' }),
  },
  {
    endpoint: 'balances',
    path: '/v1/positions/balances',
    reply: { balances: [{ account: 'a', balance: '1' }] },
    call: (c) => c.balances(['a']),
  },
  {
    endpoint: 'refdataSymbols',
    path: '/v1/refdata/symbols',
    reply: { symbols: ['EVT-A'] },
    call: (c) => c.refdataSymbols(),
    check: (_r, res) => expect(res).toEqual(['EVT-A']),
  },
  {
    endpoint: 'refdataInstruments',
    path: '/v1/refdata/instruments',
    reply: { instruments: [] },
    call: (c) => c.refdataInstruments({ symbols: ['EVT-A'] }),
  },
  {
    endpoint: 'refdataMetadata',
    path: '/v1/refdata/metadata',
    reply: { metadata: { 'EVT-A': { category: 'weather' } } },
    call: (c) => c.refdataMetadata(['EVT-A']),
  },
  { endpoint: 'whoAmI', path: '/v1/accounts/whoami', reply: { participantId: PARTICIPANT }, call: (c) => c.whoAmI() },
  {
    endpoint: 'listUsers',
    path: '/v1/users',
    reply: { users: [{ id: 'firms/f1/users/u1' }], nextPageToken: '' },
    call: (c) => c.listUsers({ pageSize: 10 }),
    check: (req) => expect(req.query.get('pageSize')).toBe('10'),
  },
  {
    endpoint: 'createUser',
    path: '/v1/users',
    reply: { id: 'firms/f1/users/new', externalId: 'ext-1' },
    call: (c) => c.createUser({ username: 'newbie', externalId: 'ext-1', email: 'a@example.com' }),
    check: (req) => expect(req.body).toEqual({ username: 'newbie', externalId: 'ext-1', email: 'a@example.com' }),
  },
  {
    endpoint: 'fundingAccounts',
    path: '/v1/funding/accounts',
    reply: { fundingAccounts: [{ id: 'fa-1' }] },
    call: (c) => c.fundingAccounts(),
  },
  {
    endpoint: 'aeropayDeposit',
    path: '/v1/aeropay/deposits',
    reply: {
      deposit: { id: 'dep-1', provider: 'aeropay', amount: '25.50', status: 'COMPLETED' },
      balance: { account: 'firms/f1/accounts/a1', balance: '125.5' },
    },
    call: (c) => c.aeropayDeposit({ account: 'firms/f1/accounts/a1', fundingAccountId: 'fa-1', amount: d('25.50'), currency: 'USD' }),
    check: (req, result) => {
      expect(req.body).toEqual({ account: 'firms/f1/accounts/a1', fundingAccountId: 'fa-1', amount: '25.5', currency: 'USD' });
      const { deposit, balance } = result as { deposit: { amount: Decimal; status: string }; balance: { balance: Decimal } };
      expect(deposit.amount.toString()).toBe('25.5');
      expect(balance.balance.toString()).toBe('125.5');
    },
  },
  {
    endpoint: 'checkoutDeposit',
    path: '/v1/checkout/deposits',
    reply: { deposit: { id: 'dep-2' } },
    call: (c) => c.checkoutDeposit({ account: 'a', amount: d('10') }),
  },
  {
    endpoint: 'kycStatus',
    path: '/v1/kyc/status',
    reply: { externalId: 'ext-1', status: 'OPEN' },
    call: (c) => c.kycStatus('ext-1'),
    check: (req) => expect(req.query.get('externalId')).toBe('ext-1'),
  },
  {
    endpoint: 'kycVerify',
    path: '/v1/kyc/verify',
    reply: { externalId: 'ext-1', status: 'OPEN' },
    call: (c) => c.kycVerify({ externalId: 'ext-1', email: 'a@example.com' }),
  },
];

describe('every /v1 endpoint', () => {
  it('has a case here for each endpoint in the table', () => {
    expect(new Set(cases.map((c) => c.endpoint))).toEqual(new Set(Object.keys(ENDPOINTS)));
  });

  it.each(cases)('$endpoint', async ({ endpoint, path, reply, call, check }) => {
    const spec = ENDPOINTS[endpoint];
    fake.route(spec.method, path, () => ({ body: reply }));
    const result = await call(stack.client);
    const req = fake.apiRequests.find((r) => r.path === path);
    expect(req?.method).toBe(spec.method);
    if (spec.authenticated) expect(req?.headers.authorization).toMatch(/^Bearer /);
    else expect(req?.headers.authorization).toBeUndefined();
    expect(req?.headers['x-participant-id']).toBe(path.startsWith('/v1/trading/') ? PARTICIPANT : undefined);
    check?.(req as RecordedRequest, result);
  });
});
