/**
 * The scope each /v1 endpoint needs, in one table (the spec's "Scope per endpoint", plus our choices for
 * the endpoints it does not list: preview -> read:orders, cancel/replace lists -> write:orders,
 * trades/stats -> read:reports, kyc/webhook -> write:kyc, /v1/whoami -> read:accounts). Health needs none.
 */
import type { SCOPES } from '../config.ts';

export type Scope = (typeof SCOPES)[number];

export const ENDPOINT_SCOPES = {
  'POST /v1/trading/orders': 'write:orders',
  'POST /v1/trading/orders/preview': 'read:orders',
  'POST /v1/trading/orders/cancel': 'write:orders',
  'POST /v1/trading/orders/cancel/list': 'write:orders',
  'POST /v1/trading/orders/replace': 'write:orders',
  'POST /v1/trading/orders/replace/list': 'write:orders',
  'GET /v1/trading/open-orders': 'read:orders',
  'POST /v1/report/orders/search': 'read:reports',
  'POST /v1/report/trades/search': 'read:reports',
  'POST /v1/report/trades/stats': 'read:reports',
  'GET /v1/positions': 'read:positions',
  'POST /v1/positions/balance': 'read:positions',
  'POST /v1/positions/balances': 'read:positions',
  'GET /v1/orderbook/:symbol': 'read:l2marketdata',
  'GET /v1/orderbook/:symbol/bbo': 'read:marketdata',
  'POST /v1/refdata/symbols': 'read:instruments',
  'POST /v1/refdata/instruments': 'read:instruments',
  'POST /v1/refdata/metadata': 'read:instruments',
  'GET /v1/accounts/whoami': 'read:accounts',
  'GET /v1/whoami': 'read:accounts',
  'GET /v1/users': 'read:accounts',
  'POST /v1/users': 'write:accounts',
  'GET /v1/funding/accounts': 'read:funding',
  'POST /v1/aeropay/deposits': 'write:funding',
  'POST /v1/checkout/deposits': 'write:funding',
  'GET /v1/kyc/status': 'read:kyc',
  'POST /v1/kyc/verify': 'write:kyc',
  'POST /v1/kyc/webhook': 'write:kyc',
} as const satisfies Record<string, Scope>;

export type Endpoint = keyof typeof ENDPOINT_SCOPES;
