/**
 * What the gateway fuzz suites send: the valid body of every `/auth/v1beta1`, `/api/v1beta1` and stream
 * endpoint (built at run time, so tokens are fresh and cancel/replace name a working order), the variants
 * of the bare-token `Authorization` header, and one property runner shared by the three suites: send a
 * mutated body with random headers, check the gateway error shape, and check that a refused request left
 * the exchange state as it was.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { mutation, applyMutations, hostileString, type Json, type Mutation } from './arbitraries.ts';
import {
  ALICE_HEDGE,
  ALICE_MAIN,
  PASSWORDS,
  SYMBOL,
  bodyEncodingWithOversize,
  checkGateway,
  contentType,
  encodeBody,
  hs256Jwt,
  headerSafe,
  restingOrder,
  send,
  stateOf,
  tamper,
  unsignedJwt,
  type BodyEncoding,
  type FuzzSim,
  type Tally,
} from './fuzz-sim.ts';

export interface GatewayEndpoint {
  path: string;
  base(sim: FuzzSim): Json | Promise<Json>;
  /** Repairs what a valid-by-chance call changed that later runs rely on (e.g. bob's password). */
  after?(sim: FuzzSim): Promise<void>;
}

export const order = (account: string, side: 'SIDE_BUY' | 'SIDE_SELL', qty: string, price: string): Json => ({
  symbol: SYMBOL,
  side,
  order_qty: qty,
  price,
  type: 'ORDER_TYPE_LIMIT',
  time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  account,
});

const aliceOrder = (sim: FuzzSim) => restingOrder(sim.h, ALICE_MAIN, 'firms/demo/users/alice');

export async function gatewayToken(sim: FuzzSim, type: 'access' | 'refresh' | 'registration', username: string): Promise<string> {
  const user = sim.h.sim.users.get(username);
  return (
    await sim.h.sim.gatewayTokens.issue(
      type,
      username,
      900,
      type === 'access' && user !== undefined ? { participant: user.participant } : {},
    )
  ).token;
}

export const AUTH_ENDPOINTS: GatewayEndpoint[] = [
  { path: '/auth/v1beta1/login', base: () => ({ username: 'bob', password: PASSWORDS.bob }) },
  { path: '/auth/v1beta1/check_password', base: () => ({ password: 'Fuzz-Strong-Pass-2026!', username: 'bob' }) },
  {
    path: '/auth/v1beta1/register',
    base: async (sim) => ({ token: await gatewayToken(sim, 'registration', 'bob'), password: 'Fuzz-Register-Pass-2026!' }),
  },
  { path: '/auth/v1beta1/refresh_access_token', base: async (sim) => ({ refreshToken: await gatewayToken(sim, 'refresh', 'bob') }) },
  { path: '/auth/v1beta1/enroll_mfa', base: () => ({ username: 'bob', password: PASSWORDS.bob }) },
  { path: '/auth/v1beta1/confirm_mfa', base: () => ({ username: 'bob', password: PASSWORDS.bob, otp: '123456' }) },
  {
    path: '/auth/v1beta1/change_password',
    base: () => ({ username: 'bob', oldPassword: PASSWORDS.bob, newPassword: 'Fuzz-Changed-Pass-2026!' }),
    async after(sim) {
      const bob = sim.h.sim.users.get('bob');
      if (bob !== undefined) await sim.h.sim.users.setPassword(bob, PASSWORDS.bob);
    },
  },
  {
    path: '/auth/v1beta1/logout',
    base: async (sim) => ({
      accessToken: await gatewayToken(sim, 'access', 'alice'),
      refreshToken: await gatewayToken(sim, 'refresh', 'alice'),
    }),
  },
  { path: '/sim/v1/registration_token', base: () => ({ username: 'bob' }) },
];

