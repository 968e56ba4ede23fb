/**
 * What the family A fuzz suites send. A /v1 request is one JSON value `{params?, query?, body?}` so a
 * mutation may hit a path parameter, a query parameter or a body field alike; it is then written as the
 * path (params percent-encoded), the query string (arrays repeated, non-strings as JSON) and the body.
 * Authorization variants cover the Bearer rules, other clients (missing scope, other firm, allowlisted),
 * a gateway token, tampered, `alg: none` and HS256-with-the-public-key tokens; `x-participant-id` may be
 * a participant of the firm, of another firm, or garbage. The runner checks the `{error: {...}}` shape and
 * that refused requests change nothing.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import fc from 'fast-check';
import { generateKeyPair, SignJWT } from 'jose';
import { expect } from 'vitest';
import { CLIENT, CLIENT_ALLOWLISTED, CLIENT_NO_L2, CLIENT_OTHER_FIRM } from '../../familya/helpers/harness.ts';
import { applyMutations, hostileString, mutation, toJsonText, type Json, type Mutation } from './arbitraries.ts';
import {
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB_MAIN,
  SYMBOL,
  bodyEncodingWithOversize,
  checkFamilyA,
  contentType,
  encodeBody,
  headerSafe,
  hs256Jwt,
  restingOrder,
  send,
  stateOf,
  tamper,
  unsignedJwt,
  type BodyEncoding,
  type FuzzSim,
  type Tally,
} from './fuzz-sim.ts';
import { gatewayToken } from './gateway-requests.ts';

export const ALICE = 'firms/demo/users/alice';
export const BOB = 'firms/demo/users/bob';
export const CAROL = 'firms/other/users/carol';

export interface ApiEndpoint {
  method: 'GET' | 'POST';
  /** With `{name}` placeholders filled from `params`. */
  path: string;
  base(sim: FuzzSim): Json;
}

const limit = (side: 'SIDE_BUY' | 'SIDE_SELL', qty: string, price: string, account: string): Json => ({
  symbol: SYMBOL,
  side,
  type: 'ORDER_TYPE_LIMIT',
  timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  orderQty: qty,
  price,
  account,
});

const aliceOrder = (sim: FuzzSim) => restingOrder(sim.h, ALICE_MAIN, ALICE);

export const API_ENDPOINTS: ApiEndpoint[] = [
  { method: 'GET', path: '/v1/health', base: () => ({}) },
  { method: 'POST', path: '/v1/trading/orders', base: () => ({ body: limit('SIDE_BUY', '1', '20', ALICE_MAIN) }) },
  { method: 'POST', path: '/v1/trading/orders/preview', base: () => ({ body: { request: limit('SIDE_SELL', '2', '70', ALICE_HEDGE) } }) },
  { method: 'POST', path: '/v1/trading/orders/cancel', base: (sim) => ({ body: { orderId: aliceOrder(sim), symbol: SYMBOL } }) },
  {
    method: 'POST',
    path: '/v1/trading/orders/cancel/list',
    base: (sim) => ({ body: { requests: [{ orderId: aliceOrder(sim), symbol: SYMBOL }] } }),
  },
  {
    method: 'POST',
    path: '/v1/trading/orders/replace',
    base: (sim) => ({ body: { orderId: aliceOrder(sim), symbol: SYMBOL, price: '11', orderQty: '2' } }),
  },
  {
    method: 'POST',
    path: '/v1/trading/orders/replace/list',
    base: (sim) => ({ body: { requests: [{ orderId: aliceOrder(sim), price: '12' }] } }),
  },
  { method: 'GET', path: '/v1/trading/open-orders', base: () => ({ query: { accounts: [ALICE_MAIN], symbols: SYMBOL } }) },
  { method: 'POST', path: '/v1/report/orders/search', base: () => ({ body: { accounts: [ALICE_MAIN], pageSize: 5, pageToken: '' } }) },
  { method: 'POST', path: '/v1/report/trades/search', base: () => ({ body: { symbol: SYMBOL, pageSize: 5 } }) },
  {
    method: 'POST',
    path: '/v1/report/trades/stats',
    base: () => ({ body: { symbol: SYMBOL, startTime: '2026-01-05T09:00:00Z', endTime: '2026-01-05T11:00:00Z', bars: 2 } }),
  },
  { method: 'GET', path: '/v1/positions', base: () => ({ query: { account: ALICE_MAIN, symbol: SYMBOL } }) },
  { method: 'POST', path: '/v1/positions/balance', base: () => ({ body: { name: ALICE_MAIN, currency: 'USD' } }) },
  { method: 'POST', path: '/v1/positions/balances', base: () => ({ body: { accounts: [ALICE_MAIN, BOB_MAIN], currency: 'USD' } }) },
  { method: 'GET', path: '/v1/orderbook/{symbol}', base: () => ({ params: { symbol: SYMBOL }, query: { depth: '3' } }) },
  { method: 'GET', path: '/v1/orderbook/{symbol}/bbo', base: () => ({ params: { symbol: SYMBOL } }) },
  { method: 'POST', path: '/v1/refdata/symbols', base: () => ({ body: {} }) },
  { method: 'POST', path: '/v1/refdata/instruments', base: () => ({ body: { symbols: [SYMBOL], pageSize: 1, pageToken: '' } }) },
  { method: 'POST', path: '/v1/refdata/metadata', base: () => ({ body: { symbols: [SYMBOL] } }) },
  { method: 'GET', path: '/v1/accounts/whoami', base: () => ({}) },
  { method: 'GET', path: '/v1/whoami', base: () => ({}) },
  { method: 'GET', path: '/v1/users', base: () => ({ query: { pageSize: '2', pageToken: '' } }) },
  {
    method: 'POST',
    path: '/v1/users',
    base: () => ({ body: { username: 'fuzz-user', externalId: 'fuzz-ext', email: 'f@example.com', firstName: 'F', lastName: 'Z' } }),
  },
  { method: 'GET', path: '/v1/funding/accounts', base: () => ({ query: { account: ALICE_MAIN } }) },
  { method: 'POST', path: '/v1/aeropay/deposits', base: () => ({ body: { account: ALICE_HEDGE, amount: '10.00', currency: 'USD' } }) },
  { method: 'POST', path: '/v1/checkout/deposits', base: () => ({ body: { account: ALICE_HEDGE, amount: 5 } }) },
  { method: 'GET', path: '/v1/kyc/status', base: () => ({ query: { externalId: 'fuzz-ext' } }) },
  {
    method: 'POST',
    path: '/v1/kyc/verify',
    base: () => ({ body: { externalId: 'fuzz-ext', email: 'f@example.com', firstName: 'F', lastName: 'Z' } }),
  },
  // Port 1 refuses at once: a registration that reaches the network path fails fast and changes nothing.
  { method: 'POST', path: '/v1/kyc/webhook', base: () => ({ body: { webhookUrl: 'https://127.0.0.1:1/kyc' } }) },
];

