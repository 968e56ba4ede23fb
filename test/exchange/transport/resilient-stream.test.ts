// resilientStream: reconnects with backoff after errors, unexpected completion and silence; resubscribes via the
// factory; emits connected/message/disconnected; dedupes across reconnects; awaits onUnauthenticated; stops on
// fatal errors. Virtual time (rxjs TestScheduler) for the logic, plus real HTTP NDJSON servers end to end.
import { defer } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, TransportError, resilientStream } from '../../../src/exchange/transport/index.ts';
import type { ResilientStreamOptions, StreamEvent } from '../../../src/exchange/transport/index.ts';
import { ManualScheduler } from './helpers/schedulers.ts';
import { deferred, readBody, sendJson, servers } from './helpers/test-server.ts';

const reset = new TransportError('TRANSPORT_CONNECTION_RESET', 'connection broke');
const unauthorized = new TransportError('TRANSPORT_UNAUTHORIZED', 'HTTP 401');
const rejected = new TransportError('TRANSPORT_REJECTED', 'HTTP 400');

/** One line per event: "t=52 connected#2", "t=2 disconnected#1 error TRANSPORT_CONNECTION_RESET retry=50". */
function describeEvent(e: StreamEvent<string>): string {
  if (e.type === 'connected') return `connected#${e.attempt}`;
  if (e.type === 'message') return `message#${e.attempt} ${e.message}`;
  const code = e.error instanceof TransportError ? e.error.code : String(e.error);
  return `disconnected#${e.attempt} ${e.reason} ${code} ${e.willReconnect ? `retry=${e.retryInMs}` : 'final'}`;
}

/**
 * Runs resilientStream over `sources` in TestScheduler virtual time, subscribed from 0 to `until`; returns the
 * log of factory calls, events and the terminal notification, each stamped with its virtual time.
 */
function runVirtual(
  sources: (helpers: { cold: TestScheduler['createColdObservable'] }) => (attempt: number) => Observable<string>,
  options: Omit<ResilientStreamOptions<string>, 'scheduler'> = {},
  until = 10_000,
  /** Marbles of a hot `wake` signal (a successful login), each emission logged with the rescheduled retry. */
  wakeMarbles?: string,
): string[] {
  const log: string[] = [];
  const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
  ts.run(({ cold, hot }) => {
    const factory = sources({ cold: cold as TestScheduler['createColdObservable'] });
    const wake =
      wakeMarbles === undefined
        ? {}
        : {
            wake: hot(wakeMarbles),
            onWake: (e: { attempt: number; retryInMs: number }) => log.push(`t=${ts.now()} woken#${e.attempt} retry=${e.retryInMs}`),
          };
    const stream = resilientStream<string>(
      (attempt) => {
        log.push(`t=${ts.now()} factory(${attempt})`);
        return factory(attempt);
      },
      { scheduler: ts, random: () => 0.5, baseDelayMs: 100, maxDelayMs: 1_000, silenceTimeoutMs: 0, ...wake, ...options },
    );
    let sub: Subscription | undefined;
    ts.schedule(() => {
      sub = stream.subscribe({
        next: (e) => log.push(`t=${ts.now()} ${describeEvent(e)}`),
        error: (e: unknown) => log.push(`t=${ts.now()} ERROR ${e instanceof TransportError ? e.code : String(e)}`),
        complete: () => log.push(`t=${ts.now()} COMPLETE`),
      });
    }, 0);
    ts.schedule(() => sub?.unsubscribe(), until);
  });
  return log;
}

