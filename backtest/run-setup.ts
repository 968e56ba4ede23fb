/**
 * What a backtest run is assembled from (runBacktest, run-backtest.ts): the strategy and the opened tape with
 * the params and symbols chosen for it (bad options refused), the settings read from the config, the
 * simulated market (virtual clock, books, fill engine, venue) and what the run records beside the pipeline
 * (portfolio, chart series, equity sampler, settlement schedule, timeline).
 */
import type { Logger } from 'pino';
import { Decimal } from '../src/domain/decimal.ts';
import { scalesOf } from '../src/domain/index.ts';
import { VirtualClock } from '../src/engine/clock.ts';
import { moneyDigitsOf, Portfolio } from '../src/engine/portfolio/index.ts';
import { symbolsOf } from '../src/engine/strategy/define-strategy.ts';
import { loadStrategy } from '../src/engine/strategy/loader.ts';
import { loadStrategySpecs } from '../src/bot/strategy-specs.ts';
import { strategyMembers } from '../src/bot/strategy-members.ts';
import { queueModelOf, type BacktestConfig } from './config.ts';
import { BacktestErrorCode, backtestError } from './errors.ts';
import { chooseParams, type ParamsChoice } from './strategy-params.ts';
import { choosePeriod } from './metrics/index.ts';
import { FillEngine } from './replay/fill-engine.ts';
import { engineDefinition } from './replay/instrument-defs.ts';
import type { MarketModel } from './replay/market-model.ts';
import { expiriesOf, SettlementSchedule, settlementPrice } from './replay/settlement.ts';
import { SimulatedVenue } from './replay/simulated-venue.ts';
import { TapeBook } from './replay/tape-book.ts';
import { Timeline } from './replay/timeline.ts';
import { VolumeWindow } from './replay/volume-window.ts';
import { EquitySampler } from './results/sampler.ts';
import { SeriesCollector } from './results/series.ts';
import { TapeReader } from './tape/tape-reader.ts';
import { RecordedBook } from './recording/recorded-book.ts';
import type { BacktestOptions } from './run-backtest.ts';

const DEFAULT_ACCOUNT = 'firms/backtest/accounts/bot';

/** Where the params and the config came from, for params errors in the form `tradebot run` gives them. */
function sourcesOf(options: BacktestOptions): Pick<ParamsChoice, 'givenFile' | 'configFile'> {
  return {
    ...(options.paramsFile === undefined ? {} : { givenFile: options.paramsFile }),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
  };
}

/** The strategy, the opened tape and the params and symbols chosen for it (the tape is closed on a bad option). */
export async function openRun(options: BacktestOptions, log: Logger) {
  const { config } = options;
  const section = config.backtest;
  // bot.strategies (#25): every strategy of the list, unless the caller names one (--strategy / --params)
  const several = config.bot.strategies !== undefined && options.strategy === undefined && options.params === undefined;
  const specs = several ? await loadStrategySpecs(config, options.configFile) : undefined;
  const strategy =
    specs?.[0]?.definition ??
    (typeof options.strategy === 'object' ? options.strategy : await loadStrategy(options.strategy ?? config.bot.strategy));
  const tape = await TapeReader.open(options.data, {
    supersedeWindow: section.supersedeWindow,
    ...(options.reader ? { reader: options.reader } : {}),
    ...(options.readerOptions ? { readerOptions: options.readerOptions } : {}),
    ...(options.tapeThread ? { thread: options.tapeThread } : {}),
  });
  const header = tape.header;
  const clock = new VirtualClock(header.from);
  options.onClock?.(clock);
  try {
    if (specs !== undefined) {
      const symbols = [...new Set(specs.flatMap((spec) => symbolsOf(spec.definition, spec.params)))];
      for (const spec of specs)
        checkRunOptions(options, spec.id, symbolsOf(spec.definition, spec.params), header.symbols, header.instruments);
      return { strategy, tape, header, clock, params: specs[0]?.params, symbols, specs };
    }
    const params = chooseParams({
      requested: options.strategy,
      definition: strategy,
      given: options.params,
      config,
      dataSymbols: header.symbols,
      log,
      ...sourcesOf(options),
    });
    const symbols = symbolsOf(strategy, params);
    checkRunOptions(options, strategy.name, symbols, header.symbols, header.instruments);
    return { strategy, tape, header, clock, params, symbols, specs: undefined };
  } catch (error) {
    await tape.close();
    throw error;
  }
}

