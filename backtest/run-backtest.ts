/**
 * runBacktest: one strategy over one history file (or recording) through the SAME pipeline as live
 * (src/engine/pipeline/ startPipeline): a SimulatedVenue and a VirtualClock instead of the gateway and
 * the wall clock; strategy, risk, execution adapter, order tracker and portfolio are the live ones.
 * Returns report.json's object (deterministic) and the chart series; wall-clock figures are separate.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { Logger } from 'pino';
import { scalesOf } from '../src/domain/index.ts';
import { startPipeline } from '../src/engine/pipeline/index.ts';
import { portfolioPort } from '../src/engine/portfolio-port.ts';
import type { AnyStrategy } from '../src/engine/strategy/define-strategy.ts';
import type { VirtualClock } from '../src/engine/clock.ts';
import { silentLogger } from '../src/logging/logger.ts';
import { countersSummary, strategyParts } from '../src/bot/strategy-members.ts';
import type { BacktestConfig } from './config.ts';
import { TurnoverCounter } from './metrics/index.ts';
import { replayTape, type ReplayCounts, type ReplayProgress } from './replay/replay-tape.ts';
import { buildReport } from './results/report.ts';
import type { BacktestSeries } from './results/series.ts';
import { bookedFee, liquidityOfFill, TradeTables } from './results/trade-tables.ts';
import type { LineReader, LineReaderOptions } from './tape/line-reader.ts';
import { OwnOrders } from './recording/own-orders.ts';
import type { RecordingStats } from './recording/recording-reader.ts';
import { replayRecording } from './recording/replay-recording.ts';
import {
  openRun,
  runRecords,
  runSettings,
  simulatedMarket,
  type OpenRun,
  type RunRecords,
  type RunSettings,
  type SimulatedMarket,
} from './run-setup.ts';

export interface BacktestOptions {
  /** History file (JSON lines with a header). */
  readonly data: string;
  readonly config: BacktestConfig;
  /** Strategy name or path (default bot.strategy), or a loaded definition. */
  readonly strategy?: string | AnyStrategy;
  /** Raw params; default: bot.params when bot.strategy is this strategy, else its defaults (strategy-params.ts). */
  readonly params?: unknown;
  /** The YAML file `params` came from (`--params`), named with the keys at its root in params errors. */
  readonly paramsFile?: string;
  /** The config file `config` came from, named (under `bot.params`) in errors about its params. */
  readonly configFile?: string;
  readonly logger?: Logger;
  readonly onProgress?: (progress: ReplayProgress) => void;
  readonly reader?: LineReader;
  readonly readerOptions?: LineReaderOptions;
  /** Where a trade history is read and parsed: a worker thread, this one, or 'auto' (default: a worker for large files; tape-reader.ts). */
  readonly tapeThread?: 'worker' | 'main' | 'auto';
  readonly signal?: AbortSignal;
  /** Finished orders the order tracker keeps (default 1 000: BACKTEST_MEMORY); older ones are forgotten. */
  readonly finishedOrderHistory?: number;
  /** Fill ids the portfolio remembers against duplicates (default 10 000: BACKTEST_MEMORY). */
  readonly fillIdMemory?: number;
  /**
   * Execution ids the order tracker remembers against duplicates (default: none for a trade history, whose simulated
   * venue sends each execution once; 10 000 for a recording, BACKTEST_MEMORY).
   */
  readonly executionDedupeCapacity?: number;
  /** Ids of forgotten finished orders the order tracker remembers (default 10 000: BACKTEST_MEMORY). */
  readonly forgottenOrderMemory?: number;
  /** A folder to write fills.csv and orders.csv to while replaying (results/trade-tables.ts); none when absent. */
  readonly tablesDir?: string;
  /** Called with the replay's virtual clock as soon as the data's start is known (log lines in market time). */
  readonly onClock?: (clock: VirtualClock) => void;
}

export interface WallStats {
  readonly wallSeconds: number;
  readonly eventsPerSecondWall: number;
  readonly peakRssMB: number;
  /** Which thread parsed the data (a worker for a large trade history; a recording is read on the replay thread). */
  readonly tapeParsedOn: 'worker' | 'replay thread';
}

export interface BacktestResult {
  readonly report: Record<string, unknown>;
  readonly series: BacktestSeries;
  readonly wall: WallStats;
}

/** The peak resident set size seen (sampled every 64 progress reports and at the end). */
class PeakRss {
  value = process.memoryUsage.rss();
  sample(): void {
    this.value = Math.max(this.value, process.memoryUsage.rss());
  }
}

