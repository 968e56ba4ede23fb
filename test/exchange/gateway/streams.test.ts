// Gateway NDJSON streams as Observables: against the real simulator (order updates that survive a
// server-side disconnect with a fresh snapshot, resubscribe after a 401 with a refreshed token, the silence
// watchdog, market data books, instrument states, snapshot-only Promises, a permission error), and against a
// stub server for what the sim never does (replayed executions deduplicated by id, an undecodable line).
import http from 'node:http';
import { Writable } from 'node:stream';
import { asyncScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayErrorCode, GatewayStreams, instrumentCatalog, isGatewayError, ofType } from '../../../src/exchange/gateway/index.ts';
import { instrumentScales } from '../../../src/domain/index.ts';
import type { GatewayClient, OrderRequestInput } from '../../../src/exchange/gateway/index.ts';
import type { DisconnectedEvent, ExecutionEvent, MarketDataEvent, OrderStreamEvent } from '../../../src/domain/stream-events.ts';
import { HttpTransport } from '../../../src/exchange/transport/index.ts';
import { ACCOUNTS, ManualClock, OTHER_SYMBOL, START_MS, SYMBOL, dec, startTestSim } from './helpers/sim.ts';
import type { TestSim } from './helpers/sim.ts';
import { record } from './helpers/events.ts';
import { createLogger } from '../../../src/logging/logger.ts';

const fastReconnect = { baseDelayMs: 5, maxDelayMs: 20 };

const buy = (price: string, qty: number): OrderRequestInput => ({
  account: ACCOUNTS.aliceMain,
  symbol: SYMBOL,
  side: 'SIDE_BUY',
  type: 'ORDER_TYPE_LIMIT',
  timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  orderQty: dec(String(qty)),
  price: dec(price),
});

