/**
 * Soak (`npm run soak [-- --minutes N]`): the demo bot (the `bot` and `risk` sections of --config, default
 * config/sim.yaml: the market maker) against `tradebot sim` running in a CHILD process (so every memory
 * figure of this process is the bot's own) with market activity at a high rate (`--interval-ms`, default 20)
 * and every stream dropped by the exchange every `--drop-every` seconds (default 60; 0: never), for
 * `--minutes` (default 10). The bot connects as to an environment (family A reference data with a key made
 * for the run, the gateway client for trading and its NDJSON streams, as src/bot/live/connection.ts does
 * for `bot.venue: gateway`) and runs the pipeline as the live runner does, with its order journal in a temp
 * folder.
 *
 * Every bounded memory of the bot is set small so it fills up within the soak's first minute: what still
 * grows in the second half is then a leak, not a cap filling up. `--finished-orders` (default 50; production
 * 10 000) finished orders the tracker keeps (and 10x as many tombstones), `--fill-ids` (default 500;
 * production 100 000) fill ids the portfolio remembers, `--execution-ids` (default 1000; production 100 000
 * in the tracker, 10 000 in the stream client) execution ids remembered to drop repeats. The exchange's too:
 * `--sim-order-history` (default 5000; `sim.maxOrderHistory`, production 50 000) finished orders and
 * `--sim-trades` (default 20 000; `sim.maxTrades`, 200 000) trades it keeps. To soak the production caps,
 * pass them and run long enough to fill them.
 *
 * stdout gets JSON lines: `soak.start`; a `soak.sample` every `--sample-every` seconds (default 5): the bot's
 * RSS and heap after a full GC (node runs with --expose-gc), the sim's RSS, orders and orders/s (overall and
 * since the last sample), fills, reconnects, open and tracked orders, trading state; a `soak.recovered` for
 * every outage (trading restricted, then active again); `soak.end` with the totals and the verdicts.
 *
 * Exit 1 when any check fails:
 * - memory: the post-GC heap samples of the second half of the run, fitted with a line, grow faster than
 *   `--max-heap-slope` MB per minute (default 0.5: a sustained leak, not collection noise);
 * - trading state: an outage lasted longer than `--recover-within` seconds (default 30), a hold other than
 *   the feed's restricted trading (daily loss, a failed strategy), or the state is not active at the end
 *   (after waiting up to `--recover-within` for a drop just before the end to recover);
 * - the bot sent no order, or the exchange process died.
 * Logs (level `--log-level`, default error) go to stderr.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type TradebotConfig } from '../src/config/index.ts';
import { createLogger } from '../src/logging/logger.ts';
import { liveClock } from '../src/engine/clock.ts';
import { GatewayVenue } from '../src/bot/venues/gateway-venue.ts';
import { GatewayClient, instrumentCatalog } from '../src/exchange/gateway/index.ts';
import { createFamilyAClient } from '../src/exchange/familya/index.ts';
import type { Venue } from '../src/engine/venue.ts';
import { startPipeline } from '../src/engine/pipeline/index.ts';
import { Portfolio } from '../src/engine/portfolio/index.ts';
import { portfolioPort } from '../src/engine/portfolio-port.ts';
import { loadStrategy, validateParams } from '../src/engine/strategy/loader.ts';
import { symbolsOf } from '../src/engine/strategy/define-strategy.ts';
import { FileJournal } from '../src/engine/journal/index.ts';
import { generateKeyFiles } from '../src/cli/commands/keygen.ts';
import { describeError } from '../src/errors.ts';
import { heapTrend, type HeapSample } from './soak/heap-trend.ts';
import { OutageLog } from './soak/outages.ts';
import { startSimChild, writeSimConfig, type SimChild } from './soak/sim-child.ts';

const MB = 1024 * 1024;
const CLIENT_ID = 'tradebot-soak';

interface Options {
  minutes: number;
  intervalMs: number;
  dropEvery: number;
  sampleEvery: number;
  maxHeapSlope: number;
  recoverWithin: number;
  finishedOrders: number;
  fillIds: number;
  executionIds: number;
  simOrderHistory: number;
  simTrades: number;
  config: string;
  logLevel: string;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '10' },
      'interval-ms': { type: 'string', default: '20' },
      'drop-every': { type: 'string', default: '60' },
      'sample-every': { type: 'string', default: '5' },
      'max-heap-slope': { type: 'string', default: '0.5' },
      'recover-within': { type: 'string', default: '30' },
      'finished-orders': { type: 'string', default: '50' },
      'fill-ids': { type: 'string', default: '500' },
      'execution-ids': { type: 'string', default: '1000' },
      'sim-order-history': { type: 'string', default: '5000' },
      'sim-trades': { type: 'string', default: '20000' },
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
    maxHeapSlope: number('max-heap-slope', values['max-heap-slope'], 0),
    recoverWithin: number('recover-within', values['recover-within'], 1),
    finishedOrders: Math.round(number('finished-orders', values['finished-orders'], 1)),
    fillIds: Math.round(number('fill-ids', values['fill-ids'], 1)),
    executionIds: Math.round(number('execution-ids', values['execution-ids'], 1)),
    simOrderHistory: Math.round(number('sim-order-history', values['sim-order-history'], 1)),
    simTrades: Math.round(number('sim-trades', values['sim-trades'], 1)),
    config: values.config,
    logLevel: values['log-level'],
  };
}

const gc = (globalThis as { gc?: () => void }).gc;

/** This process's memory after a full collection. */
function memory(): {
  rssMb: number;
  heapUsed: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
} {
  gc?.();
  const m = process.memoryUsage();
  const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;
  return {
    rssMb: mb(m.rss),
    heapUsed: m.heapUsed,
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    externalMb: mb(m.external),
    arrayBuffersMb: mb(m.arrayBuffers),
  };
}