/** Replays the tape or the recording through the venue, then stops the pipeline; the tape is closed either way. */
async function replay(
  options: BacktestOptions,
  run: OpenRun,
  settings: RunSettings,
  market: SimulatedMarket,
  records: RunRecords,
  pipeline: Awaited<ReturnType<typeof startPipeline>>,
  peak: PeakRss,
): Promise<{ counts: ReplayCounts; recordingStats: RecordingStats }> {
  const { tape, header } = run;
  const { venue, volumes, recording, recordedBooks, tapeBooks } = market;
  const { timeline, schedule } = records;
  let progressCalls = 0;
  const recordingStats: RecordingStats = { books: 0, orderEvents: 0, skipped: 0 };
  venue.connect();
  venue.pendingContinuations = true;
  await timeline.drain();
  const onProgress = (p: ReplayProgress) => {
    if (++progressCalls % 64 === 0) peak.sample();
    options.onProgress?.(p);
  };
  const common = {
    tape,
    venue,
    timeline,
    volumes,
    settled: schedule.settled,
    onProgress,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const counts = recording
    ? await replayRecording({
        ...common,
        books: recordedBooks,
        own: new OwnOrders(new Map(settings.instruments.map((i) => [i.symbol, scalesOf(i)]))),
        stats: recordingStats,
        onSettlement: (symbol, price, time) => schedule.fromData(symbol, price, time),
      })
    : await replayTape({ ...common, books: tapeBooks });
  const end = Math.max(header.to, counts.endTime ?? counts.lastTime ?? header.from);
  if (options.signal?.aborted !== true) await timeline.advance(end);
  await timeline.pumpUntil(pipeline.stop());
  return { counts, recordingStats };
}

/** report.json's data statistics: the recording's counts, or the tape reader's. */
function dataStatsOf(run: OpenRun, recording: boolean, counts: ReplayCounts, recordingStats: RecordingStats) {
  return recording
    ? {
        books: recordingStats.books,
        orderEvents: recordingStats.orderEvents,
        skippedEvents: recordingStats.skipped,
        ...(recordingStats.cutLine === undefined ? {} : { cutLine: recordingStats.cutLine }),
        otherSymbols: counts.otherSymbols,
        afterSettlement: counts.afterSettlement,
      }
    : { ...run.tape.stats, otherSymbols: counts.otherSymbols, afterSettlement: counts.afterSettlement };
}

/** report.json's config section: what the run was given (a one-account run lists no `accounts`). */
function reportConfigOf(section: BacktestConfig['backtest'], settings: RunSettings) {
  const { latency, rates, queueModel, startingCash, account, accounts } = settings;
  return {
    latency,
    commissions: { takerBps: rates.takerBps.toString(), makerBps: rates.makerBps.toString() },
    queueAheadModel: queueModel,
    tradeThrough: section.tradeThrough,
    book: section.book,
    startingCash: startingCash.toString(),
    metricsIntervalMs: section.metricsIntervalMs,
    supersedeWindow: section.supersedeWindow,
    settlement: Object.fromEntries(Object.entries(section.settlement).map(([s, p]) => [s, p.toString()])),
    account,
    // only when the run follows more than its default account (report.json of a one-account run is unchanged)
    ...(accounts.length > 1 ? { accounts } : {}),
  };
}

/**
 * A backtest's bounded memories, smaller than live's (finished orders 10 000, the rest 100 000 each). Live, they
 * outlast the repeats of a stream reconnect and evidence that comes long after an order ended. In a replay nothing
 * repeats (the simulated venue sends each execution once, so a trade history's replay remembers no execution ids
 * at all; a recording's repeats are those of its live streams, within a reconnect's replay of at most 10 000
 * messages) and nothing comes later than the latency. A strategy
 * cannot look finished orders up (risk refuses a cancel or replace of any order that is not open), so it sees the
 * same with fewer of them kept. Live's sizes filled only after millions of trades (100 000 fill ids at ~6M trades
 * of the demo maker on a busy tape), so a long replay's memory grew until then, and V8 grew the heap with it;
 * with these the peak RSS of 10M trades is within 10 % of 1M's (backtest/README.md "Memory").
 */
export const BACKTEST_MEMORY = {
  finishedOrderHistory: 1_000,
  fillIdMemory: 10_000,
  executionDedupeCapacity: 10_000,
  forgottenOrderMemory: 10_000,
} as const;

export async function runBacktest(given: BacktestOptions): Promise<BacktestResult> {
  const options: BacktestOptions = {
    ...given,
    finishedOrderHistory: given.finishedOrderHistory ?? BACKTEST_MEMORY.finishedOrderHistory,
    fillIdMemory: given.fillIdMemory ?? BACKTEST_MEMORY.fillIdMemory,
    forgottenOrderMemory: given.forgottenOrderMemory ?? BACKTEST_MEMORY.forgottenOrderMemory,
  };
  const started = performance.now();
  const peak = new PeakRss();
  const { config } = options;
  const section = config.backtest;
  const log = options.logger ?? silentLogger();
  const run = await openRun(options, log);
  const { strategy, tape, header, params, symbols } = run;
  const settings = runSettings(config, run);
  const market = simulatedMarket(config, run, settings);
  const records = runRecords(config, options, run, settings, market, log);
  const { clock, venue } = market;
  const { portfolio, series, sampler, schedule } = records;

  const port = portfolioPort(portfolio);
  const pipeline = await startPipeline({
    venue,
    clock,
    log,
    strategy,
    params,
    risk: config.risk,
    portfolio: port,
    account: settings.account,
    accounts: settings.accounts,
    symbols,
    ...(records.several === undefined ? {} : { strategies: records.several.members }),
    unknownOrders: 'adopt',
    runId: 'bt',
    ...(config.bot.stopGraceMs === undefined ? {} : { stopGraceMs: config.bot.stopGraceMs }),
    ...(options.finishedOrderHistory === undefined ? {} : { finishedOrderHistory: options.finishedOrderHistory }),
    executionDedupeCapacity: options.executionDedupeCapacity ?? (market.recording ? BACKTEST_MEMORY.executionDedupeCapacity : 0),
    ...(options.forgottenOrderMemory === undefined ? {} : { forgottenOrderMemory: options.forgottenOrderMemory }),
  });
  const turnover = new TurnoverCounter();
  const { rates } = settings;
  const tables = options.tablesDir === undefined ? undefined : new TradeTables(options.tablesDir, pipeline.tracker, rates);
  const fillSub = pipeline.tracker.fills$.subscribe((fill) => {
    turnover.addFill(fill.qty, fill.price, fill.symbol);
    series.fill({
      t: fill.time,
      symbol: fill.symbol,
      side: fill.side,
      price: fill.price.toString(),
      qty: fill.qty.toString(),
      fee: bookedFee(fill, rates).toString(),
      liquidity: liquidityOfFill(fill),
      label: pipeline.tracker.get(fill.clordId)?.label ?? '',
    });
  });
  let replayed: Awaited<ReturnType<typeof replay>>;
  try {
    replayed = await replay(options, run, settings, market, records, pipeline, peak);
  } catch (error) {
    tables?.close();
    throw error;
  } finally {
    fillSub.unsubscribe();
    await tape.close();
  }
  const { counts, recordingStats } = replayed;
  if (tape.workerFailure !== undefined)
    log.warn(
      { file: tape.file, reason: tape.workerFailure },
      'the tape worker failed, so the replay thread parsed the whole tape itself: same results, slower',
    );
  sampler.finish(clock.now());
  tables?.close();
  await venue.close();
  const several = run.specs;
  const report = buildReport({
    // bot.strategies: the ids, and each one's params by id
    strategy: several === undefined ? strategy.name : several.map((s) => s.id).join(', '),
    params: several === undefined ? params : Object.fromEntries(several.map((s) => [s.id, s.params])),
    file: path.basename(options.data),
    header,
    dataStats: dataStatsOf(run, market.recording, counts, recordingStats),
    config: reportConfigOf(section, settings),
    startingCash: settings.startingCash,
    metricsIntervalMs: section.metricsIntervalMs,
    ratioPeriod: records.ratioPeriod,
    portfolio: portfolio.snapshot(),
    counters: pipeline.counters,
    sampler,
    turnover,
    events: counts.events,
    firstEventTime: counts.firstTime,
    lastEventTime: counts.lastTime,
    bookEvents: venue.bookEvents,
    symbols,
    ordersBySymbol: venue.ordersBySymbol,
    settlements: schedule.done,
    unsettled: schedule.unsettled,
    tradingState: pipeline.risk.tradingState.state,
  });
  if (records.several !== undefined && pipeline.strategies !== undefined) {
    // bot.strategies: each strategy's part of the totals (a one-strategy report.json is unchanged)
    Object.assign(report, strategyParts(pipeline.strategies, records.several.portfolios, countersSummary(pipeline.counters, portfolio)));
  }
  portfolio.close();
  const wallSeconds = (performance.now() - started) / 1000;
  peak.sample();
  return {
    report,
    series: series.result(),
    wall: {
      wallSeconds,
      eventsPerSecondWall: wallSeconds > 0 ? Math.round(counts.events / wallSeconds) : 0,
      peakRssMB: Math.round(peak.value / 1048576),
      tapeParsedOn: tape.parsedOn,
    },
  };
}
