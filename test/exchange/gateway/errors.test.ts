// Typed gateway errors: the mapping from transport failures (stable codes and kinds: rejection, permission,
// authentication, rate-limited, connectivity), and the error paths against the real simulator: malformed
// JSON (400 INVALID_ARGUMENT), an account that is not the caller's (403), unknown symbols and off-scale
// prices (refused before sending), 429 from the gateway's per-firm limit, and a 2xx body of the wrong shape.
import { request as undiciRequest } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthedCaller,
  GatewayAuthApi,
  GatewayErrorCode,
  GatewayLookupsApi,
  instrumentCatalog,
  isGatewayError,
  toGatewayError,
} from '../../../src/exchange/gateway/index.ts';
import type { GatewayError, OrderRequestInput } from '../../../src/exchange/gateway/index.ts';
import { HttpTransport, TransportError, errorForStatus } from '../../../src/exchange/transport/index.ts';
import type { HttpRequest, HttpResponse, Transport } from '../../../src/exchange/transport/index.ts';
import { instrumentScales } from '../../../src/domain/index.ts';
import { ACCOUNTS, PASSWORDS, SYMBOL, dec, startTestSim } from './helpers/sim.ts';
import type { TestSim } from './helpers/sim.ts';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const order = (extra: Partial<OrderRequestInput> = {}): OrderRequestInput => ({
  account: ACCOUNTS.aliceMain,
  symbol: SYMBOL,
  side: 'SIDE_BUY',
  type: 'ORDER_TYPE_LIMIT',
  orderQty: dec('1'),
  price: dec('0.50'),
  ...extra,
});

/** A transport that sends a string body verbatim (not JSON-encoded), to put malformed JSON on the wire. */
function rawTextTransport(baseUrl: string): Transport {
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const res = await undiciRequest(`${baseUrl}${req.path}`, {
        method: req.method,
        headers: { 'content-type': 'application/json', ...req.headers },
        body: typeof req.body === 'string' ? req.body : JSON.stringify(req.body),
      });
      const text = await res.body.text();
      const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
      if (res.statusCode >= 300)
        throw errorForStatus(res.statusCode, headers, text, { method: req.method, path: req.path, origin: baseUrl }, 0);
      return { status: res.statusCode, headers, body: JSON.parse(text) as unknown };
    },
    close: async () => undefined,
  };
}

describe('toGatewayError', () => {
  const statusError = (status: number, body: unknown, headers: Record<string, string> = {}): TransportError =>
    errorForStatus(status, headers, JSON.stringify(body), { method: 'POST', path: '/api/v1beta1/insert_order', origin: 'http://x' }, 0);

  it.each([
    [400, 3, 'INVALID_ARGUMENT', GatewayErrorCode.Rejected, 'rejection'],
    [404, 5, 'NOT_FOUND', GatewayErrorCode.Rejected, 'rejection'],
    [403, 7, 'PERMISSION_DENIED', GatewayErrorCode.PermissionDenied, 'permission'],
    [401, 16, 'UNAUTHENTICATED', GatewayErrorCode.AuthFailed, 'authentication'],
  ])('maps HTTP %i (gRPC %i %s) to %s of kind %s, keeping the exchange body', (status, code, message, expected, kind) => {
    const mapped = toGatewayError(statusError(status, { code, message, details: 'what went wrong' }), 'insert_order') as GatewayError;
    expect(isGatewayError(mapped, expected)).toBe(true);
    expect([mapped.kind, mapped.retryable, mapped.httpStatus]).toEqual([kind, false, status]);
    expect(mapped.exchange).toEqual({ code, message, details: 'what went wrong' });
    expect(mapped.message).toContain('what went wrong');
    expect(mapped.cause).toBeInstanceOf(TransportError);
  });

  it('passes rate limits and connectivity errors through with their transport codes (retryable)', () => {
    const limited = toGatewayError(
      statusError(429, { code: 8, message: 'RESOURCE_EXHAUSTED', details: 'slow down' }, { 'retry-after': '2' }),
      'x',
    ) as TransportError;
    expect([limited.code, limited.kind, limited.retryable, limited.details?.['retryAfterMs']]).toEqual([
      'TRANSPORT_RATE_LIMITED',
      'rate-limited',
      true,
      2000,
    ]);
    const server = toGatewayError(statusError(503, { code: 14, message: 'UNAVAILABLE', details: '' }), 'x') as TransportError;
    expect([server.code, server.kind, server.retryable]).toEqual(['TRANSPORT_SERVER_ERROR', 'connectivity', true]);
    const reset = new TransportError('TRANSPORT_CONNECTION_RESET', 'broke');
    expect(toGatewayError(reset, 'x')).toBe(reset);
  });

  it('maps stream error lines by their gRPC status', () => {
    const line = (grpcCode: number, kind: 'rejection' | 'permission' | 'connectivity') =>
      new TransportError('STREAM_ERROR', 'stream error', { kind, details: { grpcCode, grpcMessage: 'M' } });
    expect(isGatewayError(toGatewayError(line(3, 'rejection'), 's'), GatewayErrorCode.Rejected)).toBe(true);
    expect(isGatewayError(toGatewayError(line(7, 'permission'), 's'), GatewayErrorCode.PermissionDenied)).toBe(true);
    expect((toGatewayError(line(14, 'connectivity'), 's') as TransportError).code).toBe('STREAM_ERROR');
  });

  it('scrubs token-like text out of the exchange body', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXZhbHVl';
    const mapped = toGatewayError(
      statusError(401, { code: 16, message: 'UNAUTHENTICATED', details: `token ${jwt} is expired` }),
      'x',
    ) as GatewayError;
    expect(mapped.message).not.toContain(jwt);
    expect(JSON.stringify(mapped.exchange)).not.toContain(jwt);
  });

  it('reports a 2xx body of the wrong shape as GATEWAY_BAD_RESPONSE naming the field', async () => {
    const fake: Transport = {
      request: async () => ({ status: 200, headers: {}, body: { trade: 'not a list' } }),
      close: async () => undefined,
    };
    const tokens = { accessToken: async () => 't', recoverFromUnauthorized: async () => 't' };
    const lookups = new GatewayLookupsApi(new AuthedCaller(fake, tokens), instrumentCatalog(new Map()));
    const error = await failure(lookups.searchTrades());
    expect(isGatewayError(error, GatewayErrorCode.BadResponse)).toBe(true);
    expect((error as Error).message).toMatch(/search_trades: .*trade/);
    expect((error as GatewayError).kind).toBe('validation');
  });
});

