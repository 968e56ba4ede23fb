/**
 * runBacktest: one strategy over one history file (or recording) through the SAME pipeline as live
 * (src/engine/pipeline/ startPipeline): a SimulatedVenue and a VirtualClock instead of the gateway and
 * the wall clock; strategy, risk, execution adapter, order tracker and portfolio are the live ones.
 * Returns report.json's object (deterministic) and the chart series; wall-clock figures are separate.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { Logger } from 'pino';
import { Decimal } from '../src/domain/decimal.ts';
import { scalesOf } from '../src/domain/index.ts';
import { VirtualClock } from '../src/engine/clock.ts';
import { startPipeline } from '../src/engine/pipeline/index.ts';
import { moneyDigitsOf, Portfolio } from '../src/engine/portfolio/index.ts';
import { portfolioPort } from '../src/engine/portfolio-port.ts';
import type { AnyStrategy } from '../src/engine/strategy/define-strategy.ts';
import { symbolsOf } from '../src/engine/strategy/define-strategy.ts';
import { loadStrategy } from '../src/engine/strategy/loader.ts';
import { silentLogger } from '../src/logging/logger.ts';
import { queueModelOf, type BacktestConfig } from './config.ts';
import { BacktestErrorCode, backtestError } from './errors.ts';
import { chooseParams, type ParamsChoice } from './strategy-params.ts';
import { choosePeriod, TurnoverCounter } from './metrics/index.ts';
import { FillEngine } from './replay/fill-engine.ts';
import { engineDefinition } from './replay/instrument-defs.ts';
import type { MarketModel } from './replay/market-model.ts';
import { replayTape, type ReplayCounts, type ReplayProgress } from './replay/replay-tape.ts';
import { expiriesOf, SettlementSchedule, settlementPrice } from './replay/settlement.ts';
import { SimulatedVenue } from './replay/simulated-venue.ts';
import { TapeBook } from './replay/tape-book.ts';
import { Timeline } from './replay/timeline.ts';
import { VolumeWindow } from './replay/volume-window.ts';
import { buildReport } from './results/report.ts';
import { EquitySampler } from './results/sampler.ts';
import { SeriesCollector, type BacktestSeries } from './results/series.ts';
import { bookedFee, liquidityOfFill, TradeTables } from './results/trade-tables.ts';
import type { LineReader, LineReaderOptions } from './tape/line-reader.ts';
import { TapeReader } from './tape/tape-reader.ts';
import { OwnOrders } from './recording/own-orders.ts';
import { RecordedBook } from './recording/recorded-book.ts';
import type { RecordingStats } from './recording/recording-reader.ts';
import { replayRecording } from './recording/replay-recording.ts';

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
  /** Finished orders the order tracker keeps (default: the pipeline's, 10 000); older ones are forgotten. */
  readonly finishedOrderHistory?: number;
  /** Fill ids the portfolio remembers against duplicates (default: the portfolio's, 100 000). */
  readonly fillIdMemory?: number;
  /** Execution ids the order tracker remembers against duplicates (default: the pipeline's, 100 000). */
  readonly executionDedupeCapacity?: number;
  /** A folder to write fills.csv and orders.csv to while replaying (results/trade-tables.ts); none when absent. */
  readonly tablesDir?: string;
  /** Called with the replay's virtual clock as soon as the data's start is known (log lines in market time). */
  readonly onClock?: (clock: VirtualClock) => void;
}

export interface WallStats {
  readonly wallSeconds: number;
  readonly eventsPerSecondWall: number;
  readonly peakRssMB: number;
}

export interface BacktestResult {
  readonly report: Record<string, unknown>;
  readonly series: BacktestSeries;
  readonly wall: WallStats;
}

const DEFAULT_ACCOUNT = 'firms/backtest/accounts/bot';

/** Where the params and the config came from, for params errors in the form `tradebot run` gives them. */
function sourcesOf(options: BacktestOptions): Pick<ParamsChoice, 'givenFile' | 'configFile'> {
  return {
    ...(options.paramsFile === undefined ? {} : { givenFile: options.paramsFile }),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
  };
}

