/**
 * Soak (`npm run soak [-- --minutes N]`): the demo bot (config/sim.yaml's `bot` section, the market maker)
 * against the embedded simulator with market activity at a high rate (`--interval-ms`, default 20) and every
 * stream dropped every `--drop-every` seconds (default 60; 0: never), for `--minutes` (default 10). The bot
 * is assembled as the live runner does it (connect, startPipeline, Portfolio) so its counters are visible.
 *
 * stdout gets JSON lines: `soak.start`, a `soak.sample` every `--sample-every` seconds (default 30) and at the
 * end of the warm-up, and `soak.end`, each with RSS and heap (after a GC when node runs with --expose-gc),
 * orders and orders/s, fills, reconnects, open orders, trading state and the simulator's order history size.
 * Exit 1 when the end RSS exceeds 2 x the RSS after warm-up + 100 MB (memory growing without bound), or the
 * run failed. Logs (level `--log-level`, default error) go to stderr.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/index.ts';
import { createLogger } from '../src/logging/logger.ts';
import { liveClock } from '../src/engine/clock.ts';
import { connect } from '../src/engine/live/connection.ts';
import { startPipeline } from '../src/engine/pipeline.ts';
import { Portfolio } from '../src/engine/portfolio/index.ts';
import { portfolioPort } from '../src/engine/portfolio-port.ts';
import { GatewayVenue } from '../src/engine/venues/gateway-venue.ts';
import { loadStrategy, validateParams } from '../src/engine/strategy/loader.ts';
import { symbolsOf } from '../src/engine/strategy/define-strategy.ts';
import { describeError } from '../src/errors.ts';

const MB = 1024 * 1024;

interface Options {
  minutes: number;
  intervalMs: number;
  dropEvery: number;
  sampleEvery: number;
  config: string;
  logLevel: string;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '10' },
      'interval-ms': { type: 'string', default: '20' },
      'drop-every': { type: 'string', default: '60' },
      'sample-every': { type: 'string', default: '30' },
      config: { type: 'string', default: 'config/sim.yaml' },
      'log-level': { type: 'string', default: 'error' },
    },
  });
  const number = (name: string, text: string, min: number): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} expects a number >= ${min}, got "${text}"`);
    return value;
  };
  return {
    minutes: number('minutes', values.minutes, 0.1),
    intervalMs: Math.round(number('interval-ms', values['interval-ms'], 1)),
    dropEvery: number('drop-every', values['drop-every'], 0),
    sampleEvery: number('sample-every', values['sample-every'], 1),
    config: values.config,
    logLevel: values['log-level'],
  };
}

function memory(): { rssMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number; arrayBuffersMb: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / MB);
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) };
}

const line = (record: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(record)}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  const o = options();
  const loaded = loadConfig(o.config);
  if (loaded.sim === undefined) throw new Error(`${o.config} has no sim section`);
  const sim = {
    ...loaded.sim,
    activity: { ...loaded.sim.activity, enabled: true, intervalMs: o.intervalMs },
    faults: { ...loaded.sim.faults, ...(o.dropEvery > 0 ? { dropStreamsEverySeconds: o.dropEvery } : {}) },
  };
  const config = { ...loaded, sim };
  const logger = createLogger({ level: o.logLevel as 'error', pretty: false });
  const strategy = await loadStrategy(config.bot.strategy);
  const params = validateParams(strategy, config.bot.params);
  const symbols = symbolsOf(strategy, params);
  const clock = liveClock();
  const connection = await connect(config, symbols, logger);
  const account = config.bot.account ?? connection.accounts[0];
  if (account === undefined) throw new Error('no account to trade: set bot.account');
  const portfolio = new Portfolio({ clock, fees: { takerBps: config.bot.fees.takerBps, makerBps: config.bot.fees.makerBps } });
  const venue = new GatewayVenue({ client: connection.client, instruments: connection.instruments });
  const pipeline = await startPipeline({
    venue,
    clock,
    log: logger,
    strategy,
    params,
    risk: config.risk,
    portfolio: portfolioPort(portfolio),
    account,
    accounts: config.bot.accounts ?? [...new Set([account, ...connection.accounts])],
    symbols,
    unknownOrders: config.bot.unknownOrders,
  });
  const started = Date.now();
  const snapshot = () => {
    const c = pipeline.counters;
    const elapsedS = (Date.now() - started) / 1000;
    const simCore = connection.sim?.core;
    return {
      elapsedS: Math.round(elapsedS),
      ...memory(),
      orders: c.orders,
      ordersPerSec: Math.round((c.orders / Math.max(elapsedS, 1)) * 10) / 10,
      fills: c.fills,
      reconnects: { feed: c.feedDisconnects, orderStream: Math.max(0, c.orderStreamConnects - 1), drops: connection.sim?.faults.stats.drops ?? 0 },
      reconciliations: c.reconciliations,
      openOrders: pipeline.tracker.open().length,
      trackedOrders: pipeline.tracker.all().length,
      tradingState: pipeline.risk.tradingState.state,
      simOrderHistory: simCore === undefined ? undefined : [...simCore.allOrders()].length,
      simTrades: simCore?.trades().length,
    };
  };
  const durationMs = o.minutes * 60_000;
  const warmupMs = Math.min(60_000, durationMs * 0.2);
  line({ event: 'soak.start', minutes: o.minutes, intervalMs: o.intervalMs, dropEverySeconds: o.dropEvery, symbols, ...snapshot() });
  let warm: number | undefined;
  let failure: string | undefined;
  try {
    let nextSample = started + o.sampleEvery * 1000;
    while (Date.now() - started < durationMs) {
      await sleep(Math.max(0, Math.min(nextSample, started + durationMs, warm === undefined ? started + warmupMs : Infinity) - Date.now()));
      if (warm === undefined && Date.now() - started >= warmupMs) {
        const s = snapshot();
        warm = s.rssMb;
        line({ event: 'soak.sample', warmup: true, ...s });
      }
      if (Date.now() >= nextSample) {
        line({ event: 'soak.sample', ...snapshot() });
        nextSample += o.sampleEvery * 1000;
      }
    }
  } catch (error) {
    failure = describeError(error);
  }
  const end = snapshot();
  await pipeline.stop().catch((error: unknown) => (failure ??= `stop failed: ${describeError(error)}`));
  await connection.close();
  const warmRss = warm ?? end.rssMb;
  const boundMb = 2 * warmRss + 100;
  const memoryOk = end.rssMb <= boundMb;
  line({ event: 'soak.end', ...end, warmRssMb: warmRss, boundMb, memoryOk, failure: failure ?? null });
  return memoryOk && failure === undefined ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`soak failed: ${describeError(error)}\n`);
    process.exit(1);
  },
);
