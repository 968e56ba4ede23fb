// How the client composes the transport: the private link (connect to privateLinkUrl, Host of gatewayUrl)
// against the simulator, retries that re-send an insert with the SAME generated clord_id, and calls that are
// never retried (non-idempotent auth calls, rejections). A stub gateway counts what reaches it.
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayErrorCode, instrumentCatalog, isGatewayError } from '../../../src/exchange/gateway/index.ts';
import { instrumentScales } from '../../../src/domain/index.ts';
import type { GatewayClientOptions, GatewayError } from '../../../src/exchange/gateway/index.ts';
import type { TransportError } from '../../../src/exchange/transport/index.ts';
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

describe('private link', () => {
  let t: TestSim;
  beforeEach(async () => {
    t = await startTestSim({ users: ['alice'] });
  });
  afterEach(async () => {
    await t.close();
  });

  it('connects to privateLinkUrl and sends the Host of gatewayUrl', async () => {
    const client = t.clientFor('alice', { gatewayUrl: 'http://rest.sim.tradebot.local', privateLinkUrl: t.gatewayUrl });
    expect((await client.getWhoAmI()).username).toBe('alice');
    const books = await client.marketDataSnapshot({ symbols: [SYMBOL] });
    expect(books.get(SYMBOL)?.symbol).toBe(SYMBOL);
  });
});

interface Seen {
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

describe('retries against a stub gateway', () => {
  let server: http.Server;
  let url: string;
  let seen: Seen[];
  let behaviour: (seen: Seen, count: number, req: http.IncomingMessage, res: http.ServerResponse) => void;
  const clients: GatewayClient[] = [];

  const json = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  beforeEach(async () => {
    seen = [];
    server = http.createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        const entry = {
          path: req.url ?? '',
          body: JSON.parse(text || '{}') as Record<string, unknown>,
          authorization: req.headers.authorization,
        };
        seen.push(entry);
        if (entry.path === '/auth/v1beta1/login') {
          json(res, 200, { accessToken: 'access-1', refreshToken: 'refresh-1' });
          return;
        }
        behaviour(entry, seen.filter((s) => s.path === entry.path).length, req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close({ logout: false })));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const client = (overrides: Partial<GatewayClientOptions> = {}): GatewayClient => {
    const c = new GatewayClient({
      gatewayUrl: url,
      credentials: { username: 'alice', password: PASSWORDS.alice },
      instruments: instrumentCatalog(() => instrumentScales(100, 1)),
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
      newClordId: () => 'generated-1',
      ...overrides,
    });
    clients.push(c);
    return c;
  };

  it('re-sends an insert after a dropped connection with the same generated clord_id and the bare token', async () => {
    behaviour = (entry, count, req, res) => {
      if (count === 1) {
        req.socket.destroy();
        return;
      }
      json(res, 200, { order_id: 'o-1', clord_id: entry.body['clord_id'], status: 'ACCEPTED' });
    };
    const result = await client().insertOrder({
      account: ACCOUNTS.aliceMain,
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: dec('2'),
      price: dec('0.55'),
    });
    expect(result).toMatchObject({ orderId: 'o-1', clordId: 'generated-1', status: 'ACCEPTED' });
    const inserts = seen.filter((s) => s.path === '/api/v1beta1/insert_order');
    expect(inserts.map((s) => s.body['clord_id'])).toEqual(['generated-1', 'generated-1']);
    expect(inserts[1]?.body).toMatchObject({ price: '55', order_qty: '2', side: 'SIDE_BUY', account: ACCOUNTS.aliceMain });
    expect(inserts.map((s) => s.authorization)).toEqual(['access-1', 'access-1']);
  });

  it('does not re-send an insert when retryInserts is false', async () => {
    behaviour = (_entry, _count, req) => {
      req.socket.destroy();
    };
    const c = client({ retryInserts: false });
    const error = (await failure(
      c.insertOrder({
        account: ACCOUNTS.aliceMain,
        symbol: SYMBOL,
        side: 'SIDE_BUY',
        type: 'ORDER_TYPE_LIMIT',
        orderQty: dec('1'),
        price: dec('0.5'),
      }),
    )) as TransportError;
    expect([error.code, error.retryable]).toEqual(['TRANSPORT_CONNECTION_RESET', true]);
    expect(seen.filter((s) => s.path === '/api/v1beta1/insert_order')).toHaveLength(1);
  });

  it('retries an idempotent lookup after a 503 but never a rejection', async () => {
    behaviour = (_entry, count, _req, res) => {
      if (count === 1) json(res, 503, { code: 14, message: 'UNAVAILABLE', details: 'try again' });
      else json(res, 400, { code: 3, message: 'INVALID_ARGUMENT', details: 'bad filter' });
    };
    const error = await failure(client().getOpenOrders());
    expect(isGatewayError(error, GatewayErrorCode.Rejected)).toBe(true);
    expect(seen.filter((s) => s.path === '/api/v1beta1/get_open_orders')).toHaveLength(2);
  });

  it('never re-sends a non-idempotent call (change_password) after a connectivity failure', async () => {
    behaviour = (_entry, _count, req) => {
      req.socket.destroy();
    };
    const error = (await failure(client().changePassword('Another-Strong-Pass-1'))) as TransportError;
    expect(error.kind).toBe('connectivity');
    expect(seen.filter((s) => s.path === '/auth/v1beta1/change_password')).toHaveLength(1);
    expect(JSON.stringify(error.details)).not.toContain('Another-Strong-Pass-1');
  });

  it('logs out on close(): the bare access token in Authorization and both tokens in the body', async () => {
    behaviour = (_entry, _count, _req, res) => json(res, 200, {});
    const c = client();
    await c.login();
    await c.close();
    const logout = seen.find((s) => s.path === '/auth/v1beta1/logout');
    expect(logout).toEqual({
      path: '/auth/v1beta1/logout',
      authorization: 'access-1',
      body: { accessToken: 'access-1', refreshToken: 'refresh-1' },
    });
    expect(isGatewayError(await failure(c.getWhoAmI()), GatewayErrorCode.SessionClosed)).toBe(true);
  });

  it('on a 401, renews the token once (refresh refused: new login) and retries once; a second 401 is GATEWAY_AUTH_FAILED', async () => {
    behaviour = (_entry, _count, _req, res) => json(res, 401, { code: 16, message: 'UNAUTHENTICATED', details: 'access token is revoked' });
    const error = (await failure(client().getWhoAmI())) as GatewayError;
    expect(isGatewayError(error, GatewayErrorCode.AuthFailed)).toBe(true);
    expect(seen.map((s) => s.path)).toEqual([
      '/auth/v1beta1/login',
      '/api/v1beta1/get_who_am_i',
      '/auth/v1beta1/refresh_access_token',
      '/auth/v1beta1/login',
      '/api/v1beta1/get_who_am_i',
    ]);
  });
});
