/**
 * Fuzzing the clients' response handling above the codecs: the gateway's auth, trading and lookup APIs
 * (and the session's login) and every family A client call, over a fake transport that answers with the
 * valid response of the call mutated field by field, random JSON, or an HTTP error status with a random
 * error body. Each call resolves, or rejects with a TradebotError carrying a stable code (GATEWAY_*,
 * FAMILY_A_*, TRANSPORT_*, or a domain code when the request itself cannot be encoded) and a message:
 * never a TypeError from reading a field that is not there. A login that succeeds leaves deadlines that
 * are numbers (never NaN). The lenient error-body parsers never throw on any input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, authCodecs, familyA, gateway } from '../../../src/domain/index.ts';
import { isTradebotError } from '../../../src/errors.ts';
import {
  AuthedCaller,
  GatewayAuthApi,
  GatewayLookupsApi,
  GatewaySession,
  GatewayTradingApi,
  instrumentCatalog,
  toGatewayError,
} from '../../../src/exchange/gateway/index.ts';
import { FamilyAClient } from '../../../src/exchange/familya/client.ts';
import { parseFamilyAErrorBody } from '../../../src/exchange/familya/error-body.ts';
import { toFamilyAError } from '../../../src/exchange/familya/errors.ts';
import { errorForStatus, type HttpRequest, type HttpResponse, type Transport } from '../../../src/exchange/transport/index.ts';
import {
  applyMutations,
  hostileJson,
  hostileString,
  mutation,
  toJsonText,
  type Json,
  type Mutation,
} from '../../sim/fuzz/helpers/arbitraries.ts';
import { fuzzRuns } from '../../sim/fuzz/helpers/fuzz-sim.ts';
import { SCALES, SCALES_A, familySamples, fixedSamples } from '../../domain/fixtures.ts';

const ACCOUNT = 'firms/f1/accounts/a1';
const ORDER = {
  account: ACCOUNT,
  symbol: 'EVT-A',
  side: 'SIDE_BUY',
  type: 'ORDER_TYPE_LIMIT',
  orderQty: new Decimal(2),
  price: new Decimal('0.55'),
} as const;
const STABLE_CODE = /^(GATEWAY|FAMILY_A|TRANSPORT|STREAM|WIRE|SCALE|DECIMAL|TIME|DOMAIN)_[A-Z_]+$/;

/** What the fake transport answers to every request of one case. */
type Answer = { status: 200; body: Json } | { status: number; text: string };

class FakeTransport implements Transport {
  answer: Answer = { status: 200, body: {} };
  requests = 0;

  async request(request: HttpRequest): Promise<HttpResponse> {
    this.requests += 1;
    const answer = this.answer;
    const ctx = { method: request.method, path: request.path, origin: 'http://fake.invalid' };
    if (answer.status !== 200) throw errorForStatus(answer.status, {}, (answer as { text: string }).text, ctx, 0);
    // As the real transport does: the body arrives as text and is parsed.
    return { status: 200, headers: {}, body: JSON.parse(toJsonText((answer as { body: Json }).body)) as unknown };
  }

  async close(): Promise<void> {}
}

interface Operation {
  name: string;
  /** The valid response body of the call. */
  sample: Json;
  call(transport: FakeTransport): Promise<unknown>;
}

const tokens = { accessToken: async () => 'token', recoverFromUnauthorized: async () => 'token' };
const catalog = instrumentCatalog(SCALES);
const trading = (t: FakeTransport) => new GatewayTradingApi(new AuthedCaller(t, tokens), catalog, () => 'cl-1');
const lookups = (t: FakeTransport) => new GatewayLookupsApi(new AuthedCaller(t, tokens), catalog);
const g = (name: keyof typeof familySamples, scales: typeof SCALES | typeof SCALES_A = SCALES): Json =>
  gateway[name].encode(familySamples[name] as never, scales) as Json;
const a = (name: keyof typeof familySamples, scales: typeof SCALES | typeof SCALES_A = SCALES): Json =>
  familyA[name].encode(familySamples[name] as never, scales) as Json;