/** Every symbol the strategy trades has data; every configured settlement price is 0 or 1. */
function checkRunOptions(
  options: BacktestOptions,
  strategyName: string,
  symbols: readonly string[],
  dataSymbols: readonly string[],
  instruments: readonly { readonly symbol: string }[],
): void {
  for (const symbol of symbols) {
    if (!instruments.some((i) => i.symbol === symbol))
      throw backtestError(
        BacktestErrorCode.BAD_OPTION,
        `strategy ${strategyName} trades ${symbol}, which ${options.data} has no data for (it has ${dataSymbols.join(', ')})`,
        { kind: 'config' },
      );
  }
  for (const [symbol, price] of Object.entries(options.config.backtest.settlement)) {
    if (!price.eq(0) && !price.eq(1))
      throw backtestError(
        BacktestErrorCode.BAD_OPTION,
        `backtest.settlement.${symbol}: a contract settles at 0 or 1, got ${price.toString()}`,
        {
          kind: 'config',
        },
      );
  }
}

export type OpenRun = Awaited<ReturnType<typeof openRun>>;

/** The run's settings from the config: instruments traded, commissions, latency, queue model, accounts, cash. */
export function runSettings(config: BacktestConfig, run: OpenRun) {
  const section = config.backtest;
  const instruments = run.header.instruments.filter((i) => run.symbols.includes(i.symbol));
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
  return { instruments, rates, latency, queueModel, account, accounts, startingCash };
}

export type RunSettings = ReturnType<typeof runSettings>;

/** The simulated market: virtual clock, books (from the tape or a recording), fill engine, venue, portfolio. */
export function simulatedMarket(config: BacktestConfig, run: OpenRun, settings: RunSettings) {
  const section = config.backtest;
  const { header, symbols, clock } = run;
  const { instruments, queueModel, latency, rates } = settings;
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
  return { clock, recording, tapeBooks, recordedBooks, books, volumes, venue };
}

export type SimulatedMarket = ReturnType<typeof simulatedMarket>;

/**
 * The settlement schedule's hooks into the venue and the portfolio, and its decision per expiry: a price from the
 * data (or backtest.settlement), else the contract expires with positions open, marked at the last price.
 */
function settlementSchedule(
  section: BacktestConfig['backtest'],
  run: OpenRun,
  instruments: RunSettings['instruments'],
  market: SimulatedMarket,
  portfolio: Pick<Portfolio, 'mark' | 'settle'>,
  log: Logger,
): SettlementSchedule {
  const { header, symbols } = run;
  const { venue, books } = market;
  return new SettlementSchedule(
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
}

/** What the run records beside the pipeline: portfolio, chart series, equity sampler, settlements, timeline. */
export function runRecords(
  config: BacktestConfig,
  options: BacktestOptions,
  run: OpenRun,
  settings: RunSettings,
  market: SimulatedMarket,
  log: Logger,
) {
  const section = config.backtest;
  const { header, symbols } = run;
  const { instruments, rates, account, startingCash } = settings;
  const { books, venue, clock } = market;
  const portfolioOptions = {
    clock,
    fees: rates,
    feeSource: 'reported' as const,
    moneyDigits: moneyDigitsOf(instruments),
    ...(options.fillIdMemory === undefined ? {} : { fillIdMemory: options.fillIdMemory }),
  };
  const portfolio = new Portfolio({ ...portfolioOptions, startingCash: { [account]: startingCash } });
  // bot.strategies: each strategy's own portfolio (its fills; marked and settled with the bot's)
  const several =
    run.specs === undefined
      ? undefined
      : strategyMembers(run.specs, { account, risk: config.risk, portfolio: () => new Portfolio(portfolioOptions) });
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
  const others = [...(several?.portfolios.values() ?? [])];
  const settled: Pick<Portfolio, 'mark' | 'settle'> =
    others.length === 0
      ? portfolio
      : {
          mark: (symbol, price) => [portfolio, ...others].forEach((p) => p.mark(symbol, price)),
          settle: (symbol, price) => [portfolio, ...others].forEach((p) => p.settle(symbol, price)),
        };
  const schedule = settlementSchedule(section, run, instruments, market, settled, log);
  const sampling = { nextTime: () => sampler.nextTime, runNext: () => sampler.sampleNext() };
  const timeline = new Timeline(clock, venue, [schedule, sampling]);
  return { portfolio, series, sampler, schedule, timeline, ratioPeriod, several };
}

export type RunRecords = ReturnType<typeof runRecords>;
