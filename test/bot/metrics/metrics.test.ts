// Prometheus metrics: the registry reads the run's counters and PnL at scrape time, the per-event hook feeds
// the feed-latency histogram and the reconnect counter, the endpoint serves them on loopback at /metrics;
// and a live run against the embedded exchange with bot.metrics set serves its metrics while it runs.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { Decimal } from '../../../src/domain/decimal.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { runLive } from '../../../src/bot/live/run-live.ts';
import { BotMetrics, startMetricsServer, type MetricsServer } from '../../../src/bot/metrics/index.ts';
import { RunCounters } from '../../../src/engine/run-counters.ts';
import type { TradingState } from '../../../src/engine/risk/index.ts';
import type { BookEvent, ConnectedEvent } from '../../../src/domain/stream-events.ts';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function book(transactTime: number | undefined): BookEvent {
  return { type: 'book', symbol: 'RAIN', bids: [], offers: [], state: undefined, stats: undefined, transactTime };
}

const connected = (attempt: number): ConnectedEvent => ({ type: 'connected', attempt });

/** Something happened (a log line, a pipeline event): `next()` resolves at the next `wake()`. */
function wakeups(): { wake(): void; next(): Promise<void> } {
  let waiting: (() => void)[] = [];
  return {
    wake() {
      const resolve = waiting;
      waiting = [];
      for (const r of resolve) r();
    },
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
}

async function scrape(url: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The value of one sample line, e.g. `tradebot_fills_total 2` or `tradebot_refusals_total{code="X"} 1`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('BotMetrics and the /metrics endpoint', () => {
  it('serves counters, gauges and the latency histogram with their values on 127.0.0.1', async () => {
    const metrics = new BotMetrics({ processMetrics: false });
    const counters = new RunCounters();
    let pnl = new Decimal('1.25');
    let state: TradingState = 'active';
    metrics.bind({ counters, netPnl: () => pnl, openOrders: () => 3, tradingState: () => state });
    server = await startMetricsServer({ metrics, port: 0 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/metrics`);

    counters.sent('insert', 3);
    counters.sent('cancel', 1);
    counters.sent('cross', 1);
    counters.fills = 2;
    counters.refused('RISK_MAX_POSITION');
    counters.refused('RISK_MAX_POSITION');
    counters.refused('RISK_PRICE_BAND');
    metrics.observe({ stream: 'market', time: 10_020, event: book(10_000) }); // 20 ms
    metrics.observe({ stream: 'market', time: 10_300, event: book(10_000) }); // 300 ms
    metrics.observe({ stream: 'market', time: 9_990, event: book(10_000) }); // clock skew: 0
    metrics.observe({ stream: 'market', time: 10_000, event: book(undefined) }); // no transact time: not observed
    metrics.observe({ stream: 'market', time: 0, event: connected(1) });
    metrics.observe({ stream: 'market', time: 0, event: connected(2) });
    metrics.observe({ stream: 'orders', time: 0, event: connected(1) });

    const { status, type, text } = await scrape(server.url);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain('# TYPE tradebot_orders_sent_total counter');
    expect(sample(text, 'tradebot_orders_sent_total{kind="insert"}')).toBe(3);
    expect(sample(text, 'tradebot_orders_sent_total{kind="cancel"}')).toBe(1);
    expect(sample(text, 'tradebot_orders_sent_total{kind="replace"}')).toBe(0);
    expect(sample(text, 'tradebot_orders_sent_total{kind="cross"}')).toBe(1);
    expect(sample(text, 'tradebot_fills_total')).toBe(2);
    expect(sample(text, 'tradebot_refusals_total{code="RISK_MAX_POSITION"}')).toBe(2);
    expect(sample(text, 'tradebot_refusals_total{code="RISK_PRICE_BAND"}')).toBe(1);
    expect(text).toContain('# TYPE tradebot_pnl gauge');
    expect(sample(text, 'tradebot_pnl')).toBe(1.25);
    expect(sample(text, 'tradebot_open_orders')).toBe(3);
    expect(sample(text, 'tradebot_trading_state{state="active"}')).toBe(1);
    expect(sample(text, 'tradebot_trading_state{state="halted"}')).toBe(0);
    expect(text).toContain('# TYPE tradebot_feed_latency_seconds histogram');
    expect(sample(text, 'tradebot_feed_latency_seconds_count')).toBe(3);
    expect(sample(text, 'tradebot_feed_latency_seconds_sum')).toBeCloseTo(0.32, 9);
    expect(sample(text, 'tradebot_feed_latency_seconds_bucket{le="0.001"}')).toBe(1);
    expect(sample(text, 'tradebot_feed_latency_seconds_bucket{le="0.025"}')).toBe(2);
    expect(sample(text, 'tradebot_feed_latency_seconds_bucket{le="0.25"}')).toBe(2);
    expect(sample(text, 'tradebot_feed_latency_seconds_bucket{le="0.5"}')).toBe(3);
    expect(sample(text, 'tradebot_feed_latency_seconds_bucket{le="+Inf"}')).toBe(3);
    expect(sample(text, 'tradebot_stream_reconnects_total{stream="market"}')).toBe(1);
    expect(sample(text, 'tradebot_stream_reconnects_total{stream="orders"}')).toBe(0);
    expect(text).not.toContain('tradebot_process_');

    // Every scrape reads the current values.
    counters.fills = 5;
    counters.sent('insert', 2);
    pnl = new Decimal('-0.5');
    state = 'halted';
    const next = (await scrape(server.url)).text;
    expect(sample(next, 'tradebot_fills_total')).toBe(5);
    expect(sample(next, 'tradebot_orders_sent_total{kind="insert"}')).toBe(5);
    expect(sample(next, 'tradebot_pnl')).toBe(-0.5);
    expect(sample(next, 'tradebot_trading_state{state="halted"}')).toBe(1);
    expect(sample(next, 'tradebot_trading_state{state="active"}')).toBe(0);
  });

  it("labels each strategy's part with its id (bot.strategies); the unlabelled totals stay as they are", async () => {
    const metrics = new BotMetrics({ processMetrics: false });
    const total = new RunCounters();
    const maker = new RunCounters();
    const taker = new RunCounters();
    maker.sent('insert', 4);
    maker.sent('replace', 2);
    maker.fills = 3;
    taker.sent('insert', 1);
    taker.fills = 1;
    taker.refused('RISK_MAX_POSITION');
    total.sent('insert', 5);
    total.sent('replace', 2);
    total.fills = 4;
    total.refused('RISK_MAX_POSITION');
    let takerState: TradingState = 'active';
    metrics.bind({
      counters: total,
      netPnl: () => new Decimal('0.5'),
      openOrders: () => 2,
      tradingState: () => 'active',
      strategies: () => [
        { id: 'mm-rain', counters: maker, netPnl: () => new Decimal('1.25'), tradingState: () => 'active' },
        { id: 'momo-fed', counters: taker, netPnl: () => new Decimal('-0.75'), tradingState: () => takerState },
      ],
    });
    server = await startMetricsServer({ metrics, port: 0 });
    takerState = 'halted';
    const { text } = await scrape(server.url);
    expect(sample(text, 'tradebot_fills_total')).toBe(4);
    expect(sample(text, 'tradebot_strategy_fills_total{strategy="mm-rain"}')).toBe(3);
    expect(sample(text, 'tradebot_strategy_fills_total{strategy="momo-fed"}')).toBe(1);
    expect(sample(text, 'tradebot_strategy_orders_sent_total{strategy="mm-rain",kind="insert"}')).toBe(4);
    expect(sample(text, 'tradebot_strategy_orders_sent_total{strategy="mm-rain",kind="replace"}')).toBe(2);
    expect(sample(text, 'tradebot_strategy_orders_sent_total{strategy="momo-fed",kind="insert"}')).toBe(1);
    expect(sample(text, 'tradebot_strategy_refusals_total{strategy="momo-fed",code="RISK_MAX_POSITION"}')).toBe(1);
    expect(sample(text, 'tradebot_strategy_pnl{strategy="mm-rain"}')).toBe(1.25);
    expect(sample(text, 'tradebot_strategy_pnl{strategy="momo-fed"}')).toBe(-0.75);
    expect(sample(text, 'tradebot_strategy_trading_state{strategy="momo-fed",state="halted"}')).toBe(1);
    expect(sample(text, 'tradebot_strategy_trading_state{strategy="momo-fed",state="active"}')).toBe(0);
    expect(sample(text, 'tradebot_strategy_trading_state{strategy="mm-rain",state="active"}')).toBe(1);
  });

  it('exports zeros and no trading state before a run is bound, and process metrics by default', async () => {
    const metrics = new BotMetrics();
    server = await startMetricsServer({ metrics, port: 0 });
    const { text } = await scrape(server.url);
    expect(sample(text, 'tradebot_fills_total')).toBe(0);
    expect(sample(text, 'tradebot_orders_sent_total{kind="insert"}')).toBe(0);
    expect(sample(text, 'tradebot_pnl')).toBe(0);
    expect(text).not.toContain('tradebot_trading_state{');
    expect(text).toContain('tradebot_process_resident_memory_bytes');
  });

  it('answers 404 off /metrics and 405 to other methods; closes cleanly', async () => {
    const metrics = new BotMetrics({ processMetrics: false });
    const running = await startMetricsServer({ metrics, port: 0 });
    const base = `http://127.0.0.1:${running.port}`;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics?x=1`)).status).toBe(200);
    const post = await fetch(`${base}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await running.close();
    await expect(fetch(running.url)).rejects.toThrow();
  });

  it('says which port is taken', async () => {
    const metrics = new BotMetrics({ processMetrics: false });
    server = await startMetricsServer({ metrics, port: 0 });
    await expect(startMetricsServer({ metrics, port: server.port })).rejects.toMatchObject({
      code: 'METRICS_LISTEN_FAILED',
      kind: 'config',
    });
  });
});

describe('runLive with bot.metrics', () => {
  it('serves the run metrics at the logged URL while it runs, and closes the endpoint at the end', async () => {
    const base = loadConfig('config/sim.yaml', { env: {} });
    const config = { ...base, bot: { ...base.bot, durationSeconds: undefined, metrics: { port: 0 } } };
    const lines: Record<string, unknown>[] = [];
    // every log line and every event the pipeline receives wakes the waiting test (no polling on a timer)
    const activity = wakeups();
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
        activity.wake();
        done();
      },
    });
    const logger = createLogger({ level: 'info', pretty: false, destination });
    let stop: (reason: string) => void = () => undefined;
    const stopSignal = new Promise<string>((resolve) => (stop = resolve));
    const recorder = () => ({ record: () => activity.wake(), close: async () => undefined });
    const run = runLive({ config, logger, stopSignal, recorder });
    run.catch(() => undefined);

    const loggedUrl = () => lines.map((l) => l['url']).find((u): u is string => typeof u === 'string' && u.endsWith('/metrics'));
    while (loggedUrl() === undefined) await activity.next();
    const url = loggedUrl();
    let text = '';
    for (;;) {
      text = (await scrape(url ?? '')).text;
      if (
        (sample(text, 'tradebot_orders_sent_total{kind="insert"}') ?? 0) > 0 &&
        (sample(text, 'tradebot_feed_latency_seconds_count') ?? 0) > 0
      )
        break;
      await activity.next();
    }
    stop('test');
    const summary = await run;

    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(lines.find((l) => l['url'] === url)?.['msg']).toBe(`Prometheus metrics at ${url}`);
    expect(sample(text, 'tradebot_orders_sent_total{kind="insert"}')).toBeGreaterThan(0);
    expect(sample(text, 'tradebot_feed_latency_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'tradebot_pnl')).toBeTypeOf('number');
    expect(sample(text, 'tradebot_trading_state{state="active"}')).toBe(1);
    expect(summary.orders).toBeGreaterThanOrEqual(sample(text, 'tradebot_orders_sent_total{kind="insert"}') ?? 0);
    await expect(fetch(url ?? '')).rejects.toThrow();
  });
});