/** Polls a condition the test cannot subscribe to (server-side cleanup), every 10 ms for up to 3 s. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

const disconnected = (e: OrderStreamEvent | MarketDataEvent): e is DisconnectedEvent => e.type === 'disconnected';

describe('gateway streams against the simulator', () => {
  let t: TestSim;
  let alice: GatewayClient;

  beforeEach(async () => {
    t = await startTestSim({ accessTtlSeconds: 60, users: ['alice'] });
    alice = t.clientFor('alice', { streams: fastReconnect });
  });
  afterEach(async () => {
    await t.close();
  });

  it('order updates survive a server-side disconnect: reconnect, fresh snapshot, then new executions', async () => {
    const events = record(alice.orderUpdates$());
    try {
      await events.waitFor((e) => e.type === 'snapshot');
      const first = await alice.insertOrder(buy('0.50', 1));
      await events.waitFor((e) => e.type === 'execution' && e.execution.order.id === first.orderId);

      t.sim.dropStreams();
      const drop = await events.waitFor(disconnected);
      expect([drop.reason, drop.willReconnect]).toEqual(['completed', true]);
      await events.waitFor((e) => e.type === 'connected' && e.attempt === 2);
      const snapshot = await events.waitFor((e) => e.type === 'snapshot' && events.events.indexOf(e) > events.events.indexOf(drop));
      expect(snapshot.type === 'snapshot' && snapshot.orders.map((o) => o.id)).toEqual([first.orderId]);

      const second = await alice.insertOrder(buy('0.51', 1));
      await events.waitFor((e) => e.type === 'execution' && e.execution.order.id === second.orderId);
      const executions = events.events.filter((e): e is ExecutionEvent => e.type === 'execution').map((e) => e.execution.id);
      expect(new Set(executions).size).toBe(executions.length);
    } finally {
      events.stop();
    }
  });

  it('resubscribes with a refreshed token when the stream is answered 401', async () => {
    const clientClock = new ManualClock(START_MS);
    const lagging = t.clientFor('alice', { now: clientClock.now, streams: fastReconnect });
    const events = record(lagging.orderUpdates$());
    try {
      await events.waitFor((e) => e.type === 'snapshot');
      t.clock.advance(61_000); // the token expires on the gateway; the client's clock has not moved
      t.sim.dropStreams();
      const unauthenticated = await events.waitFor((e): e is DisconnectedEvent => disconnected(e) && e.reason === 'unauthenticated');
      expect(isGatewayError(unauthenticated.error, GatewayErrorCode.AuthFailed)).toBe(true);
      await events.waitFor((e) => e.type === 'connected' && e.attempt === 3);
      expect(lagging.sessionInfo()).toMatchObject({ logins: 1, refreshes: 1 });
    } finally {
      events.stop();
    }
  });

  it('a stream waiting out a long backoff reconnects soon after the session logs in again', async () => {
    // the first failures retry at once, the 12th waits out the backoff ceiling: 5 ms x 2^11 x 0.999 (10 s,
    // longer than the waits below; 10 minutes at most); the wake after a login draws 0.999 of the 5 ms first ceiling
    let draws = 0;
    const random = () => (++draws < 12 ? 0 : 0.999);
    const lines: { msg?: string; retryInMs?: number; nextTryAt?: string }[] = [];
    const logger = createLogger({
      level: 'info',
      pretty: false,
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
          done();
        },
      }),
    });
    const patient = t.clientFor('alice', { random, logger, streams: { baseDelayMs: 5, maxDelayMs: 600_000 } });
    await patient.login();
    t.sim.faults.failNext(12, { status: 503, path: '/api/v1beta1/create_market_data_subscription' });
    const events = record(patient.marketData$({ symbols: [SYMBOL] }));
    try {
      const waiting = await events.waitFor((e): e is DisconnectedEvent => disconnected(e) && (e.retryInMs ?? 0) > 8_000);
      expect(waiting.attempt).toBe(12);
      const warned = lines.find((l) => l.msg === 'gateway stream disconnected' && l.retryInMs === waiting.retryInMs);
      expect(warned?.nextTryAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      await patient.login(); // the gateway is reachable: the stream tries again at once
      await events.waitFor((e) => e.type === 'connected' && e.attempt === 13);
      const woken = lines.find((l) => l.msg === 'gateway stream: logged in again, reconnecting sooner');
      expect(woken?.retryInMs).toBeLessThan(5);
    } finally {
      events.stop();
    }
  });

  it('reconnects when the stream stays silent past the watchdog timeout', async () => {
    const quiet = t.clientFor('alice', { streams: { ...fastReconnect, silenceTimeoutMs: 300 } });
    const events = record(quiet.orderUpdates$());
    try {
      const silence = await events.waitFor((e): e is DisconnectedEvent => disconnected(e) && e.reason === 'silence');
      expect(silence.willReconnect).toBe(true);
      await events.waitFor((e) => e.type === 'connected' && e.attempt === 2);
    } finally {
      events.stop();
    }
  });

  it('streams full books with Decimal prices, and a fresh book after a reconnect', async () => {
    const events = record(alice.marketData$({ symbols: [SYMBOL], depth: 5 }));
    try {
      const initial = await events.waitFor((e) => e.type === 'book');
      expect(initial).toMatchObject({ type: 'book', symbol: SYMBOL, bids: [], offers: [], state: 'INSTRUMENT_STATE_OPEN' });
      await alice.insertOrder(buy('0.55', 10));
      const withBid = await events.waitFor((e) => e.type === 'book' && e.bids.length === 1);
      expect(withBid.type === 'book' && withBid.bids.map((l) => [l.px.toFixed(), l.qty.toFixed()])).toEqual([['0.55', '10']]);

      t.sim.dropStreams();
      await events.waitFor((e) => e.type === 'connected' && e.attempt === 2);
      const resnapshot = await events.waitFor((e) => e.type === 'book' && events.events.indexOf(e) > events.events.findIndex(disconnected));
      expect(resnapshot.type === 'book' && resnapshot.bids.map((l) => l.px.toFixed())).toEqual(['0.55']);
    } finally {
      events.stop();
    }
  });

  it('streams instrument states: the current state first, then changes', async () => {
    const events = record(alice.instrumentStates$({ symbols: [SYMBOL] }).pipe(ofType('state')));
    try {
      expect(await events.waitFor(() => true)).toMatchObject({ symbol: SYMBOL, state: 'INSTRUMENT_STATE_OPEN' });
      t.sim.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
      expect(await events.waitFor((e) => e.state === 'INSTRUMENT_STATE_HALTED')).toMatchObject({ symbol: SYMBOL });
    } finally {
      events.stop();
    }
  });

  it('returns snapshot-only order and market data snapshots as Promises', async () => {
    const a = await alice.insertOrder(buy('0.40', 1));
    const b = await alice.insertOrder({ ...buy('0.60', 2), symbol: OTHER_SYMBOL });
    const orders = await alice.orderSnapshot();
    expect(orders.map((o) => o.id).sort()).toEqual([a.orderId, b.orderId].sort());
    expect((await alice.orderSnapshot({ symbols: [OTHER_SYMBOL] })).map((o) => o.id)).toEqual([b.orderId]);
    const books = await alice.marketDataSnapshot({ symbols: [SYMBOL, OTHER_SYMBOL] });
    expect([...books.keys()].sort()).toEqual([OTHER_SYMBOL, SYMBOL].sort());
    expect(books.get(OTHER_SYMBOL)?.bids.map((l) => [l.px.toFixed(), l.qty.toFixed()])).toEqual([['0.6', '2']]);
  });

  it('ends an order stream for an account that is not the caller with GATEWAY_PERMISSION_DENIED', async () => {
    const events = record(alice.orderUpdates$({ accounts: [ACCOUNTS.bobMain] }));
    const error = await events.failed;
    expect(isGatewayError(error, GatewayErrorCode.PermissionDenied)).toBe(true);
    expect((error as { exchange: { code: number } }).exchange.code).toBe(7);
    expect(events.events.at(-1)).toMatchObject({ type: 'disconnected', willReconnect: false });
  });

  it('closes the HTTP stream when the consumer unsubscribes (the sim stops listening)', async () => {
    const events = record(alice.orderUpdates$());
    await events.waitFor((e) => e.type === 'snapshot');
    expect(t.sim.gatewayStreamCount()).toBeGreaterThan(0);
    events.stop();
    await until(() => t.sim.gatewayStreamCount() === 0);
  });

  it('ends open streams with TRANSPORT_CLOSED when the client closes, without reconnecting', async () => {
    const events = record(alice.orderUpdates$());
    await events.waitFor((e) => e.type === 'snapshot');
    await alice.close();
    const error = (await events.failed) as { code: string };
    expect(error.code).toBe('TRANSPORT_CLOSED');
    expect(events.events.filter((e) => e.type === 'connected')).toHaveLength(1);
  });

  it('refuses a market data stream without symbols before connecting', async () => {
    const error = await record(alice.marketData$({ symbols: [] })).failed;
    expect(isGatewayError(error, GatewayErrorCode.InvalidRequest)).toBe(true);
  });
});

describe('gateway order stream against a stub server', () => {
  let server: http.Server;
  let url: string;
  let connections = 0;
  let http1: HttpTransport;

  const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
  const execution = (id: string, symbol = SYMBOL) => ({
    id,
    type: 'EXECUTION_TYPE_NEW',
    order: { id: `order-${id}`, symbol, price: '55', order_qty: '1', state: 'ORDER_STATE_NEW' },
  });

  beforeEach(async () => {
    connections = 0;
    server = http.createServer((req, res) => {
      connections += 1;
      expect(req.headers.authorization).toBe('stub-token');
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(line({ result: { snapshot: { orders: [] }, session_id: `s${connections}` } }));
      if (connections === 1) {
        res.end(line({ result: { update: { executions: [execution('A'), execution('B')] }, session_id: 's1' } }));
      } else {
        res.write(line({ result: { update: { executions: [execution('B'), execution('C')] }, session_id: 's2' } }));
        res.write(line({ result: { update: { executions: [execution('X', 'NOT-IN-CATALOG')] } } }));
        res.write(line({ result: { heartbeat: {} } }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    http1 = new HttpTransport({ baseUrl: url });
  });
  afterEach(async () => {
    await http1.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('splits updates into executions, drops replayed ids after a reconnect, and reports undecodable lines', async () => {
    const catalog = instrumentCatalog(new Map([[SYMBOL, instrumentScales(100, 1)]]));
    const streams = new GatewayStreams(
      {
        opener: http1,
        tokens: { accessToken: async () => 'stub-token', recoverFromUnauthorized: async () => 'stub-token' },
        acquire: async () => undefined,
        scheduler: asyncScheduler,
        random: () => 0,
        options: { baseDelayMs: 1, maxDelayMs: 1 },
        logger: undefined,
      },
      catalog,
    );
    const events = record(streams.orderUpdates$());
    try {
      await events.waitFor((e) => e.type === 'heartbeat');
      const summary = events.events.map((e) => {
        if (e.type === 'execution') return `execution ${e.execution.id} ${e.execution.order.price.toFixed()} ${e.sessionId}`;
        if (e.type === 'connected') return `connected#${e.attempt}`;
        if (e.type === 'disconnected') return `disconnected#${e.attempt} ${e.reason}`;
        if (e.type === 'snapshot') return `snapshot ${e.sessionId}`;
        if (e.type === 'invalidMessage')
          return (
            `invalid ${(e.error as { code: string }).code} ` +
            `${String((e.error as { details: { causeCode: string } }).details.causeCode)}`
          );
        return e.type;
      });
      expect(summary).toEqual([
        'connected#1',
        'snapshot s1',
        'execution A 0.55 s1',
        'execution B 0.55 s1',
        'disconnected#1 completed',
        'connected#2',
        'snapshot s2',
        'execution C 0.55 s2',
        'invalid GATEWAY_BAD_RESPONSE SCALE_UNKNOWN_SYMBOL',
        'heartbeat',
      ]);
    } finally {
      events.stop();
    }
  });
});