const auth = (name: keyof typeof fixedSamples): Json => authCodecs[name].encode(fixedSamples[name] as never) as Json;

const GATEWAY_OPS: Operation[] = [
  {
    name: 'session.login',
    sample: auth('loginResponse'),
    async call(t) {
      const session = new GatewaySession({
        auth: new GatewayAuthApi(t),
        credentials: { username: 'alice', password: 'pw' },
        now: () => 1_714_564_800_000,
      });
      await session.login();
      const info = session.info();
      for (const value of [info.accessExpiresAt, info.accessRefreshAt, info.refreshExpiresAt])
        expect(Number.isNaN(value), 'a NaN token deadline').toBe(false);
      return info;
    },
  },
  { name: 'refreshAccessToken', sample: auth('refreshResponse'), call: (t) => new GatewayAuthApi(t).refreshAccessToken('rt') },
  {
    name: 'checkPassword',
    sample: { valid: false, messages: ['too short'] },
    call: (t) => new GatewayAuthApi(t).checkPassword({ password: 'pw' }),
  },
  {
    name: 'register',
    sample: { username: 'alice', participant: 'firms/f1/users/alice' },
    call: (t) => new GatewayAuthApi(t).register({ token: 'reg', password: 'pw' }),
  },
  {
    name: 'enrollMfa',
    sample: { enrollmentUrl: 'otpauth://totp/sim:alice?secret=JBSWY3DPEHPK3PXP&issuer=sim' },
    call: (t) => new GatewayAuthApi(t).enrollMfa({ username: 'alice', password: 'pw' }),
  },
  {
    name: 'confirmMfa',
    sample: { mfaEnabled: true },
    call: (t) => new GatewayAuthApi(t).confirmMfa({ username: 'alice', password: 'pw', otp: '123456' }),
  },
  { name: 'insertOrder', sample: g('insertOrderResponse'), call: (t) => trading(t).insertOrder(ORDER) },
  { name: 'insertOrderList', sample: g('orderIdsResponse'), call: (t) => trading(t).insertOrderList([ORDER, ORDER]) },
  { name: 'previewOrder', sample: g('previewOrderResponse'), call: (t) => trading(t).previewOrder(ORDER) },
  { name: 'cancelOrder', sample: {}, call: (t) => trading(t).cancelOrder({ orderId: 'o-1', symbol: 'EVT-A' }) },
  {
    name: 'cancelReplaceOrder',
    sample: g('insertOrderResponse'),
    call: (t) => trading(t).cancelReplaceOrder({ orderId: 'o-1', symbol: 'EVT-A', price: new Decimal('0.5') }),
  },
  {
    name: 'cancelReplaceOrderList',
    sample: g('orderIdsResponse'),
    call: (t) => trading(t).cancelReplaceOrderList([{ orderId: 'o-1', symbol: 'EVT-A' }]),
  },
  {
    name: 'insertOrderCross',
    sample: g('orderIdsResponse'),
    call: (t) => trading(t).insertOrderCross({ requests: [ORDER, { ...ORDER, side: 'SIDE_SELL' }] }),
  },
  { name: 'getOpenOrders', sample: g('openOrdersResponse'), call: (t) => lookups(t).getOpenOrders() },
  { name: 'searchOrders', sample: g('searchOrdersResponse'), call: (t) => lookups(t).searchOrders({ symbol: 'EVT-A' }) },
  { name: 'searchTrades', sample: g('searchTradesResponse'), call: (t) => lookups(t).searchTrades({}) },
  { name: 'listAccountPositions', sample: g('positionsResponse'), call: (t) => lookups(t).listAccountPositions({ name: ACCOUNT }) },
  { name: 'getAccountBalance', sample: g('balance'), call: (t) => lookups(t).getAccountBalance({ name: ACCOUNT }) },
  { name: 'getWhoAmI', sample: g('whoAmI'), call: (t) => lookups(t).getWhoAmI() },
];

