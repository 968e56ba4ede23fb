/**
 * The family A /v1 endpoints in one table: method, path, the scope the spec names, whether the call needs
 * a token, whether it is a trading call (those, and only those, carry `x-participant-id`), and whether
 * sending it twice is harmless (the retry wrapper repeats only those). Paths come from the spec and the notes.
 */
import type { HttpMethod } from '../transport/index.ts';

export interface Endpoint {
  readonly method: HttpMethod;
  /** Path with `{symbol}` placeholders (URL-encoded when filled). */
  readonly path: string;
  /** The scope the spec lists for it (for error hints); undefined for health. */
  readonly scope: string | undefined;
  /** Sends `Authorization: Bearer <token>`. */
  readonly authenticated: boolean;
  /** Sends `x-participant-id` (the /v1/trading calls). */
  readonly trading: boolean;
  /** Safe to repeat after a connectivity failure. Inserts override this per call (clord_id reuse). */
  readonly idempotent: boolean;
}

const read = (method: HttpMethod, path: string, scope: string): Endpoint => ({
  method,
  path,
  scope,
  authenticated: true,
  trading: false,
  idempotent: true,
});
const trade = (method: HttpMethod, path: string, scope: string, idempotent: boolean): Endpoint => ({
  method,
  path,
  scope,
  authenticated: true,
  trading: true,
  idempotent,
});
const write = (path: string, scope: string): Endpoint => ({
  method: 'POST',
  path,
  scope,
  authenticated: true,
  trading: false,
  idempotent: false,
});

export const ENDPOINTS = {
  health: { method: 'GET', path: '/v1/health', scope: undefined, authenticated: false, trading: false, idempotent: true },
  orderbook: read('GET', '/v1/orderbook/{symbol}', 'read:l2marketdata'),
  bbo: read('GET', '/v1/orderbook/{symbol}/bbo', 'read:marketdata'),
  searchTrades: read('POST', '/v1/report/trades/search', 'read:reports'),
  tradeStats: read('POST', '/v1/report/trades/stats', 'read:reports'),
  registerKycWebhook: { ...write('/v1/kyc/webhook', 'write:kyc'), idempotent: true },
  insertOrder: trade('POST', '/v1/trading/orders', 'write:orders', false),
  previewOrder: trade('POST', '/v1/trading/orders/preview', 'read:orders', true),
  cancelOrder: trade('POST', '/v1/trading/orders/cancel', 'write:orders', true),
  cancelOrderList: trade('POST', '/v1/trading/orders/cancel/list', 'write:orders', true),
  replaceOrder: trade('POST', '/v1/trading/orders/replace', 'write:orders', false),
  replaceOrderList: trade('POST', '/v1/trading/orders/replace/list', 'write:orders', false),
  openOrders: trade('GET', '/v1/trading/open-orders', 'read:orders', true),
  searchOrders: read('POST', '/v1/report/orders/search', 'read:reports'),
  positions: read('GET', '/v1/positions', 'read:positions'),
  balance: read('POST', '/v1/positions/balance', 'read:positions'),
  balances: read('POST', '/v1/positions/balances', 'read:positions'),
  refdataSymbols: read('POST', '/v1/refdata/symbols', 'read:instruments'),
  refdataInstruments: read('POST', '/v1/refdata/instruments', 'read:instruments'),
  refdataMetadata: read('POST', '/v1/refdata/metadata', 'read:instruments'),
  whoAmI: read('GET', '/v1/accounts/whoami', 'read:accounts'),
  listUsers: read('GET', '/v1/users', 'read:accounts'),
  createUser: write('/v1/users', 'write:accounts'),
  fundingAccounts: read('GET', '/v1/funding/accounts', 'read:funding'),
  aeropayDeposit: write('/v1/aeropay/deposits', 'write:funding'),
  checkoutDeposit: write('/v1/checkout/deposits', 'write:funding'),
  kycStatus: read('GET', '/v1/kyc/status', 'read:kyc'),
  kycVerify: write('/v1/kyc/verify', 'write:kyc'),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** Fills `{name}` placeholders with URL-encoded values. */
export function endpointPath(endpoint: Endpoint, params: Readonly<Record<string, string>> = {}): string {
  return endpoint.path.replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