describe('resilientStream (virtual time)', () => {
  it('reconnects after an error with backoff, through the factory, and reports the lifecycle', () => {
    let first: ReturnType<TestScheduler['createColdObservable']> | undefined;
    let second: ReturnType<TestScheduler['createColdObservable']> | undefined;
    const log = runVirtual(
      ({ cold }) =>
        (attempt) => {
          if (attempt === 1) return (first = cold('a-#', { a: 'a' }, reset));
          return (second = cold('b', { b: 'b' }));
        },
      {},
      200,
    );
    expect(log).toEqual([
      't=0 factory(1)',
      't=0 connected#1',
      't=0 message#1 a',
      't=2 disconnected#1 error TRANSPORT_CONNECTION_RESET retry=50',
      't=52 factory(2)',
      't=52 connected#2',
      't=52 message#2 b',
    ]);
    expect(first?.subscriptions.map((s) => [s.subscribedFrame, s.unsubscribedFrame])).toEqual([[0, 2]]);
    expect(second?.subscriptions.map((s) => [s.subscribedFrame, s.unsubscribedFrame])).toEqual([[52, 200]]); // torn down on unsubscribe
  });

  it('reconnects after an unexpected completion, and completes when completion is expected (snapshot_only)', () => {
    const unexpected = runVirtual(
      ({ cold }) =>
        () =>
          cold('a|', { a: 'a' }),
      {},
      60,
    );
    expect(unexpected).toEqual([
      't=0 factory(1)',
      't=0 connected#1',
      't=0 message#1 a',
      't=1 disconnected#1 completed undefined retry=50',
      't=51 factory(2)',
      't=51 connected#2',
      't=51 message#2 a',
      't=52 disconnected#2 completed undefined retry=50',
    ]);
    const expected = runVirtual(
      ({ cold }) =>
        () =>
          cold('a|', { a: 'a' }),
      { expectCompletion: true },
    );
    expect(expected).toEqual([
      't=0 factory(1)',
      't=0 connected#1',
      't=0 message#1 a',
      't=1 disconnected#1 completed undefined final',
      't=1 COMPLETE',
    ]);
  });

  it('drops a silent stream after silenceTimeoutMs (unsubscribing it) and reconnects; messages keep it alive', () => {
    const sources: ReturnType<TestScheduler['createColdObservable']>[] = [];
    const log = runVirtual(
      ({ cold }) =>
        () => {
          const s = cold('a 599ms b', { a: 'a', b: 'b' }); // then silence
          sources.push(s);
          return s;
        },
      { silenceTimeoutMs: 1_000 },
      1_700,
    );
    expect(log).toEqual([
      't=0 factory(1)',
      't=0 connected#1',
      't=0 message#1 a',
      't=600 message#1 b',
      't=1600 disconnected#1 silence STREAM_SILENCE_TIMEOUT retry=50',
      't=1650 factory(2)',
      't=1650 connected#2',
      't=1650 message#2 a',
    ]);
    expect(sources.map((s) => s.subscriptions.map((x) => [x.subscribedFrame, x.unsubscribedFrame]))).toEqual([[[0, 1600]], [[1650, 1700]]]);
  });

  it('counts silence from the subscription when an attempt never sends anything', () => {
    const log = runVirtual(
      ({ cold }) =>
        () =>
          cold('-'),
      { silenceTimeoutMs: 500 },
      600,
    );
    expect(log).toEqual(['t=0 factory(1)', 't=500 disconnected#1 silence STREAM_SILENCE_TIMEOUT retry=50', 't=550 factory(2)']);
  });

  it('dedupes messages by key across reconnects with a bounded memory', () => {
    const log = runVirtual(
      ({ cold }) =>
        (attempt) =>
          attempt === 1 ? cold('ab#', { a: 'e1', b: 'e2' }, reset) : cold('bcx', { b: 'e2', c: 'e3', x: 'hb' }),
      { dedupeKey: (m) => (m.startsWith('e') ? m : undefined), dedupeCapacity: 100 },
      100,
    );
    expect(log.filter((l) => l.includes('message'))).toEqual([
      't=0 message#1 e1',
      't=1 message#1 e2',
      't=53 message#2 e3',
      't=54 message#2 hb',
    ]);
    expect(log).toContain('t=52 connected#2'); // a duplicate still proves the stream is live
  });

  it('stops on a fatal error: a final disconnected event, then the error; no new attempt', () => {
    const log = runVirtual(
      ({ cold }) =>
        () =>
          cold('a#', { a: 'a' }, rejected),
    );
    expect(log).toEqual([
      't=0 factory(1)',
      't=0 connected#1',
      't=0 message#1 a',
      't=1 disconnected#1 error TRANSPORT_REJECTED final',
      't=1 ERROR TRANSPORT_REJECTED',
    ]);
  });

  it('stops on errors matching a custom isFatal predicate', () => {
    const log = runVirtual(
      ({ cold }) =>
        () =>
          cold('#', {}, reset),
      { isFatal: (e) => e === reset },
    );
    expect(log.at(-1)).toBe('t=0 ERROR TRANSPORT_CONNECTION_RESET');
    expect(log.filter((l) => l.includes('factory'))).toHaveLength(1);
  });

  it('calls onUnauthenticated before the next attempt, which then resubscribes with fresh credentials', () => {
    const calls: string[] = [];
    let token = 'stale';
    const log = runVirtual(
      ({ cold }) =>
        () => {
          calls.push(`connect with ${token}`);
          return token === 'stale' ? cold('#', {}, unauthorized) : cold('a', { a: 'a' });
        },
      {
        onUnauthenticated: (error, attempt) => {
          calls.push(`refresh after attempt ${attempt} (${(error as TransportError).code})`);
          token = 'fresh';
        },
      },
      100,
    );
    expect(calls).toEqual(['connect with stale', 'refresh after attempt 1 (TRANSPORT_UNAUTHORIZED)', 'connect with fresh']);
    expect(log).toContain('t=0 disconnected#1 unauthenticated TRANSPORT_UNAUTHORIZED retry=50');
    expect(log).toContain('t=50 connected#2');
  });

  it('treats authentication errors as fatal without a hook, or after maxConsecutiveAuthFailures', () => {
    const noHook = runVirtual(
      ({ cold }) =>
        () =>
          cold('#', {}, unauthorized),
    );
    expect(noHook.slice(-2)).toEqual([
      't=0 disconnected#1 unauthenticated TRANSPORT_UNAUTHORIZED final',
      't=0 ERROR TRANSPORT_UNAUTHORIZED',
    ]);

    let refreshes = 0;
    const stubborn = runVirtual(
      ({ cold }) =>
        () =>
          cold('#', {}, unauthorized),
      { onUnauthenticated: () => void refreshes++, maxConsecutiveAuthFailures: 2 },
    );
    expect(refreshes).toBe(2);
    expect(stubborn.filter((l) => l.includes('factory'))).toHaveLength(3);
    expect(stubborn.at(-1)).toMatch(/ERROR TRANSPORT_UNAUTHORIZED/);
  });

  it('fails with the hook error when onUnauthenticated throws', () => {
    const log = runVirtual(
      ({ cold }) =>
        () =>
          cold('#', {}, unauthorized),
      {
        onUnauthenticated: () => {
          throw new TransportError('TRANSPORT_REJECTED', 'refresh token revoked');
        },
      },
    );
    expect(log.at(-1)).toBe('t=0 ERROR TRANSPORT_REJECTED');
  });

  it('backs off exponentially while failures are consecutive, resets after a message, and can give up', () => {
    const log = runVirtual(
      ({ cold }) =>
        () =>
          cold('#', {}, reset),
      { random: () => 0.999, maxConsecutiveFailures: 4 },
    );
    expect(log.filter((l) => l.includes('disconnected')).map((l) => l.replace(/.* retry=/, ''))).toEqual([
      '99',
      '199',
      '399',
      '799',
      't=1496 disconnected#5 error STREAM_RECONNECT_EXHAUSTED final',
    ]);
    expect(log.at(-1)).toMatch(/ERROR STREAM_RECONNECT_EXHAUSTED/);

    const recovering = runVirtual(
      ({ cold }) =>
        (attempt) =>
          attempt === 2 ? cold('a#', { a: 'a' }, reset) : cold('#', {}, reset),
      { random: () => 0.999 },
      300,
    );
    expect(recovering.filter((l) => l.includes('disconnected')).map((l) => l.replace(/.* retry=/, ''))).toEqual(['99', '99', '199']);
  });

  it('a wake signal (a successful login) turns a long backoff into a short first delay; it does nothing while connected', () => {
    const log = runVirtual(
      ({ cold }) =>
        (attempt) =>
          attempt < 5 ? cold('#', {}, reset) : cold('b', { b: 'b' }),
      {},
      2_000,
      // woken at 400 (attempt 4 waits 400 ms more) and again at 600, once connected
      '400ms w 199ms w',
    );
    expect(log).toEqual([
      't=0 factory(1)',
      't=0 disconnected#1 error TRANSPORT_CONNECTION_RESET retry=50',
      't=50 factory(2)',
      't=50 disconnected#2 error TRANSPORT_CONNECTION_RESET retry=100',
      't=150 factory(3)',
      't=150 disconnected#3 error TRANSPORT_CONNECTION_RESET retry=200',
      't=350 factory(4)',
      't=350 disconnected#4 error TRANSPORT_CONNECTION_RESET retry=400',
      't=400 woken#4 retry=50',
      't=450 factory(5)',
      't=450 connected#5',
      't=450 message#5 b',
    ]);
  });

  it('treats a factory that throws like a failed attempt', () => {
    const log = runVirtual(
      ({ cold }) =>
        (attempt) => {
          if (attempt === 1) throw reset;
          return cold('a', { a: 'a' });
        },
      {},
      100,
    );
    expect(log.slice(0, 3)).toEqual(['t=0 factory(1)', 't=0 disconnected#1 error TRANSPORT_CONNECTION_RESET retry=50', 't=50 factory(2)']);
  });

  it('cancels a pending reconnect when the consumer unsubscribes', () => {
    const log = runVirtual(
      ({ cold }) =>
        () =>
          cold('#', {}, reset),
      {},
      10,
    );
    expect(log).toEqual(['t=0 factory(1)', 't=0 disconnected#1 error TRANSPORT_CONNECTION_RESET retry=50']);
  });
});