function familyAClient(t: FakeTransport): FamilyAClient {
  return new FamilyAClient({
    transport: t,
    tokens: { getToken: async () => 'token', invalidate: () => undefined },
    participant: 'firms/f1/users/u1',
    catalog,
  });
}

const FAMILY_A_OPS: Operation[] = [
  { name: 'health', sample: { status: 'SERVING' }, call: (t) => familyAClient(t).health() },
  { name: 'orderbook', sample: a('orderBook'), call: (t) => familyAClient(t).orderbook('EVT-A', 5) },
  { name: 'bbo', sample: a('bestBidOffer'), call: (t) => familyAClient(t).bbo('EVT-A') },
  { name: 'searchTrades', sample: a('searchTradesResponse'), call: (t) => familyAClient(t).searchTrades({ symbol: 'EVT-A' }) },
  { name: 'tradeStats', sample: a('tradeStatsResult', SCALES_A), call: (t) => familyAClient(t).tradeStats({ symbol: 'EVT-A' }) },
  { name: 'insertOrder', sample: a('insertOrderResponse'), call: (t) => familyAClient(t).insertOrder(ORDER) },
  { name: 'previewOrder', sample: a('previewOrderResponse'), call: (t) => familyAClient(t).previewOrder(ORDER) },
  { name: 'cancelOrder', sample: {}, call: (t) => familyAClient(t).cancelOrder({ orderId: 'o-1', symbol: 'EVT-A' }) },
  {
    name: 'replaceOrder',
    sample: { orderId: 'o-1' },
    call: (t) => familyAClient(t).replaceOrder({ orderId: 'o-1', symbol: 'EVT-A', price: new Decimal('0.5') }),
  },
  {
    name: 'replaceOrderList',
    sample: a('orderIdsResponse'),
    call: (t) => familyAClient(t).replaceOrderList([{ orderId: 'o-1', symbol: 'EVT-A' }]),
  },
  { name: 'openOrders', sample: a('openOrdersResponse'), call: (t) => familyAClient(t).openOrders() },
  { name: 'searchOrders', sample: a('searchOrdersResponse'), call: (t) => familyAClient(t).searchOrders({}) },
  { name: 'positions', sample: a('positionsResponse'), call: (t) => familyAClient(t).positions() },
  { name: 'balance', sample: a('balance'), call: (t) => familyAClient(t).balance(ACCOUNT) },
  { name: 'balances', sample: a('balancesResponse'), call: (t) => familyAClient(t).balances([ACCOUNT]) },
  { name: 'whoAmI', sample: a('whoAmI'), call: (t) => familyAClient(t).whoAmI() },
  { name: 'listUsers', sample: a('listUsersResponse'), call: (t) => familyAClient(t).listUsers() },
  { name: 'createUser', sample: a('user'), call: (t) => familyAClient(t).createUser({ username: 'dave' }) },
  { name: 'fundingAccounts', sample: a('fundingAccountsResponse'), call: (t) => familyAClient(t).fundingAccounts(ACCOUNT) },
  {
    name: 'aeropayDeposit',
    sample: {
      deposit: {
        id: 'd-1',
        provider: 'aeropay',
        account: ACCOUNT,
        amount: '10.00',
        currency: 'USD',
        status: 'COMPLETED',
        createTime: '2026-01-05T10:00:00Z',
      },
      balance: a('balance'),
    },
    call: (t) => familyAClient(t).aeropayDeposit({ account: ACCOUNT, amount: new Decimal(10) }),
  },
  { name: 'refdataSymbols', sample: a('listSymbolsResponse'), call: (t) => familyAClient(t).refdataSymbols() },
  { name: 'refdataInstruments', sample: a('listInstrumentsResponse'), call: (t) => familyAClient(t).refdataInstruments({}) },
  {
    name: 'refdataMetadata',
    sample: { metadata: [{ symbol: 'EVT-A', description: 'x' }] },
    call: (t) => familyAClient(t).refdataMetadata(['EVT-A']),
  },
  { name: 'kycStatus', sample: auth('kycStatus'), call: (t) => familyAClient(t).kycStatus('ext-1') },
  { name: 'kycVerify', sample: auth('kycStatus'), call: (t) => familyAClient(t).kycVerify({ externalId: 'ext-1' }) },
  {
    name: 'registerKycWebhook',
    sample: auth('kycWebhookResponse'),
    call: (t) => familyAClient(t).registerKycWebhook('https://hooks.example.com/kyc'),
  },
];