const text = (value: Json | undefined): string => (typeof value === 'string' ? value : toJsonText(value ?? null));

/** Writes `{params, query, body}` as a path with query string and an optional body. */
export function writeRequest(endpoint: ApiEndpoint, request: Json): { path: string; body: Json | undefined; hasBody: boolean } {
  const fields = request !== null && typeof request === 'object' && !Array.isArray(request) ? request : { body: request };
  const params = fields['params'];
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params !== null && typeof params === 'object' && !Array.isArray(params) ? params[name] : undefined;
    return encodeURIComponent(text(value));
  });
  const query = new URLSearchParams();
  const q = fields['query'];
  if (q !== null && typeof q === 'object' && !Array.isArray(q)) {
    for (const [key, value] of Object.entries(q)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(key, text(item));
    }
  } else if (q !== undefined) query.append('q', text(q));
  const search = query.toString();
  return { path: search === '' ? path : `${path}?${search}`, body: fields['body'], hasBody: 'body' in fields };
}

export type ApiAuth =
  | {
      kind:
        | 'none'
        | 'valid'
        | 'noBearer'
        | 'lowercase'
        | 'noL2'
        | 'otherFirm'
        | 'allowlisted'
        | 'gateway'
        | 'tampered'
        | 'algNone'
        | 'hsConfusion'
        | 'empty';
    }
  | { kind: 'garbage'; text: string };

export const apiAuth: fc.Arbitrary<ApiAuth> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'valid' as const }) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      ...(
        [
          'none',
          'noBearer',
          'lowercase',
          'noL2',
          'otherFirm',
          'allowlisted',
          'gateway',
          'tampered',
          'algNone',
          'hsConfusion',
          'empty',
        ] as const
      ).map((kind) => ({ kind })),
    ),
  },
  { weight: 1, arbitrary: hostileString.map((t) => ({ kind: 'garbage' as const, text: headerSafe(t) })) },
);

export const participantHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(ALICE) },
  { weight: 1, arbitrary: fc.constant(BOB) },
  { weight: 1, arbitrary: fc.constant(CAROL) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: hostileString.map((s) => headerSafe(s, 300)) },
);

/** Access tokens of each onboarded client, fetched once (the manual clock never expires them). */
export class ApiTokens {
  private readonly cache = new Map<string, Promise<string>>();
  private jwksPem: Promise<string> | undefined;

  constructor(private readonly sim: FuzzSim) {}

  of(clientId: string): Promise<string> {
    let token = this.cache.get(clientId);
    if (token === undefined) {
      token = this.sim.h.token(clientId);
      this.cache.set(clientId, token);
    }
    return token;
  }

  /** The access-token signing key as the JWKS publishes it, as PEM (what an attacker can fetch). */
  private publicPem(): Promise<string> {
    this.jwksPem ??= (async () => {
      const response = await fetch(`${this.sim.auth}/.well-known/jwks.json`);
      const jwk = ((await response.json()) as { keys: JsonWebKey[] }).keys[0] as JsonWebKey;
      return createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
    })();
    return this.jwksPem;
  }

