// HttpTransport deadlines: the per-call timeout covers connect, headers and body, maps to TRANSPORT_TIMEOUT,
// and aborts the HTTP request so the socket is released. Time is virtual (ManualScheduler): no sleeps.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../../src/exchange/transport/index.ts';
import { ManualScheduler } from './helpers/schedulers.ts';
import { deferred, servers } from './helpers/test-server.ts';

const registry = servers();
const transports: HttpTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await registry.closeAll();
});

function transport(url: string, scheduler: ManualScheduler, timeoutMs?: number): HttpTransport {
  const t = new HttpTransport({ baseUrl: url, scheduler, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  transports.push(t);
  return t;
}

/** Tracks whether a promise has settled, without awaiting it. */
function track<T>(promise: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { settled: () => done, promise };
}

describe('HttpTransport timeout', () => {
  it('fails a call whose server never answers with TRANSPORT_TIMEOUT at the default 15 s deadline', async () => {
    const seen = deferred();
    const closed = deferred();
    const server = await registry.start((req) => {
      req.on('close', () => closed.resolve());
      seen.resolve();
    });
    const scheduler = new ManualScheduler();
    const call = track(transport(server.url, scheduler).request({ method: 'GET', path: '/slow', idempotent: true }));
    await seen.promise;

    await scheduler.advanceBy(14_999);
    expect(call.settled()).toBe(false);
    await scheduler.advanceBy(1);

    await expect(call.promise).rejects.toMatchObject({
      code: 'TRANSPORT_TIMEOUT',
      kind: 'connectivity',
      retryable: true,
      details: { method: 'GET', path: '/slow', timeoutMs: 15_000 },
    });
    await closed.promise; // the request was aborted server-side: no socket left waiting
  });

  it('honours a per-call timeoutMs over the transport default', async () => {
    const seen = deferred();
    const server = await registry.start(() => seen.resolve());
    const scheduler = new ManualScheduler();
    const call = track(
      transport(server.url, scheduler, 60_000).request({ method: 'POST', path: '/x', body: {}, idempotent: false, timeoutMs: 500 }),
    );
    await seen.promise;
    await scheduler.advanceBy(500);
    await expect(call.promise).rejects.toMatchObject({ code: 'TRANSPORT_TIMEOUT', details: { timeoutMs: 500 } });
  });

  it('counts the body against the deadline: headers then a stalled body time out', async () => {
    const headersSent = deferred();
    const server = await registry.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":', () => headersSent.resolve());
    });
    const scheduler = new ManualScheduler();
    const call = track(transport(server.url, scheduler, 1_000).request({ method: 'GET', path: '/stall', idempotent: true }));
    await headersSent.promise;
    await scheduler.advanceBy(999);
    expect(call.settled()).toBe(false);
    await scheduler.advanceBy(1);
    await expect(call.promise).rejects.toMatchObject({ code: 'TRANSPORT_TIMEOUT' });
  });

  it('cancels its deadline timer when the call completes', async () => {
    const server = await registry.start((_req, res) => res.end('{"ok":true}'));
    const scheduler = new ManualScheduler();
    const res = await transport(server.url, scheduler).request({ method: 'GET', path: '/ok', idempotent: true });
    expect(res.body).toEqual({ ok: true });
    expect(scheduler.pending).toBe(0);
  });

  it('maps the caller aborting to TRANSPORT_ABORTED (not retryable) and aborts the request', async () => {
    const seen = deferred();
    const closed = deferred();
    const server = await registry.start((req) => {
      req.on('close', () => closed.resolve());
      seen.resolve();
    });
    const scheduler = new ManualScheduler();
    const controller = new AbortController();
    const call = transport(server.url, scheduler).request({ method: 'GET', path: '/a', idempotent: true, signal: controller.signal });
    await seen.promise;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'TRANSPORT_ABORTED', retryable: false });
    await closed.promise;
    expect(scheduler.pending).toBe(0);
  });
});