export const API_ENDPOINTS: GatewayEndpoint[] = [
  { path: '/api/v1beta1/insert_order', base: () => order(ALICE_MAIN, 'SIDE_BUY', '1', '20') },
  {
    path: '/api/v1beta1/insert_order_list',
    base: () => ({ requests: [order(ALICE_MAIN, 'SIDE_BUY', '1', '21'), order(ALICE_HEDGE, 'SIDE_BUY', '2', '22')] }),
  },
  { path: '/api/v1beta1/preview_order', base: () => ({ request: order(ALICE_MAIN, 'SIDE_SELL', '3', '80') }) },
  { path: '/api/v1beta1/cancel_order', base: (sim) => ({ order_id: aliceOrder(sim), symbol: SYMBOL }) },
  { path: '/api/v1beta1/cancel_order_list', base: (sim) => ({ requests: [{ order_id: aliceOrder(sim), symbol: SYMBOL }] }) },
  {
    path: '/api/v1beta1/cancel_replace_order',
    base: (sim) => ({ order_id: aliceOrder(sim), symbol: SYMBOL, order_qty: '2', price: '11' }),
  },
  {
    path: '/api/v1beta1/cancel_replace_order_list',
    base: (sim) => ({ requests: [{ order_id: aliceOrder(sim), symbol: SYMBOL, order_qty: '3', price: '12' }] }),
  },
  {
    path: '/api/v1beta1/insert_order_cross',
    base: () => ({
      cross_id: 'x-fuzz',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [order(ALICE_MAIN, 'SIDE_BUY', '1', '50'), order(ALICE_HEDGE, 'SIDE_SELL', '1', '50')],
    }),
  },
  { path: '/api/v1beta1/get_open_orders', base: () => ({ accounts: [ALICE_MAIN], symbols: [SYMBOL] }) },
  { path: '/api/v1beta1/search_orders', base: () => ({ accounts: [ALICE_MAIN], symbol: SYMBOL, page_size: 10, page_token: '' }) },
  { path: '/api/v1beta1/search_trades', base: () => ({ accounts: [ALICE_MAIN, ALICE_HEDGE], symbol: SYMBOL, page_size: 5 }) },
  { path: '/api/v1beta1/list_account_positions', base: () => ({ name: ALICE_MAIN, symbol: SYMBOL }) },
  { path: '/api/v1beta1/get_account_balance', base: () => ({ name: ALICE_MAIN, currency: 'USD' }) },
  { path: '/api/v1beta1/get_who_am_i', base: () => ({}) },
];

export const STREAM_ENDPOINTS: GatewayEndpoint[] = [
  { path: '/api/v1beta1/create_order_subscription', base: () => ({ accounts: [ALICE_MAIN], symbols: [SYMBOL], snapshot_only: false }) },
  { path: '/api/v1beta1/create_market_data_subscription', base: () => ({ symbols: [SYMBOL], depth: 5, snapshot_only: false }) },
  { path: '/api/v1beta1/create_instrument_state_change_subscription', base: () => ({ symbols: [SYMBOL] }) },
];

/** What goes in `Authorization`: a token kind, made fresh for each request. */
export type GatewayAuth =
  | { kind: 'none' | 'valid' | 'bearer' | 'refresh' | 'registration' | 'otherUser' | 'tampered' | 'algNone' | 'wrongSecret' | 'empty' }
  | { kind: 'garbage'; text: string };

export const gatewayAuth = (validWeight: number): fc.Arbitrary<GatewayAuth> =>
  fc.oneof(
    { weight: validWeight, arbitrary: fc.constant({ kind: 'valid' as const }) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        ...(['none', 'bearer', 'refresh', 'registration', 'otherUser', 'tampered', 'algNone', 'wrongSecret', 'empty'] as const).map(
          (kind) => ({ kind }),
        ),
      ),
    },
    { weight: 1, arbitrary: hostileString.map((text) => ({ kind: 'garbage' as const, text: headerSafe(text) })) },
  );