const line = (record: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(record)}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const perSecond = (count: number, ms: number) => Math.round((count / Math.max(ms / 1000, 0.001)) * 10) / 10;

/** The bot's config against the child sim: the soak config's bot and risk, an exchange section for the child. */
function botConfig(loaded: TradebotConfig, ready: { api: string; auth: string; gateway: string }, privateKeyFile: string): TradebotConfig {
  const sim = loaded.sim;
  const user = sim?.users.find((u) => u.username === (loaded.bot.simUser ?? sim.users[0]?.username));
  if (sim === undefined || user === undefined) throw new Error('the soak config needs a sim section with the bot user in sim.users');
  return {
    ...loaded,
    sim: undefined,
    exchange: {
      apiUrl: ready.api,
      authUrl: ready.auth,
      gatewayUrl: ready.gateway,
      familyA: { clientId: CLIENT_ID, privateKeyFile, participant: user.participant, refreshMarginSeconds: 30 },
      gateway: { username: user.username, password: user.password, ...(user.mfaSecret === undefined ? {} : { mfaSecret: user.mfaSecret }) },
    },
    bot: { ...loaded.bot, venue: 'gateway' },
  };
}

/** The gateway venue against the child sim: reference data from family A, trading and streams on the gateway. */
async function connectBot(
  config: TradebotConfig,
  symbols: readonly string[],
  executionIds: number,
  logger: ReturnType<typeof createLogger>,
): Promise<{ venue: Venue; accounts: readonly string[]; close(): Promise<void> }> {
  const exchange = config.exchange;
  if (exchange?.gateway === undefined) throw new Error('no exchange.gateway in the bot config');
  const familyA = createFamilyAClient(exchange, { logger });
  let instruments;
  try {
    instruments = await familyA.client.loadInstruments(symbols);
  } finally {
    await familyA.client.close();
  }
  const { username, password } = exchange.gateway;
  const client = new GatewayClient({
    gatewayUrl: exchange.gatewayUrl,
    credentials: { username, password, ...(exchange.gateway.mfaSecret === undefined ? {} : { totpSecret: exchange.gateway.mfaSecret }) },
    instruments: instrumentCatalog(instruments),
    streams: { dedupeCapacity: executionIds },
    logger: logger.child({ component: 'gateway' }),
  });
  try {
    await client.login();
    const { accounts } = await client.getWhoAmI();
    return { venue: new GatewayVenue({ client, instruments }), accounts, close: () => client.close() };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

async function main(): Promise<number> {
  if (gc === undefined)
    throw new Error('run the soak with node --expose-gc (npm run soak does): the heap check needs a full GC before each sample');
  const o = options();
  const loaded = loadConfig(o.config);
  if (loaded.sim === undefined) throw new Error(`${o.config} has no sim section`);
  const logger = createLogger({ level: o.logLevel as 'error', pretty: false });
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-soak-'));
  const keys = generateKeyFiles(path.join(dir, 'keys'));
  const participant =
    loaded.sim.users.find((u) => u.username === (loaded.bot.simUser ?? loaded.sim?.users[0]?.username))?.participant ?? '';
  const simConfigFile = writeSimConfig({
    configFile: o.config,
    sim: loaded.sim,
    activityIntervalMs: o.intervalMs,
    dropEverySeconds: o.dropEvery,
    caps: { maxOrderHistory: o.simOrderHistory, maxTrades: o.simTrades },
    client: { clientId: CLIENT_ID, publicKeyFile: keys.publicKeyFile, participant },
    dir,
  });
  const sim = await startSimChild(simConfigFile);
  try {
    return await soak(o, loaded, logger, sim, keys.privateKeyFile, dir);
  } finally {
    await sim.stop(); // never leave the exchange process behind
    rmSync(dir, { recursive: true, force: true });
  }
}

async function soak(
  o: Options,
  loaded: TradebotConfig,
  logger: ReturnType<typeof createLogger>,
  sim: SimChild,
  privateKeyFile: string,
  dir: string,
): Promise<number> {
  const failures: string[] = [];
  let simDied: string | undefined;
  void sim.exited.then((how) => (simDied ??= how));

  const config = botConfig(loaded, sim.ready, privateKeyFile);
  const strategy = await loadStrategy(config.bot.strategy);
  const params = validateParams(strategy, config.bot.params);
  const symbols = symbolsOf(strategy, params);
  const clock = liveClock();
  const connection = await connectBot(config, symbols, o.executionIds, logger);
  const account = config.bot.account ?? connection.accounts[0];
  if (account === undefined) throw new Error('no account to trade: set bot.account');
  const journal = FileJournal.open(path.join(dir, 'journal.jsonl'), { warnings: logger });
  const pipeline = await startPipeline({
    venue: connection.venue,
    clock,
    log: logger,
    strategy,
    params,
    risk: config.risk,
    portfolio: portfolioPort(
      new Portfolio({ clock, fees: { takerBps: config.bot.fees.takerBps, makerBps: config.bot.fees.makerBps }, fillIdMemory: o.fillIds }),
    ),
    account,
    accounts: config.bot.accounts ?? [...new Set([account, ...connection.accounts])],
    symbols,
    unknownOrders: config.bot.unknownOrders,
    journal,
    finishedOrderHistory: o.finishedOrders,
    executionDedupeCapacity: o.executionIds,
  });

  const started = clock.now();
  const outages = new OutageLog(started);
  const following = outages.follow(pipeline.risk.tradingState.changes$, (outage) =>
    line({
      event: 'soak.recovered',
      atS: Math.round((outage.endMs ?? 0) / 100) / 10,
      cause: outage.cause,
      state: outage.state,
      lastedS: Math.round(((outage.endMs ?? 0) - outage.startMs) / 100) / 10,
    }),
  );
  const heap: HeapSample[] = [];
  let previous = { atMs: 0, orders: 0 };
  const snapshot = () => {
    const c = pipeline.counters;
    const atMs = clock.now() - started;
    const m = memory();
    heap.push({ atMs, heapUsed: m.heapUsed });
    const windowOrders = c.orders - previous.orders;
    const windowMs = atMs - previous.atMs;
    previous = { atMs, orders: c.orders };
    const { heapUsed: _bytes, ...bot } = m;
    return {
      elapsedS: Math.round(atMs / 100) / 10,
      bot,
      simRssMb: sim.rssMb(),
      orders: c.orders,
      ordersPerSec: perSecond(c.orders, atMs),
      ordersPerSecWindow: perSecond(windowOrders, windowMs),
      fills: c.fills,
      reconnects: { feed: c.feedDisconnects, orderStream: Math.max(0, c.orderStreamConnects - 1) },
      reconciliations: c.reconciliations,
      openOrders: pipeline.tracker.open().length,
      trackedOrders: pipeline.tracker.all().length,
      tradingState: pipeline.risk.tradingState.state,
    };
  };

  const durationMs = o.minutes * 60_000;
  const start = snapshot();
  line({
    event: 'soak.start',
    minutes: o.minutes,
    intervalMs: o.intervalMs,
    dropEverySeconds: o.dropEvery,
    sampleEverySeconds: o.sampleEvery,
    caps: {
      finishedOrders: o.finishedOrders,
      fillIds: o.fillIds,
      executionIds: o.executionIds,
      simOrderHistory: o.simOrderHistory,
      simTrades: o.simTrades,
    },
    symbols,
    account,
    simPid: sim.pid,
    ...start,
  });
  try {
    for (let next = o.sampleEvery * 1000; next < durationMs && simDied === undefined; next += o.sampleEvery * 1000) {
      await sleep(started + next - clock.now());
      line({ event: 'soak.sample', ...snapshot() });
    }
    await sleep(started + durationMs - clock.now());
  } catch (error) {
    failures.push(`the run failed: ${describeError(error)}`);
  }
  // a drop just before the end: give it the time any outage is allowed to recover
  if (pipeline.risk.tradingState.state !== 'active' && simDied === undefined) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, o.recoverWithin * 1000);
      const subscription = pipeline.risk.tradingState.changes$.subscribe((change) => {
        if (change.to !== 'active') return;
        clearTimeout(timer);
        subscription.unsubscribe();
        resolve();
      });
    });
  }
  const end = snapshot();
  const endedMs = clock.now() - started;
  following.unsubscribe();
  await pipeline.stop().catch((error: unknown) => failures.push(`stopping the bot failed: ${describeError(error)}`));
  await journal.close().catch((error: unknown) => failures.push(`closing the journal failed: ${describeError(error)}`));
  await connection.close().catch(() => undefined);
  const simRssEndMb = sim.rssMb();
  const diedDuringRun = simDied; // read before our own SIGTERM ends it
  const simEnd = diedDuringRun ?? (await sim.stop());

  const trend = heapTrend(heap, durationMs / 2, o.maxHeapSlope);
  if (trend.slopeMbPerMin === undefined)
    failures.push(`memory: only ${trend.samples} post-GC samples in the second half; run longer or sample more often (--sample-every)`);
  else if (!trend.ok)
    failures.push(
      `memory: the post-GC heap grew ${trend.slopeMbPerMin} MB/min over the second half ` +
        `(${trend.firstMb} -> ${trend.lastMb} MB; bound ${o.maxHeapSlope} MB/min)`,
    );
  failures.push(...outages.problems(o.recoverWithin * 1000, endedMs));
  if (end.orders === 0) failures.push('the bot sent no order');
  if (diedDuringRun !== undefined)
    failures.push(`the exchange process died during the soak (${diedDuringRun}): ${sim.stderrTail().join(' | ')}`);
  line({
    event: 'soak.end',
    ...end,
    rssStartMb: start.bot.rssMb,
    rssEndMb: end.bot.rssMb,
    simRssStartMb: start.simRssMb,
    simRssEndMb,
    heapTrend: trend,
    outages: {
      count: outages.outages.length,
      longestS: Math.round(outages.longestMs / 100) / 10,
      finalState: pipeline.risk.tradingState.state,
    },
    journal: { appended: journal.stats.appended, syncs: journal.stats.syncs },
    sim: simEnd,
    failures,
    ok: failures.length === 0,
  });
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`soak failed: ${describeError(error)}\n`);
    process.exit(1);
  },
);
