// withRetry: idempotent calls that fail retryably are repeated with full-jitter backoff and Retry-After;
// non-idempotent calls are never repeated. Waits run in virtual time (InstantScheduler / ManualScheduler /
// vitest fake timers), so no test sleeps.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpTransport, TransportError, fullJitterDelay, withRetry } from '../../../src/exchange/transport/index.ts';
import type { HttpRequest, RetryInfo, Transport } from '../../../src/exchange/transport/index.ts';
import { InstantScheduler, ManualScheduler } from './helpers/schedulers.ts';
import { sendJson, servers } from './helpers/test-server.ts';

const registry = servers();
const transports: Transport[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await registry.closeAll();
});

/** A retrying transport over a real server; `delays` records every backoff chosen. */
function retrying(url: string, options: Parameters<typeof withRetry>[1] = {}): { t: Transport; delays: number[] } {
  const delays: number[] = [];
  const t = withRetry(new HttpTransport({ baseUrl: url, timeoutMs: 2_000 }), {
    scheduler: new InstantScheduler(),
    random: () => 0.5,
    onRetry: (info: RetryInfo) => delays.push(info.delayMs),
    ...options,
  });
  transports.push(t);
  return { t, delays };
}

const GET: HttpRequest = { method: 'GET', path: '/v1/orderbook/X', idempotent: true };
const INSERT: HttpRequest = { method: 'POST', path: '/api/v1beta1/insert_order', body: { clord_id: 'c1' }, idempotent: false };

describe('withRetry over HTTP', () => {
  it('retries a 429 with Retry-After when idempotent, waiting at least Retry-After', async () => {
    let calls = 0;
    const server = await registry.start((_req, res) =>
      ++calls === 1 ? sendJson(res, 429, {}, { 'retry-after': '2' }) : sendJson(res, 200, { ok: 1 }),
    );
    const { t, delays } = retrying(server.url);
    const res = await t.request(GET);
    expect(res.body).toEqual({ ok: 1 });
    expect(calls).toBe(2);
    expect(delays).toEqual([2000]);
  });

  it('does not retry a 429 when the call is not idempotent', async () => {
    let calls = 0;
    const server = await registry.start((_req, res) => {
      calls++;
      sendJson(res, 429, {}, { 'retry-after': '2' });
    });
    const { t, delays } = retrying(server.url);
    await expect(t.request(INSERT)).rejects.toMatchObject({ code: 'TRANSPORT_RATE_LIMITED', details: { retryAfterMs: 2000 } });
    expect(calls).toBe(1);
    expect(delays).toEqual([]);
  });

  it('rides out a burst of 5xx and returns the first success', async () => {
    let calls = 0;
    const server = await registry.start((_req, res) =>
      ++calls <= 3 ? sendJson(res, 503, { message: 'busy' }) : sendJson(res, 200, { n: calls }),
    );
    const { t, delays } = retrying(server.url, { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 });
    expect((await t.request(GET)).body).toEqual({ n: 4 });
    expect(calls).toBe(4);
    expect(delays).toEqual([50, 100, 200]); // random 0.5 x ceilings 100, 200, 400
  });

  it('retries an idempotent call after the connection is reset', async () => {
    let calls = 0;
    const server = await registry.start((req, res) => (++calls === 1 ? req.socket.destroy() : sendJson(res, 200, {})));
    const { t } = retrying(server.url);
    await t.request(GET);
    expect(calls).toBe(2);
  });

  it.each([
    ['503', 'TRANSPORT_SERVER_ERROR'],
    ['reset', 'TRANSPORT_CONNECTION_RESET'],
  ])('never repeats a non-idempotent call (%s)', async (kind, code) => {
    let calls = 0;
    const server = await registry.start((req, res) => {
      calls++;
      if (kind === 'reset') req.socket.destroy();
      else sendJson(res, 503, {});
    });
    const { t } = retrying(server.url);
    await expect(t.request(INSERT)).rejects.toMatchObject({ code });
    expect(calls).toBe(1);
  });

  it('does not retry rejections even when idempotent', async () => {
    let calls = 0;
    const server = await registry.start((_req, res) => {
      calls++;
      sendJson(res, 400, { code: 3, message: 'INVALID_ARGUMENT' });
    });
    const { t } = retrying(server.url);
    await expect(t.request(GET)).rejects.toMatchObject({ code: 'TRANSPORT_REJECTED' });
    expect(calls).toBe(1);
  });

  it('gives up after maxAttempts with the last error', async () => {
    let calls = 0;
    const server = await registry.start((_req, res) => {
      calls++;
      sendJson(res, 500, {});
    });
    const { t, delays } = retrying(server.url, { maxAttempts: 3 });
    await expect(t.request(GET)).rejects.toMatchObject({ code: 'TRANSPORT_SERVER_ERROR' });
    expect(calls).toBe(3);
    expect(delays).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    let calls = 0;
    const server = await registry.start((_req, res) => {
      calls++;
      sendJson(res, 429, {}, { 'retry-after': '3600' });
    });
    const { t } = retrying(server.url, { maxRetryAfterMs: 60_000 });
    await expect(t.request(GET)).rejects.toMatchObject({ code: 'TRANSPORT_RATE_LIMITED' });
    expect(calls).toBe(1);
  });
});

