// HttpTransport failure mapping: sockets and statuses become typed TransportErrors with the right code and kind,
// and no error ever carries the request's Authorization header or body.
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { errors as undiciErrors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, isTransportError, mapFailure, parseRetryAfter } from '../../../src/exchange/transport/index.ts';
import type { HttpRequest } from '../../../src/exchange/transport/index.ts';
import { closedPort, readBody, sendJson, servers } from './helpers/test-server.ts';

const registry = servers();
const transports: HttpTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await registry.closeAll();
});

function transport(baseUrl: string, extra: { maxResponseBytes?: number } = {}): HttpTransport {
  const t = new HttpTransport({ baseUrl, ...extra });
  transports.push(t);
  return t;
}

const GET: HttpRequest = { method: 'GET', path: '/v1/thing', idempotent: true };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('HttpTransport connectivity errors', () => {
  it('maps connection refused to TRANSPORT_CONNECT_FAILED (connectivity)', async () => {
    const port = await closedPort();
    const error = await failure(transport(`http://127.0.0.1:${port}`).request(GET));
    expect(error).toMatchObject({ code: 'TRANSPORT_CONNECT_FAILED', kind: 'connectivity', details: { systemCode: 'ECONNREFUSED' } });
  });

  it('maps a socket destroyed before the response to TRANSPORT_CONNECTION_RESET', async () => {
    const server = await registry.start((req) => req.socket.destroy());
    const error = await failure(transport(server.url).request(GET));
    expect(error).toMatchObject({ code: 'TRANSPORT_CONNECTION_RESET', kind: 'connectivity' });
  });

  it('maps a socket destroyed in the middle of the body to a connectivity error', async () => {
    const server = await registry.start((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"orders":[', () => req.socket.destroy());
    });
    const error = await failure(transport(server.url).request(GET));
    expect(error).toMatchObject({ code: 'TRANSPORT_CONNECTION_RESET', kind: 'connectivity', retryable: true });
  });

  it('maps undici timeout, socket and TLS errors by code', () => {
    const ctx = { method: 'GET', path: '/p', origin: 'https://x' };
    const state = { timedOut: false, timeoutMs: 15_000, callerSignal: undefined };
    expect(mapFailure(new undiciErrors.HeadersTimeoutError(), ctx, state).code).toBe('TRANSPORT_TIMEOUT');
    expect(mapFailure(new undiciErrors.BodyTimeoutError(), ctx, state).code).toBe('TRANSPORT_TIMEOUT');
    expect(mapFailure(new undiciErrors.ConnectTimeoutError(), ctx, state).code).toBe('TRANSPORT_CONNECT_FAILED');
    expect(mapFailure(new undiciErrors.SocketError('other side closed'), ctx, state).code).toBe('TRANSPORT_CONNECTION_RESET');
    expect(mapFailure(new undiciErrors.ClientDestroyedError(), ctx, state).code).toBe('TRANSPORT_CLOSED');
    const tls = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    expect(mapFailure(tls, ctx, state)).toMatchObject({ code: 'TRANSPORT_TLS_FAILED', kind: 'config' });
    expect(mapFailure(new TypeError('boom'), ctx, state)).toMatchObject({ code: 'TRANSPORT_UNEXPECTED', kind: 'internal' });
  });

  it('fails calls after close() with TRANSPORT_CLOSED', async () => {
    const server = await registry.start((_req, res) => sendJson(res, 200, {}));
    const t = transport(server.url);
    await t.close();
    await expect(t.request(GET)).rejects.toMatchObject({ code: 'TRANSPORT_CLOSED' });
  });
});

describe('HttpTransport status mapping', () => {
  it('maps 401 to TRANSPORT_UNAUTHORIZED (authentication) and 403 to TRANSPORT_FORBIDDEN (permission)', async () => {
    const server = await registry.start((req, res) => sendJson(res, req.url === '/401' ? 401 : 403, { message: 'no' }));
    const t = transport(server.url);
    expect(await failure(t.request({ ...GET, path: '/401' }))).toMatchObject({
      code: 'TRANSPORT_UNAUTHORIZED',
      kind: 'authentication',
      retryable: false,
    });
    expect(await failure(t.request({ ...GET, path: '/403' }))).toMatchObject({
      code: 'TRANSPORT_FORBIDDEN',
      kind: 'permission',
      retryable: false,
    });
  });

  it('maps a gateway 400 to TRANSPORT_REJECTED with the parsed {code, message, details} body attached', async () => {
    const body = { code: 3, message: 'INVALID_ARGUMENT', details: 'unknown symbol NOPE' };
    const server = await registry.start((_req, res) => sendJson(res, 400, body));
    const error = await failure(
      transport(server.url).request({ method: 'POST', path: '/api/v1beta1/insert_order', body: {}, idempotent: false }),
    );
    expect(error).toMatchObject({
      code: 'TRANSPORT_REJECTED',
      kind: 'rejection',
      details: { status: 400, body, exchangeCode: 3, exchangeMessage: 'INVALID_ARGUMENT', path: '/api/v1beta1/insert_order' },
    });
    expect((error as Error).message).toContain('INVALID_ARGUMENT');
    expect((error as Error).message).toContain('unknown symbol NOPE');
  });

  it('keeps a non-JSON error body as truncated text', async () => {
    const server = await registry.start((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(`<html>${'x'.repeat(5000)}</html>`);
    });
    const error = await failure(transport(server.url).request(GET));
    expect(error).toMatchObject({ code: 'TRANSPORT_REJECTED', details: { status: 404 } });
    const text = (error as { details: { body: string } }).details.body;
    expect(text.startsWith('<html>')).toBe(true);
    expect(text.length).toBeLessThan(1100);
  });

  it('maps 429 to TRANSPORT_RATE_LIMITED with Retry-After in ms', async () => {
    const server = await registry.start((_req, res) => sendJson(res, 429, {}, { 'retry-after': '2' }));
    expect(await failure(transport(server.url).request(GET))).toMatchObject({
      code: 'TRANSPORT_RATE_LIMITED',
      kind: 'rate-limited',
      retryable: true,
      details: { retryAfterMs: 2000 },
    });
  });

  it('parses Retry-After as delta-seconds or an HTTP date relative to the injected clock', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('maps 5xx to TRANSPORT_SERVER_ERROR (connectivity)', async () => {
    const server = await registry.start((_req, res) => sendJson(res, 503, { message: 'busy' }));
    expect(await failure(transport(server.url).request(GET))).toMatchObject({
      code: 'TRANSPORT_SERVER_ERROR',
      kind: 'connectivity',
      details: { status: 503 },
    });
  });

  it('maps a non-JSON 2xx body and an unexpected redirect to TRANSPORT_BAD_RESPONSE', async () => {
    const server = await registry.start((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://elsewhere.example/' });
        res.end();
      } else {
        res.end('not json');
      }
    });
    const t = transport(server.url);
    expect(await failure(t.request(GET))).toMatchObject({ code: 'TRANSPORT_BAD_RESPONSE', details: { body: 'not json' } });
    expect(await failure(t.request({ ...GET, path: '/redirect' }))).toMatchObject({
      code: 'TRANSPORT_BAD_RESPONSE',
      details: { status: 302 },
    });
  });

  it('refuses a body larger than maxResponseBytes', async () => {
    const server = await registry.start((_req, res) => sendJson(res, 200, { data: 'y'.repeat(10_000) }));
    expect(await failure(transport(server.url, { maxResponseBytes: 1_000 }).request(GET))).toMatchObject({
      code: 'TRANSPORT_BAD_RESPONSE',
    });
  });

  it('returns status, lower-cased headers and parsed JSON; an empty body is null', async () => {
    const server = await registry.start(async (req, res) => {
      if (req.url?.startsWith('/empty') === true) {
        res.writeHead(204);
        res.end();
        return;
      }
      const received = await readBody(req);
      sendJson(
        res,
        200,
        { url: req.url, contentType: req.headers['content-type'], received: JSON.parse(received) as unknown },
        { 'X-Thing': 'a' },
      );
    });
    const t = transport(server.url);
    const res = await t.request({
      method: 'POST',
      path: '/v1/report/trades/search',
      query: { depth: 3, symbols: ['A', 'B'], skip: undefined },
      body: { pageSize: 10 },
      idempotent: true,
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-thing']).toBe('a');
    expect(res.body).toEqual({
      url: '/v1/report/trades/search?depth=3&symbols=A&symbols=B',
      contentType: 'application/json',
      received: { pageSize: 10 },
    });
    expect((await t.request({ ...GET, path: '/empty' })).body).toBeNull();
  });
});

describe('HttpTransport validation', () => {
  it('refuses bad options with TRANSPORT_INVALID_OPTIONS (kind config) naming each problem', () => {
    try {
      new HttpTransport({ baseUrl: 'ftp://x', privateLinkUrl: 'http://10.0.0.1/path', timeoutMs: -1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'TRANSPORT_INVALID_OPTIONS', kind: 'config' });
      expect((error as Error).message).toMatch(/baseUrl must be http\(s\)/);
      expect((error as Error).message).toMatch(/privateLinkUrl must be an origin only/);
      expect((error as Error).message).toMatch(/timeoutMs must be >= 1/);
    }
  });

  it('refuses absolute URLs and protocol-relative paths so credentials cannot go to another host', async () => {
    const server = await registry.start((_req, res) => sendJson(res, 200, {}));
    const t = transport(server.url);
    for (const path of ['http://evil.example/x', '//evil.example/x', 'v1/no-slash']) {
      await expect(t.request({ ...GET, path })).rejects.toMatchObject({ code: 'TRANSPORT_INVALID_REQUEST' });
    }
  });
});

describe('secrets never reach errors', () => {
  const TOKEN = 'eyJSECRET-ACCESS-TOKEN';
  const PASSWORD = 'hunter2-SECRET-PASSWORD';
  const login: HttpRequest = {
    method: 'POST',
    path: '/auth/v1beta1/login',
    headers: { Authorization: TOKEN },
    body: { username: 'alice', password: PASSWORD },
    idempotent: false,
  };

  function expectNoSecrets(error: unknown): void {
    expect(isTransportError(error)).toBe(true);
    const rendered = [
      (error as Error).message,
      (error as Error).stack ?? '',
      JSON.stringify((error as { details?: unknown }).details ?? null),
      inspect(error, { depth: Infinity }),
    ].join('\n');
    expect(rendered).not.toContain(TOKEN);
    expect(rendered).not.toContain(PASSWORD);
  }

  it.each([
    ['400', (res: ServerResponse) => sendJson(res, 400, { code: 3, message: 'INVALID_ARGUMENT', details: 'bad' })],
    ['401', (res: ServerResponse) => sendJson(res, 401, {})],
    ['429', (res: ServerResponse) => sendJson(res, 429, {}, { 'retry-after': '1' })],
    ['500', (res: ServerResponse) => sendJson(res, 500, {})],
    ['non-JSON 200', (res: ServerResponse) => res.end('<oops>')],
    ['reset', (res: ServerResponse) => res.socket?.destroy()],
  ])('%s: the error holds neither the Authorization header nor the password', async (_name, respond) => {
    const server = await registry.start(async (req, res) => {
      await readBody(req);
      respond(res);
    });
    expectNoSecrets(await failure(transport(server.url).request(login)));
  });

  it('connection refused: the error holds neither secret', async () => {
    const port = await closedPort();
    expectNoSecrets(await failure(transport(`http://127.0.0.1:${port}`).request(login)));
  });

  it('an unserialisable body is refused without quoting it', async () => {
    const server = await registry.start((_req, res) => sendJson(res, 200, {}));
    const body: Record<string, unknown> = { password: PASSWORD };
    body['self'] = body;
    expectNoSecrets(await failure(transport(server.url).request({ ...login, body })));
  });
});