const answer = (sample: Json): fc.Arbitrary<Answer> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant<Answer>({ status: 200, body: sample }) },
    {
      weight: 6,
      arbitrary: fc
        .array(mutation, { minLength: 1, maxLength: 4 })
        .map((ms: Mutation[]): Answer => ({ status: 200, body: applyMutations(sample, ms) })),
    },
    { weight: 1, arbitrary: hostileJson.map((body): Answer => ({ status: 200, body })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(400, 401, 403, 404, 409, 429, 500, 503),
          fc.oneof(
            hostileJson.map((j) => toJsonText(j)),
            hostileString,
          ),
        )
        .map(([status, text]): Answer => ({ status, text })),
    },
  );

async function expectResolvesOrTyped(name: string, run: () => Promise<unknown>): Promise<'ok' | 'error'> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    if (!isTradebotError(error))
      throw new Error(
        `${name}: rejected with ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}, not a TradebotError`,
        { cause: error },
      );
    expect(error.code, `${name}: ${error.message}`).toMatch(STABLE_CODE);
    expect(error.message.length).toBeGreaterThan(0);
    return 'error';
  }
}

describe.each([
  ['gateway', GATEWAY_OPS],
  ['family A', FAMILY_A_OPS],
] as const)('%s client calls under bad responses', (_family, ops) => {
  it('resolve, or reject with a typed error with a stable code', async () => {
    const outcomes = { ok: 0, error: 0 };
    const opCase = fc.nat({ max: ops.length - 1 }).chain((i) => fc.tuple(fc.constant(i), answer((ops[i] as Operation).sample)));
    await fc.assert(
      fc.asyncProperty(opCase, async ([i, reply]) => {
        const op = ops[i] as Operation;
        const transport = new FakeTransport();
        transport.answer = reply;
        outcomes[await expectResolvesOrTyped(op.name, () => op.call(transport))] += 1;
      }),
      { numRuns: fuzzRuns(400) },
    );
    expect(outcomes.ok, 'valid responses were accepted').toBeGreaterThan(20);
    expect(outcomes.error).toBeGreaterThan(100);
  });

  it('every call accepts its own valid response', async () => {
    for (const op of ops) {
      const transport = new FakeTransport();
      transport.answer = { status: 200, body: op.sample };
      await expect(op.call(transport), op.name).resolves.not.toThrow();
    }
  });
});

describe('error bodies', () => {
  const transportError = (status: number, text: string) =>
    errorForStatus(status, {}, text, { method: 'POST', path: '/x', origin: 'http://fake.invalid' }, 0);
  const bodies = fc.oneof(
    hostileJson.map((j) => toJsonText(j)),
    hostileString,
    hostileJson.map((error) => toJsonText({ error })),
    hostileJson.map((details) => toJsonText({ code: 3, message: 'INVALID_ARGUMENT', details })),
  );

  it('parseFamilyAErrorBody never throws and keeps a short string message', () => {
    fc.assert(
      fc.property(hostileJson, (body) => {
        const parsed = parseFamilyAErrorBody(body);
        if (parsed !== undefined) {
          expect(typeof parsed.message).toBe('string');
          expect(parsed.message.length).toBeLessThanOrEqual(2100);
        }
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });

  it('any 4xx with any body maps to a typed gateway or family A error', () => {
    fc.assert(
      fc.property(fc.constantFrom(400, 401, 403, 404, 409, 422), bodies, (status, text) => {
        for (const mapped of [
          toGatewayError(transportError(status, text), 'op'),
          toFamilyAError(transportError(status, text), 'op', 'read:orders'),
        ]) {
          expect(isTradebotError(mapped)).toBe(true);
          expect((mapped as Error).message.length).toBeLessThan(3000);
        }
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });
});