export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const started = performance.now();
  let peakRss = process.memoryUsage.rss();
  const { config } = options;
  const section = config.backtest;
  const log = options.logger ?? silentLogger();
  const strategy = typeof options.strategy === 'object' ? options.strategy : await loadStrategy(options.strategy ?? config.bot.strategy);
  const tape = await TapeReader.open(options.data, {
    supersedeWindow: section.supersedeWindow,
    ...(options.reader ? { reader: options.reader } : {}),
    ...(options.readerOptions ? { readerOptions: options.readerOptions } : {}),
    ...(options.tapeThread ? { thread: options.tapeThread } : {}),
  });
  const header = tape.header;
  const clock = new VirtualClock(header.from);
  options.onClock?.(clock);
  let params: unknown;
  let symbols: readonly string[];
  try {
    params = chooseParams({
      requested: options.strategy,
      definition: strategy,
      given: options.params,
      config,
      dataSymbols: header.symbols,
      log,
      ...sourcesOf(options),
    });
    symbols = symbolsOf(strategy, params);
    for (const symbol of symbols) {
      if (!header.instruments.some((i) => i.symbol === symbol))
        throw backtestError(
          BacktestErrorCode.BAD_OPTION,
          `strategy ${strategy.name} trades ${symbol}, which ${options.data} has no data for (it has ${header.symbols.join(', ')})`,
          { kind: 'config' },
        );
    }
    for (const [symbol, price] of Object.entries(section.settlement)) {
      if (!price.eq(0) && !price.eq(1))
        throw backtestError(
          BacktestErrorCode.BAD_OPTION,
          `backtest.settlement.${symbol}: a contract settles at 0 or 1, got ${price.toString()}`,
          { kind: 'config' },
        );
    }
  } catch (error) {
    await tape.close();
    throw error;
  }
  const instruments = header.instruments.filter((i) => symbols.includes(i.symbol));
  const commissions = section.commissions ?? config.bot.fees;
  const rates = { takerBps: new Decimal(commissions.takerBps), makerBps: new Decimal(commissions.makerBps) };
  const latency = {
    insertMs: section.latency.insertMs,
    cancelMs: section.latency.cancelMs,
    replaceMs: section.latency.replaceMs ?? section.latency.cancelMs,
  };
  const queueModel = queueModelOf(section);
  // every account bot.accounts lists is followed (orders, positions, crosses between them), with the
  // default account first: bot.account, else the first of bot.accounts
  const account = config.bot.account ?? config.bot.accounts?.[0] ?? DEFAULT_ACCOUNT;
  const accounts = [...new Set([account, ...(config.bot.accounts ?? [])])];
  const startingCash = new Decimal(section.startingCash);

  const recording = header.kind === 'recording';
  const tapeBooks = new Map<string, TapeBook>(recording ? [] : symbols.map((s) => [s, new TapeBook(section.book)]));
  const recordedBooks = new Map<string, RecordedBook>(recording ? instruments.map((i) => [i.symbol, new RecordedBook(scalesOf(i))]) : []);
  const books: ReadonlyMap<string, MarketModel> = recording ? recordedBooks : tapeBooks;
  const volumes = new Map<string, VolumeWindow>(
    queueModel.model === 'volume' ? symbols.map((s) => [s, new VolumeWindow(queueModel.windowMs)]) : [],
  );
  const fills = new FillEngine({
    clock,
    instruments: instruments.map(engineDefinition),
    models: books,
    volumes,
    queueModel,
    tradeThrough: section.tradeThrough,
  });
  const venue = new SimulatedVenue({ clock, instruments, fills, models: books, latency, commissions: rates });
  const portfolio = new Portfolio({
    clock,
    fees: rates,
    feeSource: 'reported',
    startingCash: { [account]: startingCash },
    moneyDigits: moneyDigitsOf(instruments),
    ...(options.fillIdMemory === undefined ? {} : { fillIdMemory: options.fillIdMemory }),
  });
  const series = new SeriesCollector(symbols, section.maxSeriesPoints);
  const ratioPeriod = choosePeriod(header.to - header.from, section.metricsIntervalMs);
  const sampler = new EquitySampler({
    returnsPeriodMs: ratioPeriod.periodMs,
    portfolio,
    intervalMs: section.metricsIntervalMs,
    start: header.from,
    symbols,
    series,
    prices: () =>
      new Map(
        symbols.flatMap((s) => {
          const last = books.get(s)?.lastPrice;
          return last === undefined ? [] : [[s, venue.feed(s)?.price(last) as Decimal] as const];
        }),
      ),
  });
  const schedule = new SettlementSchedule(
    expiriesOf(instruments, symbols, header.from, header.to),
    {
      settle: (symbol, raw, time) => venue.settle(symbol, raw, time),
      expire: (symbol) => {
        venue.expire(symbol);
        const last = books.get(symbol)?.lastPrice;
        const price = last === undefined ? undefined : venue.feed(symbol)?.price(last);
        if (price !== undefined) portfolio.mark(symbol, price);
      },
      settlePositions: (symbol, price) => portfolio.settle(symbol, price),
      priceScale: (symbol) => scalesOf(instruments.find((i) => i.symbol === symbol) ?? { priceScale: 1, fractionalQtyScale: 1 }).priceScale,
    },
    (expiry) => {
      const decision = settlementPrice(expiry.symbol, section.settlement[expiry.symbol], header.settlements);
      if ('reason' in decision) log.warn({ symbol: expiry.symbol }, `${decision.reason}: positions stay open, marked at the last price`);
      return decision;
    },
  );
  const sampling = { nextTime: () => sampler.nextTime, runNext: () => sampler.sampleNext() };
  const timeline = new Timeline(clock, venue, [schedule, sampling]);

  const port = portfolioPort(portfolio);
  const pipeline = await startPipeline({
    venue,
    clock,
    log,
    strategy,
    params,
    risk: config.risk,
    portfolio: port,
    account,
    accounts,
    symbols,
    unknownOrders: 'adopt',
    runId: 'bt',
    ...(config.bot.stopGraceMs === undefined ? {} : { stopGraceMs: config.bot.stopGraceMs }),
    ...(options.finishedOrderHistory === undefined ? {} : { finishedOrderHistory: options.finishedOrderHistory }),
    ...(options.executionDedupeCapacity === undefined ? {} : { executionDedupeCapacity: options.executionDedupeCapacity }),
  });
  const turnover = new TurnoverCounter();
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
  let counts: ReplayCounts;
  let progressCalls = 0;
  const recordingStats: RecordingStats = { books: 0, orderEvents: 0, skipped: 0 };
  try {
    venue.connect();
    venue.pendingContinuations = true;
    await timeline.drain();
    const onProgress = (p: ReplayProgress) => {
      if (++progressCalls % 64 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
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
    counts = recording
      ? await replayRecording({
          ...common,
          books: recordedBooks,
          own: new OwnOrders(new Map(instruments.map((i) => [i.symbol, scalesOf(i)]))),
          stats: recordingStats,
          onSettlement: (symbol, price, time) => schedule.fromData(symbol, price, time),
        })
      : await replayTape({ ...common, books: tapeBooks });
    const end = Math.max(header.to, counts.endTime ?? counts.lastTime ?? header.from);
    if (options.signal?.aborted !== true) await timeline.advance(end);
    await timeline.pumpUntil(pipeline.stop());
  } catch (error) {
    tables?.close();
    throw error;
  } finally {
    fillSub.unsubscribe();
    await tape.close();
  }
  sampler.finish(clock.now());
  tables?.close();
  await venue.close();
  const report = buildReport({
    strategy: strategy.name,
    params,
    file: path.basename(options.data),
    header,
    dataStats: recording
      ? {
          books: recordingStats.books,
          orderEvents: recordingStats.orderEvents,
          skippedEvents: recordingStats.skipped,
          ...(recordingStats.cutLine === undefined ? {} : { cutLine: recordingStats.cutLine }),
          otherSymbols: counts.otherSymbols,
          afterSettlement: counts.afterSettlement,
        }
      : { ...tape.stats, otherSymbols: counts.otherSymbols, afterSettlement: counts.afterSettlement },
    config: {
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
    },
    startingCash,
    metricsIntervalMs: section.metricsIntervalMs,
    ratioPeriod,
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
  portfolio.close();
  const wallSeconds = (performance.now() - started) / 1000;
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  return {
    report,
    series: series.result(),
    wall: {
      wallSeconds,
      eventsPerSecondWall: wallSeconds > 0 ? Math.round(counts.events / wallSeconds) : 0,
      peakRssMB: Math.round(peakRss / 1048576),
    },
  };
}
