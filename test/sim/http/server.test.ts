/**
 * The simulator's HTTP server on node:http: JSON replies and error rendering, the request body reader
 * (empty, malformed, non-object, form-encoded and oversized bodies), handler crashes answered 500 while the
 * server keeps serving, the `before` hook, and NDJSON streams (line framing, error last line, client
 * disconnect, server close). Each test starts its own server on 127.0.0.1 port 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningHttpServer } from '../../../src/sim/http/server.ts';
import { Router, type NdjsonSink } from '../../../src/sim/http/router.ts';
import { SimHttpError, gatewayErrorBody, invalidArgument } from '../../../src/sim/http/errors.ts';
import { MAX_BODY_BYTES } from '../../../src/sim/http/json-body.ts';
import { silentLogger } from '../../../src/logging/logger.ts';

let server: RunningHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(router: Router, before?: Parameters<typeof startHttpServer>[0]['before']): Promise<RunningHttpServer> {
  server = await startHttpServer({
    router,
    port: 0,
    logger: silentLogger(),
    renderError: (error) => ({ status: error.httpStatus, body: gatewayErrorBody(error), headers: error.headers }),
    ...(before === undefined ? {} : { before }),
  });
  return server;
}

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${server?.url}${path}`, { method: 'POST', ...init });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: response.headers };
}

/** A deferred value, resolved from a server-side callback. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const echo = new Router().post('/echo', async (context) => ({ body: { got: await context.body() } }));

describe('JSON requests and replies', () => {
  it('binds 127.0.0.1 on a free port and echoes a JSON object body', async () => {
    const s = await serve(echo);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.port).toBeGreaterThan(0);
    const response = await call('/echo', { body: JSON.stringify({ a: 1, b: ['x'] }), headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({ got: { a: 1, b: ['x'] } });
  });

  it('reads an empty body as {}', async () => {
    await serve(echo);
    expect((await call('/echo')).body).toEqual({ got: {} });
    expect((await call('/echo', { body: '   \n' })).body).toEqual({ got: {} });
  });

  it('reads a form-encoded body as a flat object', async () => {
    await serve(echo);
    const response = await call('/echo', {
      body: 'grant_type=client_credentials&client_id=bot',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.body).toEqual({ got: { grant_type: 'client_credentials', client_id: 'bot' } });
  });

  it.each([
    ['malformed JSON', '{"a":'],
    ['an array', '[]'],
    ['a string', '"x"'],
    ['null', 'null'],
  ])('answers %s with 400 INVALID_ARGUMENT', async (_name, body) => {
    await serve(echo);
    const response = await call('/echo', { body, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 3, message: 'INVALID_ARGUMENT' });
  });

  it('answers a body over the size cap with 400 and keeps serving', async () => {
    await serve(echo);
    const big = JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES) });
    const response = await call('/echo', { body: big, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 3, details: expect.stringContaining(`${MAX_BODY_BYTES}`) });
    expect((await call('/echo', { body: '{"ok":true}' })).body).toEqual({ got: { ok: true } });
  });

  it('renders a thrown SimHttpError with its status and headers', async () => {
    await serve(
      new Router().post('/limited', () => {
        throw new SimHttpError('RESOURCE_EXHAUSTED', 'slow down', { 'retry-after': '2' });
      }),
    );
    const response = await call('/limited');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.body).toEqual({ code: 8, message: 'RESOURCE_EXHAUSTED', details: 'slow down' });
  });

  it('answers a handler crash with 500 INTERNAL without leaking the error, and keeps serving', async () => {
    await serve(
      new Router()
        .post('/crash', () => {
          throw new Error('secret internal detail');
        })
        .post('/fine', () => ({ status: 201, body: { fine: true } })),
    );
    const crashed = await call('/crash');
    expect(crashed.status).toBe(500);
    expect(crashed.body).toEqual({ code: 13, message: 'INTERNAL', details: 'internal error in the simulator' });
    const fine = await call('/fine');
    expect(fine.status).toBe(201);
    expect(fine.body).toEqual({ fine: true });
  });

  it('runs the before hook after routing: it can refuse a known route, unknown paths stay 404', async () => {
    const seen: string[] = [];
    await serve(echo, (context) => {
      seen.push(context.path);
      if (context.headers['x-deny'] !== undefined) throw new SimHttpError('PERMISSION_DENIED', 'denied by hook');
    });
    expect((await call('/echo', { headers: { 'x-deny': '1' } })).status).toBe(403);
    expect((await call('/nowhere')).status).toBe(404);
    expect((await call('/echo')).status).toBe(200);
    expect(seen).toEqual(['/echo', '/echo']);
  });

  it('answers GET on a POST route with 501', async () => {
    await serve(echo);
    const response = await call('/echo', { method: 'GET' });
    expect(response.status).toBe(501);
    expect(response.body).toMatchObject({ code: 12, message: 'UNIMPLEMENTED' });
  });
});

describe('NDJSON streams', () => {
  /** A router whose /stream hands its sink to the test. */
  function streamRouter(): { router: Router; sink: Promise<NdjsonSink>; closed: Promise<void> } {
    const sink = deferred<NdjsonSink>();
    const closed = deferred<void>();
    const router = new Router().post('/stream', () => ({
      kind: 'ndjson',
      start(s) {
        s.onClose(() => closed.resolve());
        sink.resolve(s);
      },
    }));
    return { router, sink: sink.promise, closed: closed.promise };
  }

  it('writes one JSON object per line and ends the body on end()', async () => {
    const { router, sink } = streamRouter();
    await serve(router);
    const response = await fetch(`${server?.url}/stream`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const s = await sink;
    s.send({ result: { n: 1 } });
    s.send({ result: { n: 2 } });
    s.end();
    expect(s.closed).toBe(true);
    s.send({ result: { n: 3 } });
    expect(await response.text()).toBe('{"result":{"n":1}}\n{"result":{"n":2}}\n');
  });

  it('ends with an {"error": ...} last line (no trailing newline) when ended with an error', async () => {
    const { router, sink } = streamRouter();
    await serve(router);
    const response = await fetch(`${server?.url}/stream`, { method: 'POST' });
    const s = await sink;
    s.send({ result: { n: 1 } });
    s.end(invalidArgument('bad subscription'));
    expect(await response.text()).toBe(
      '{"result":{"n":1}}\n' +
        '{"error":{"code":3,"message":"INVALID_ARGUMENT",' +
        '"details":[{"@type":"type.googleapis.com/google.rpc.DebugInfo","detail":"bad subscription"}]}}',
    );
  });

  it('calls onClose when the client goes away', async () => {
    const { router, sink, closed } = streamRouter();
    await serve(router);
    const controller = new AbortController();
    const response = await fetch(`${server?.url}/stream`, { method: 'POST', signal: controller.signal });
    const s = await sink;
    s.send({ result: { hello: true } });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await closed;
    expect(s.closed).toBe(true);
    let late = false;
    s.onClose(() => (late = true));
    expect(late).toBe(true);
  });

  it('close() ends open streams so the client sees the body end', async () => {
    const { router, sink, closed } = streamRouter();
    const s = await serve(router);
    const response = await fetch(`${s.url}/stream`, { method: 'POST' });
    const open = await sink;
    open.send({ result: { n: 1 } });
    const text = response.text();
    await s.close();
    server = undefined;
    await closed;
    expect(await text).toBe('{"result":{"n":1}}\n');
  });

  it('a stream whose start() throws ends with an INTERNAL error line', async () => {
    await serve(
      new Router().post('/broken', () => ({
        kind: 'ndjson',
        start() {
          throw new Error('boom');
        },
      })),
    );
    const response = await fetch(`${server?.url}/broken`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(JSON.parse(await response.text())).toEqual({
      error: {
        code: 13,
        message: 'INTERNAL',
        details: [{ '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail: 'stream failed to start' }],
      },
    });
  });
});