export async function authHeader(sim: FuzzSim, auth: GatewayAuth): Promise<string | undefined> {
  const now = Math.floor(sim.h.clock.now() / 1000);
  switch (auth.kind) {
    case 'none':
      return undefined;
    case 'empty':
      return '';
    case 'valid':
      return gatewayToken(sim, 'access', 'alice');
    case 'bearer':
      return `Bearer ${await gatewayToken(sim, 'access', 'alice')}`;
    case 'refresh':
      return gatewayToken(sim, 'refresh', 'alice');
    case 'registration':
      return gatewayToken(sim, 'registration', 'alice');
    case 'otherUser':
      return gatewayToken(sim, 'access', 'bob');
    case 'tampered':
      return tamper(await gatewayToken(sim, 'access', 'alice'));
    case 'algNone':
      return unsignedJwt({ sub: 'alice', typ: 'access', iss: 'tradebot-sim-gateway', jti: 'x', iat: now, exp: now + 600 });
    case 'wrongSecret':
      return hs256Jwt(
        { sub: 'alice', typ: 'access', iss: 'tradebot-sim-gateway', jti: 'x', iat: now, exp: now + 600 },
        'not-the-simulator-secret-but-32-chars-long',
      );
    case 'garbage':
      return auth.text;
  }
}

export interface GatewayCase {
  endpoint: number;
  mutations: Mutation[];
  encoding: BodyEncoding;
  contentType: string | undefined;
  auth: GatewayAuth;
  extraHeader: [string, string] | undefined;
}

const headerName = fc.constantFrom(
  'x-participant-id',
  'x-forwarded-for',
  'host',
  'accept',
  'accept-encoding',
  'x-request-id',
  'cookie',
  'transfer-encoding-x',
);

export function gatewayCase(endpoints: readonly GatewayEndpoint[], validAuthWeight: number): fc.Arbitrary<GatewayCase> {
  return fc.record({
    endpoint: fc.nat({ max: endpoints.length - 1 }),
    mutations: fc.array(mutation, { maxLength: 4 }),
    encoding: bodyEncodingWithOversize,
    contentType,
    auth: gatewayAuth(validAuthWeight),
    extraHeader: fc.option(
      fc.tuple(
        headerName,
        hostileString.map((s) => headerSafe(s, 300)),
      ),
      { nil: undefined, freq: 4 },
    ),
  });
}

/** Sends one case and checks it; returns the tally entry. */
export async function runGatewayCase(sim: FuzzSim, endpoints: readonly GatewayEndpoint[], c: GatewayCase, tally: Tally): Promise<void> {
  const endpoint = endpoints[c.endpoint] as GatewayEndpoint;
  const base = await endpoint.base(sim);
  const body = c.mutations.length === 0 ? base : applyMutations(base, c.mutations);
  const headers: Record<string, string> = {};
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  const authorization = await authHeader(sim, c.auth);
  if (authorization !== undefined) headers['authorization'] = authorization;
  if (c.extraHeader !== undefined && c.extraHeader[0] !== 'host') headers[c.extraHeader[0]] = c.extraHeader[1];
  else if (c.extraHeader !== undefined) headers['host'] = c.extraHeader[1].replace(/[\s/]/g, '') || 'x';
  const before = stateOf(sim.h);
  const response = await send(sim.gateway, { method: 'POST', path: endpoint.path, headers, body: encodeBody(body, c.encoding) });
  const what = `POST ${endpoint.path} (${c.auth.kind}, ${c.encoding.kind})`;
  const outcome = checkGateway(response, { what });
  if (outcome === 'refused') expect(stateOf(sim.h), `${what} answered ${response.status} but changed the exchange state`).toBe(before);
  else await endpoint.after?.(sim);
  tally.add(outcome, response.status);
}

/** After a run: the server still answers a login and a valid call. */
export async function expectGatewayServing(sim: FuzzSim): Promise<void> {
  const login = await send(sim.gateway, {
    method: 'POST',
    path: '/auth/v1beta1/login',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ username: 'carol', password: PASSWORDS.carol })),
  });
  expect(login.status, login.text).toBe(200);
  const token = String((JSON.parse(login.text) as Record<string, unknown>)['accessToken']);
  const whoAmI = await send(sim.gateway, {
    method: 'POST',
    path: '/api/v1beta1/get_who_am_i',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: Buffer.from('{}'),
  });
  expect(whoAmI.status, whoAmI.text).toBe(200);
}