describe('gateway error paths against the simulator', () => {
  let t: TestSim;
  beforeEach(async () => {
    t = await startTestSim({ rateLimitPerSecond: 5, users: ['alice'] });
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers malformed JSON with 400 INVALID_ARGUMENT, typed as GATEWAY_REJECTED', async () => {
    const http = new HttpTransport({ baseUrl: t.gatewayUrl });
    try {
      const tokens = await new GatewayAuthApi(http).login({ username: 'alice', password: PASSWORDS.alice, otp: '' });
      const fixed = { accessToken: async () => tokens.accessToken, recoverFromUnauthorized: async () => tokens.accessToken };
      const caller = new AuthedCaller(rawTextTransport(t.gatewayUrl), fixed);
      const error = await failure(caller.call('insert_order', '{"symbol": "RAIN', { idempotent: false }));
      expect(isGatewayError(error, GatewayErrorCode.Rejected)).toBe(true);
      expect((error as GatewayError).httpStatus).toBe(400);
      expect((error as GatewayError).exchange).toMatchObject({ code: 3, message: 'INVALID_ARGUMENT' });
      expect((error as GatewayError).exchange?.details).toMatch(/malformed JSON/);
    } finally {
      await http.close();
    }
  });

  it('refuses an account that is not the caller with GATEWAY_PERMISSION_DENIED (403, not retryable)', async () => {
    const alice = t.clientFor('alice');
    const error = await failure(alice.insertOrder(order({ account: ACCOUNTS.bobMain })));
    expect(isGatewayError(error, GatewayErrorCode.PermissionDenied)).toBe(true);
    expect([(error as GatewayError).kind, (error as GatewayError).retryable, (error as GatewayError).httpStatus]).toEqual([
      'permission',
      false,
      403,
    ]);
    expect((error as GatewayError).exchange).toMatchObject({ code: 7, message: 'PERMISSION_DENIED' });
    const balance = await failure(alice.getAccountBalance({ name: ACCOUNTS.bobMain }));
    expect(isGatewayError(balance, GatewayErrorCode.PermissionDenied)).toBe(true);
  });

  it('rejects a symbol the gateway does not list with GATEWAY_REJECTED (400 INVALID_ARGUMENT)', async () => {
    const catalog = instrumentCatalog((symbol) => (symbol === 'NO-SUCH' ? instrumentScales(100, 1) : t.catalog.scalesOf(symbol)));
    const alice = t.clientFor('alice', { instruments: catalog });
    const error = await failure(alice.insertOrder(order({ symbol: 'NO-SUCH' })));
    expect(isGatewayError(error, GatewayErrorCode.Rejected)).toBe(true);
    expect((error as GatewayError).exchange).toMatchObject({ code: 3 });
  });

  it('refuses before sending a symbol missing from the catalog or a price off the instrument scale', async () => {
    const alice = t.clientFor('alice');
    expect((await failure(alice.insertOrder(order({ symbol: 'UNLISTED' })))) as { code: string }).toMatchObject({
      code: 'SCALE_UNKNOWN_SYMBOL',
    });
    expect((await failure(alice.insertOrder(order({ price: dec('0.555') })))) as { code: string }).toMatchObject({
      code: 'SCALE_NOT_REPRESENTABLE',
    });
    expect([...t.sim.core.allOrders()]).toEqual([]);
  });

  it('maps the gateway 429 to TRANSPORT_RATE_LIMITED with Retry-After', async () => {
    const alice = t.clientFor('alice', { retry: false });
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => alice.getWhoAmI()));
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as TransportError);
    expect(rejected.length).toBeGreaterThan(0);
    for (const error of rejected) {
      expect([error.code, error.kind, error.retryable]).toEqual(['TRANSPORT_RATE_LIMITED', 'rate-limited', true]);
      expect(error.details?.['retryAfterMs']).toBe(1000);
      expect(error.details?.['exchangeCode']).toBe(8);
    }
    t.clock.advance(1_000); // the gateway's bucket refills on its clock
    await expect(alice.getWhoAmI()).resolves.toMatchObject({ username: 'alice' });
  });

  it('reports an unreachable gateway as a retryable connectivity error', async () => {
    const port = t.sim.ready.gateway.split(':').at(-1);
    await t.sim.close();
    const alice = t.clientFor('alice', { gatewayUrl: `http://127.0.0.1:${port}` });
    const error = (await failure(alice.getWhoAmI())) as TransportError;
    expect([error.code, error.kind, error.retryable]).toEqual(['TRANSPORT_CONNECT_FAILED', 'connectivity', true]);
    t = await startTestSim({ users: ['alice'] }); // afterEach closes it
  });
});