/** A fake transport failing `failures` times with `error`, then answering. */
function flaky(failures: number, error: unknown): Transport & { calls: number } {
  const fake = {
    calls: 0,
    async request() {
      fake.calls++;
      if (fake.calls <= failures) throw error;
      return { status: 200, headers: {}, body: { ok: true } };
    },
    async close() {},
  };
  return fake;
}

const serverError = new TransportError('TRANSPORT_SERVER_ERROR', 'HTTP 503');

describe('withRetry timing', () => {
  it('waits in scheduler time and stops waiting when the request is aborted', async () => {
    const scheduler = new ManualScheduler();
    const inner = flaky(10, serverError);
    const controller = new AbortController();
    const t = withRetry(inner, { scheduler, random: () => 0.999, baseDelayMs: 1_000 });
    const call = t.request({ ...GET, signal: controller.signal });
    await scheduler.advanceBy(998);
    expect(inner.calls).toBe(1);
    await scheduler.advanceBy(1); // floor(0.999 * 1000) = 999
    expect(inner.calls).toBe(2);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'TRANSPORT_ABORTED' });
    await scheduler.advanceBy(100_000);
    expect(inner.calls).toBe(2);
    expect(scheduler.pending).toBe(0);
  });

  it('works with vitest fake timers and the default scheduler', async () => {
    vi.useFakeTimers();
    const inner = flaky(2, serverError);
    const t = withRetry(inner, { random: () => 1, baseDelayMs: 100 });
    const call = t.request(GET);
    await vi.advanceTimersByTimeAsync(99);
    expect(inner.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1 + 200);
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(inner.calls).toBe(3);
  });

  it('never repeats a non-idempotent call, whatever retryable error it meets', async () => {
    const codes = [
      'TRANSPORT_CONNECT_FAILED',
      'TRANSPORT_TIMEOUT',
      'TRANSPORT_CONNECTION_RESET',
      'TRANSPORT_SERVER_ERROR',
      'TRANSPORT_RATE_LIMITED',
    ] as const;
    for (const code of codes) {
      const inner = flaky(1, new TransportError(code, code));
      const t = withRetry(inner, { scheduler: new InstantScheduler() });
      await expect(t.request(INSERT)).rejects.toMatchObject({ code });
      expect(inner.calls).toBe(1);
    }
  });

  it('refuses impossible options', () => {
    expect(() => withRetry(flaky(0, null), { maxAttempts: 0 })).toThrow(/maxAttempts must be >= 1/);
    expect(() => withRetry(flaky(0, null), { baseDelayMs: 500, maxDelayMs: 100 })).toThrow(/maxDelayMs/);
  });
});

describe('fullJitterDelay', () => {
  it('stays within [0, min(max, base * 2^(n-1))) for any failure count and random value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const options = { baseDelayMs: 100, maxDelayMs: 30_000 };
        const d = fullJitterDelay(n, options, () => r);
        const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (n - 1));
        return Number.isInteger(d) && d >= 0 && d < Math.max(1, ceiling);
      }),
    );
  });
});
