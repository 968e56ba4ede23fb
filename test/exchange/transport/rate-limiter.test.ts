// TokenBucket / withRateLimit: FIFO queueing instead of failing, never more than burst + rate * T calls in any
// interval T (property-tested over random bursts), bounded queue, abortable waits. Virtual time throughout.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBucket, withRateLimit } from '../../../src/exchange/transport/index.ts';
import type { Transport } from '../../../src/exchange/transport/index.ts';
import { ManualScheduler } from './helpers/schedulers.ts';

describe('TokenBucket', () => {
  it('lets a burst through at once, then queues FIFO at the sustained rate', async () => {
    const scheduler = new ManualScheduler();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 2, scheduler });
    const granted: [number, number][] = [];
    for (let i = 0; i < 5; i++) void bucket.acquire().then(() => granted.push([i, scheduler.now()]));
    await scheduler.advanceBy(0);
    expect(granted).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(bucket.queued).toBe(3);
    await scheduler.advanceBy(1_000);
    expect(granted).toEqual([
      [0, 0],
      [1, 0],
      [2, 100],
      [3, 200],
      [4, 300],
    ]);
    expect(scheduler.pending).toBe(0);
  });

  it('defaults to 80 requests/s, below the venue limit of 100/s per firm', () => {
    expect(new TokenBucket().ratePerSecond).toBe(80);
  });

  it('refuses callers beyond maxQueue with a typed error instead of growing without bound', async () => {
    const scheduler = new ManualScheduler();
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 1, maxQueue: 2, scheduler });
    await bucket.acquire();
    const waiting = [bucket.acquire(), bucket.acquire()];
    await expect(bucket.acquire()).rejects.toMatchObject({ code: 'TRANSPORT_RATE_LIMIT_QUEUE_FULL', kind: 'rate-limited' });
    await scheduler.advanceBy(2_000);
    await Promise.all(waiting);
  });

  it('removes an aborted waiter from the queue; the ones behind it move up', async () => {
    const scheduler = new ManualScheduler();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 1, scheduler });
    await bucket.acquire();
    const controller = new AbortController();
    const first = bucket.acquire(controller.signal);
    const times: number[] = [];
    const second = bucket.acquire().then(() => times.push(scheduler.now()));
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'TRANSPORT_ABORTED' });
    await scheduler.advanceBy(100);
    await second;
    expect(times).toEqual([100]);
  });

  it('close() rejects the waiters with TRANSPORT_CLOSED and cancels its timer', async () => {
    const scheduler = new ManualScheduler();
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 1, scheduler });
    await bucket.acquire();
    const waiting = bucket.acquire();
    bucket.close();
    await expect(waiting).rejects.toMatchObject({ code: 'TRANSPORT_CLOSED' });
    expect(scheduler.pending).toBe(0);
  });

  it('never exceeds burst + rate * T in any interval T, grants in FIFO order, and grants everyone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          ratePerSecond: fc.integer({ min: 1, max: 200 }),
          burst: fc.integer({ min: 1, max: 20 }),
          // bursts of callers arriving after random gaps
          bursts: fc.array(fc.record({ gapMs: fc.integer({ min: 0, max: 300 }), size: fc.integer({ min: 1, max: 25 }) }), {
            minLength: 1,
            maxLength: 8,
          }),
        }),
        async ({ ratePerSecond, burst, bursts }) => {
          const scheduler = new ManualScheduler();
          const bucket = new TokenBucket({ ratePerSecond, burst, maxQueue: Infinity, scheduler });
          const grants: { id: number; at: number }[] = [];
          const all: Promise<void>[] = [];
          let id = 0;
          for (const b of bursts) {
            await scheduler.advanceBy(b.gapMs);
            for (let i = 0; i < b.size; i++) {
              const me = id++;
              all.push(bucket.acquire().then(() => void grants.push({ id: me, at: scheduler.now() })));
            }
          }
          const total = id;
          await scheduler.advanceBy(Math.ceil((total / ratePerSecond) * 1000) + 1_000);
          await Promise.all(all);

          expect(grants.map((g) => g.id)).toEqual([...Array(total).keys()]);
          for (let i = 0; i < grants.length; i++) {
            for (let j = i; j < grants.length; j++) {
              const span = (grants[j] as { at: number }).at - (grants[i] as { at: number }).at;
              expect(j - i + 1).toBeLessThanOrEqual(burst + (ratePerSecond * span) / 1000 + 1e-6);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('withRateLimit', () => {
  it('makes each call wait for a token and passes it through unchanged', async () => {
    const scheduler = new ManualScheduler();
    const seen: number[] = [];
    const inner: Transport = {
      async request(req) {
        seen.push(scheduler.now());
        return { status: 200, headers: {}, body: req.path };
      },
      async close() {},
    };
    const t = withRateLimit(inner, { ratePerSecond: 2, burst: 1, scheduler });
    const calls = [1, 2, 3].map((n) => t.request({ method: 'GET', path: `/${n}`, idempotent: true }));
    await scheduler.advanceBy(1_000);
    expect((await Promise.all(calls)).map((r) => r.body)).toEqual(['/1', '/2', '/3']);
    expect(seen).toEqual([0, 500, 1_000]);
  });

  it('shares one bucket between transports and aborts a queued call through the request signal', async () => {
    const scheduler = new ManualScheduler();
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 1, scheduler });
    const inner: Transport = { request: async () => ({ status: 200, headers: {}, body: null }), close: async () => {} };
    const a = withRateLimit(inner, bucket);
    const b = withRateLimit(inner, bucket);
    await a.request({ method: 'GET', path: '/a', idempotent: true });
    const controller = new AbortController();
    const queued = b.request({ method: 'GET', path: '/b', idempotent: true, signal: controller.signal });
    expect(bucket.queued).toBe(1);
    controller.abort();
    await expect(queued).rejects.toMatchObject({ code: 'TRANSPORT_ABORTED' });
    expect(bucket.queued).toBe(0);
  });
});