  /** Claims a real access token of the demo client carries, for forged tokens. */
  claims(): Record<string, unknown> {
    const now = Math.floor(this.sim.h.clock.now() / 1000);
    return {
      iss: this.sim.auth,
      aud: this.sim.api,
      sub: CLIENT,
      client_id: CLIENT,
      scope: 'write:orders read:orders',
      participant: ALICE,
      firm: 'demo',
      jti: 'forged',
      iat: now,
      exp: now + 100,
    };
  }

  async header(auth: ApiAuth): Promise<string | undefined> {
    switch (auth.kind) {
      case 'none':
        return undefined;
      case 'empty':
        return '';
      case 'valid':
        return `Bearer ${await this.of(CLIENT)}`;
      case 'noBearer':
        return this.of(CLIENT);
      case 'lowercase':
        return `bearer ${await this.of(CLIENT)}`;
      case 'noL2':
        return `Bearer ${await this.of(CLIENT_NO_L2)}`;
      case 'otherFirm':
        return `Bearer ${await this.of(CLIENT_OTHER_FIRM)}`;
      case 'allowlisted':
        return `Bearer ${await this.of(CLIENT_ALLOWLISTED)}`;
      case 'gateway':
        return `Bearer ${await gatewayToken(this.sim, 'access', 'alice')}`;
      case 'tampered':
        return `Bearer ${tamper(await this.of(CLIENT))}`;
      case 'algNone':
        return `Bearer ${unsignedJwt(this.claims())}`;
      case 'hsConfusion':
        return `Bearer ${await hs256Jwt(this.claims(), await this.publicPem())}`;
      case 'garbage':
        return auth.text;
    }
  }
}

/** A token signed by a key the simulator never saw, with the right claims. */
export async function foreignToken(claims: Record<string, unknown>): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' }).sign(privateKey);
}

export interface ApiCase {
  endpoint: number;
  mutations: Mutation[];
  encoding: BodyEncoding;
  contentType: string | undefined;
  auth: ApiAuth;
  participant: string | undefined;
}

export const apiCase: fc.Arbitrary<ApiCase> = fc.record({
  endpoint: fc.nat({ max: API_ENDPOINTS.length - 1 }),
  mutations: fc.array(mutation, { maxLength: 4 }),
  encoding: bodyEncodingWithOversize,
  contentType,
  auth: apiAuth,
  participant: participantHeader,
});

export async function runApiCase(sim: FuzzSim, tokens: ApiTokens, c: ApiCase, tally: Tally): Promise<void> {
  const endpoint = API_ENDPOINTS[c.endpoint] as ApiEndpoint;
  const base = endpoint.base(sim);
  const request = c.mutations.length === 0 ? base : applyMutations(base, c.mutations);
  const written = writeRequest(endpoint, request);
  const headers: Record<string, string> = {};
  const authorization = await tokens.header(c.auth);
  if (authorization !== undefined) headers['authorization'] = authorization;
  if (c.participant !== undefined) headers['x-participant-id'] = c.participant;
  if (written.hasBody && c.contentType !== undefined) headers['content-type'] = c.contentType;
  const before = stateOf(sim.h);
  const response = await send(sim.api, {
    method: endpoint.method,
    path: written.path,
    headers,
    body: written.hasBody ? encodeBody(written.body ?? null, c.encoding) : undefined,
  });
  const what = `${endpoint.method} ${written.path.slice(0, 150)} (${c.auth.kind}, ${c.encoding.kind})`;
  const outcome = checkFamilyA(response, { what });
  if (outcome === 'refused') {
    // A market rejection (docs/decisions.md: 400 FAILED_PRECONDITION / ORDER_REJECTED) keeps its REJECTED order on
    // record, as every door does: that one order, rejected with nothing filled, is the only change allowed.
    const rejected = marketRejection(response.text);
    if (rejected !== undefined) {
      const record = sim.h.sim.core.order(rejected);
      expect([record?.latest.state, record?.latest.cumQty], `${what}: the rejected order ${rejected}`).toEqual(['ORDER_STATE_REJECTED', 0]);
    }
    expect(stateOf(sim.h, rejected), `${what} answered ${response.status} but changed the exchange state`).toBe(before);
  }
  tally.add(outcome, response.status);
}

/** The order id of a `/v1` ORDER_REJECTED answer (a market rejection of an insert), else undefined. */
function marketRejection(text: string): string | undefined {
  const error = (JSON.parse(text) as { error?: { details?: { reason?: unknown; metadata?: { orderId?: unknown } }[] } }).error;
  const info = error?.details?.[0];
  return info?.reason === 'ORDER_REJECTED' && typeof info.metadata?.orderId === 'string' ? info.metadata.orderId : undefined;
}