describe('resilientStream over HTTP NDJSON', () => {
  const registry = servers();
  const transports: HttpTransport[] = [];
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
    await registry.closeAll();
  });
  function transport(url: string): HttpTransport {
    const t = new HttpTransport({ baseUrl: url });
    transports.push(t);
    return t;
  }

  /** Collects events until `done` says stop; resolves with the events. */
  function eventsUntil<T>(source: Observable<StreamEvent<T>>, done: (events: StreamEvent<T>[]) => boolean): Promise<StreamEvent<T>[]> {
    return new Promise((resolve, reject) => {
      const events: StreamEvent<T>[] = [];
      const sub = source.subscribe({
        next: (e) => {
          events.push(e);
          if (done(events)) {
            queueMicrotask(() => sub.unsubscribe());
            resolve(events);
          }
        },
        error: reject,
      });
    });
  }

  const summary = (e: StreamEvent<unknown>): string =>
    e.type === 'message'
      ? `message ${JSON.stringify(e.message)}`
      : e.type === 'disconnected'
        ? `disconnected ${e.reason} ${(e.error as TransportError).code}`
        : e.type;

  it('reconnects after the server drops the connection, and dedupes the replayed execution', async () => {
    let requests = 0;
    const server = await registry.start((req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (requests === 1) res.write('{"id":"x1"}\n', () => req.socket.destroy());
      else res.write('{"id":"x1"}\n{"id":"x2"}\n');
    });
    const t = transport(server.url);
    const events = await eventsUntil(
      resilientStream((attempt) => t.streamNdjson({ path: '/s', body: { attempt } }), {
        baseDelayMs: 5,
        dedupeKey: (m) => (m as { id: string }).id,
      }),
      (es) => es.some((e) => e.type === 'message' && (e.message as { id: string }).id === 'x2'),
    );
    expect(events.map(summary)).toEqual([
      'connected',
      'message {"id":"x1"}',
      'disconnected error TRANSPORT_CONNECTION_RESET',
      'connected',
      'message {"id":"x2"}',
    ]);
    expect(requests).toBe(2);
  });

  it('reconnects after silence, aborting the silent request', async () => {
    const scheduler = new ManualScheduler();
    const firstClosed = deferred();
    const secondArrived = deferred<string>();
    let requests = 0;
    const server = await registry.start(async (req, res) => {
      const n = ++requests;
      const body = await readBody(req);
      if (n === 1) res.on('close', () => firstClosed.resolve());
      else secondArrived.resolve(body);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(`{"n":${n}}\n`); // then silence
    });
    const t = transport(server.url);
    const firstMessage = deferred();
    const events: string[] = [];
    const sub = resilientStream((attempt) => t.streamNdjson({ path: '/s', body: { attempt } }), {
      scheduler,
      silenceTimeoutMs: 180_000,
      random: () => 0.5,
      baseDelayMs: 1_000,
    }).subscribe((e) => {
      events.push(summary(e));
      if (e.type === 'message') firstMessage.resolve();
    });
    await firstMessage.promise;
    await scheduler.advanceBy(180_000);
    await firstClosed.promise;
    await scheduler.advanceBy(500);
    expect(await secondArrived.promise).toBe('{"attempt":2}');
    sub.unsubscribe();
    expect(events.slice(0, 3)).toEqual(['connected', 'message {"n":1}', 'disconnected silence STREAM_SILENCE_TIMEOUT']);
  });

  it('awaits an async onUnauthenticated (token refresh) and reconnects with the new token', async () => {
    const server = await registry.start((req, res) => {
      if (req.headers.authorization !== 'fresh-token') return sendJson(res, 401, { code: 16, message: 'UNAUTHENTICATED' });
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"result":{"heartbeat":{}}}\n');
    });
    const t = transport(server.url);
    let token = 'expired-token';
    const refreshed = deferred();
    const events = await eventsUntil(
      resilientStream(() => defer(() => t.streamNdjson({ path: '/s', headers: { authorization: token } })), {
        baseDelayMs: 5,
        onUnauthenticated: async () => {
          await Promise.resolve();
          token = 'fresh-token';
          refreshed.resolve();
        },
      }),
      (es) => es.some((e) => e.type === 'message'),
    );
    await refreshed.promise;
    expect(events.map(summary)).toEqual([
      'disconnected unauthenticated TRANSPORT_UNAUTHORIZED',
      'connected',
      'message {"result":{"heartbeat":{}}}',
    ]);
  });

  it('stops on a fatal stream error line (PERMISSION_DENIED)', async () => {
    let requests = 0;
    const server = await registry.start((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end('{"error":{"code":7,"message":"PERMISSION_DENIED"}}');
    });
    const t = transport(server.url);
    const error = await new Promise<unknown>((resolve) =>
      resilientStream(() => t.streamNdjson({ path: '/s' }), { baseDelayMs: 5 }).subscribe({ error: resolve }),
    );
    expect(error).toMatchObject({ code: 'STREAM_ERROR', kind: 'permission' });
    expect(requests).toBe(1);
  });
});
