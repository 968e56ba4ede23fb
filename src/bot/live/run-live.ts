/**
 * The live runner: connects (embedded sim or an environment), loads the strategy and its params, starts
 * the pipeline on the wall clock, shows a status line in a terminal, and stops on SIGINT/SIGTERM or after
 * the configured duration: open orders cancelled, logged out, and one `run.summary` JSON line printed.
 * SIGUSR2 toggles trading between active and halted (operator kill switch); with `bot.control` set, an HTTP
 * endpoint on loopback sets active / reducing / halted (`tradebot control`). With `bot.metrics` set, a
 * Prometheus endpoint serves the run's metrics on 127.0.0.1:<port>/metrics while it runs. The order journal
 * (bot.journal; see src/engine/journal/open.ts for the default) is opened before the pipeline starts, so
 * the orders a killed run left in flight are resumed, and closed after it stopped. The summary's positions and
 * PnL are reconciled with the exchange after the stop (final-reconcile.ts), or flagged `reconciled: false`.
 */
import { ZERO } from '../../domain/decimal.ts';
import type { Logger } from 'pino';
import type { TradebotConfig } from '../../config/index.ts';
import { liveClock, type Clock } from '../../engine/clock.ts';
import { loadStrategy, validateParams } from '../../engine/strategy/loader.ts';
import { loadStrategySpecs } from '../strategy-specs.ts';
import { positionsOf, strategyMembers, strategyParts, withTradingStates } from '../strategy-members.ts';
import type { StrategyMembers, StrategyStateSummary, StrategySummary } from '../strategy-members.ts';
import { symbolsOf } from '../../engine/strategy/define-strategy.ts';
import { startPipeline, type PipelineOptions, type RunningPipeline } from '../../engine/pipeline/index.ts';
import type { Instrument } from '../../domain/index.ts';
import { moneyDigitsOf, Portfolio } from '../../engine/portfolio/index.ts';
import { portfolioPort, type PortfolioPort } from '../../engine/portfolio-port.ts';
import { connectVenue, type VenueConnection } from './connection.ts';
import { formatStatusLine } from './status-line.ts';
import { startRunMetrics, type RunMetrics } from '../metrics/run-metrics.ts';
import { startControlServer, type ControlServer } from './control-server.ts';
import { LiveConsole, consoleStrategies } from '../console/live-console.ts';
import { TradebotError } from '../../errors.ts';
import { openRunJournal, type Journal } from '../../engine/journal/index.ts';
import { reconcileSummary, type SummaryReconciliation } from './final-reconcile.ts';

export interface RunSummary {
  event: 'run.summary';
  fills: number;
  orders: number;
  refusals: number;
  pnl: string;
  positions: Record<string, string>;
  refusalsByCode: Record<string, number>;
  durationSeconds: number;
  tradingState: string;
  /** What holds the state at the end (operator, feed, dailyLoss, strategyError) and why. */
  tradingStateCause: string;
  tradingStateReason: string;
  /** Commands the operator control endpoint applied during the run. */
  operatorCommands: number;
  /** Orders still open (working or unsettled) when the run ended. */
  openOrders: number;
  /** The order journal: where, how many orders it brought back, entries written and fsync figures. */
  journal: { file: string; restored: number; appended: number; syncs: number; syncMicros: number };
  /**
   * True when positions and PnL were set from the exchange's view after the stop (fills the streams missed are
   * in them); false when the exchange could not be read, with `reconcileReason`: the local view is shown.
   */
  reconciled: boolean;
  reconcileReason?: string;
  /** Differences the final reconciliation found between the local view and the exchange's (it booked them). */
  reconcileDifferences: number;
  /** With bot.strategies: each strategy's part of the totals and its own trading state (strategy-members.ts). */
  strategies?: Record<string, StrategySummary & StrategyStateSummary>;
  /** What of the totals no strategy's part holds (absent when the parts add up to them alone). */
  unattributed?: StrategySummary;
}

/** Records what the pipeline receives (`tradebot run --record`; see backtest/recording/). */
export interface RunRecorder {
  readonly record: NonNullable<PipelineOptions['record']>;
  close(): Promise<void>;
}

export interface LiveRunOptions {
  config: TradebotConfig;
  /** The config file, named in config errors found at start. */
  configFile?: string;
  /** The `--params` file that replaced bot.params, named in params errors. */
  paramsFile?: string;
  logger: Logger;
  strategy?: string;
  durationSeconds?: number;
  /** Where the status line goes (a TTY); undefined: no status line. */
  statusStream?: NodeJS.WriteStream;
  /** Resolves when the run should stop (SIGINT etc.); the duration also stops it. */
  stopSignal: Promise<string>;
  onOperatorToggle?: (toggle: () => void) => void;
  /** Called once the web console serves (bot.control.console), with its URL carrying the access token. */
  onConsoleReady?: (url: string) => void;
  /** Opens a recorder once the run's instruments are known. */
  recorder?: (run: { instruments: readonly Instrument[]; symbols: readonly string[]; startTime: number }) => RunRecorder;
}

/** The strategy, its params (bot.params, or the --params file) and the symbols it trades (RUN_NO_SYMBOLS when none). */
async function strategyOf(options: LiveRunOptions) {
  const { config } = options;
  if (config.bot.strategies !== undefined) return severalOf(options);
  const strategy = await loadStrategy(options.strategy ?? config.bot.strategy);
  const params = validateParams(
    strategy,
    config.bot.params,
    options.paramsFile !== undefined
      ? { file: options.paramsFile, path: '' }
      : { path: 'bot.params', ...(options.configFile === undefined ? {} : { file: options.configFile }) },
  );
  const symbols = symbolsOf(strategy, params);
  if (symbols.length === 0)
    throw new TradebotError('RUN_NO_SYMBOLS', `strategy ${strategy.name} trades no symbols: set bot.params.symbols (or symbol)`, {
      kind: 'config',
    });
  return { strategy, params, symbols, specs: undefined };
}

/** `bot.strategies`: every strategy loaded and checked (one error listing every problem), the symbols of all. */
async function severalOf(options: LiveRunOptions) {
  if (options.strategy !== undefined || options.paramsFile !== undefined)
    throw new TradebotError(
      'RUN_STRATEGY_OVERRIDE',
      '--strategy and --params replace the single bot.strategy / bot.params: with bot.strategies, edit the list in the config',
      { kind: 'config' },
    );
  const specs = await loadStrategySpecs(options.config, options.configFile);
  const first = specs[0];
  if (first === undefined) throw new TradebotError('RUN_NO_SYMBOLS', 'bot.strategies lists no strategy', { kind: 'config' });
  const symbols = [...new Set(specs.flatMap((spec) => symbolsOf(spec.definition, spec.params)))];
  return { strategy: first.definition, params: first.params, symbols, specs };
}

/** What the operator controls (endpoint and console): the bot's trading state, or one strategy's (#25). */
function controlTarget(pipeline: RunningPipeline | undefined, strategy?: string) {
  return strategy === undefined ? pipeline?.risk.tradingState : pipeline?.strategies?.get(strategy)?.risk.tradingState;
}

/** What a run has to start its pipeline with. */
interface RunStart {
  readonly run: Awaited<ReturnType<typeof strategyOf>>;
  readonly connection: VenueConnection;
  readonly clock: Clock;
  readonly account: string;
  readonly accounts: readonly string[];
  readonly portfolio: Portfolio;
  /** The pipeline's view of `portfolio` (the final reconciliation books through it too). */
  readonly port: PortfolioPort;
  readonly recorder: RunRecorder | undefined;
  /** With bot.strategies: the pipeline's members and their portfolios. */
  readonly several: StrategyMembers | undefined;
  /** The web console (bot.control.console); undefined: none. */
  readonly liveConsole: LiveConsole | undefined;
}

/**
 * Opens the order journal, the metrics and control endpoints, then starts the pipeline. On a failure, closes
 * what was opened, and the connection, before throwing.
 */
async function startServices(options: LiveRunOptions, start: RunStart) {
  const { config, logger } = options;
  const { run, connection, clock, account, accounts, port, recorder, liveConsole, several } = start;
  let pipeline: RunningPipeline | undefined;
  let metrics: RunMetrics | undefined;
  let control: ControlServer | undefined;
  let journal: Journal | undefined;
  try {
    journal = openRunJournal({ configured: config.bot.journal, account, embeddedSim: connection.sim !== undefined, warnings: logger });
    logger.info({ journal: journal.description }, 'order journal opened');
    metrics = await startRunMetrics(config.bot.metrics, logger);
    if (config.bot.control !== undefined) {
      control = await startControlServer({
        port: config.bot.control.port,
        host: config.bot.control.host,
        log: logger,
        target: (strategy) => controlTarget(pipeline, strategy),
        ...(liveConsole === undefined ? {} : { console: liveConsole.routes }),
      });
      logger.info(
        { url: control.url },
        `operator control at ${control.url} (tradebot control <active|reducing|halted> --port ${control.port})`,
      );
    }
    pipeline = await startPipeline({
      venue: connection.venue,
      clock,
      log: logger,
      strategy: run.strategy,
      params: run.params,
      risk: config.risk,
      portfolio: port,
      account,
      accounts,
      symbols: run.symbols,
      ...(several === undefined ? {} : { strategies: several.members }),
      unknownOrders: config.bot.unknownOrders,
      ...(config.bot.stopGraceMs === undefined ? {} : { stopGraceMs: config.bot.stopGraceMs }),
      journal,
      ...(metrics === undefined && recorder === undefined && liveConsole === undefined
        ? {}
        : {
            record: (event) => {
              metrics?.observe(event);
              recorder?.record(event);
              liveConsole?.observe(event.stream, event.event.type);
            },
          }),
    });
  } catch (error) {
    await control?.close();
    await metrics?.close();
    await recorder?.close().catch(() => undefined);
    await journal?.close().catch(() => undefined);
    await connection.close();
    throw error;
  }
  return { running: pipeline, metrics, control, journal };
}

/** Draws the status line on `stream` (a TTY), over the previous one. */
function statusLineDrawer(
  stream: NodeJS.WriteStream | undefined,
  clock: Clock,
  started: number,
  running: RunningPipeline,
  portfolio: Portfolio,
) {
  return () =>
    stream?.write(
      `\r\x1b[2K${formatStatusLine({
        elapsedSeconds: (clock.now() - started) / 1000,
        tradingState: running.risk.tradingState.state,
        tradingStateCause: running.risk.tradingState.cause,
        positions: positionsOf(portfolio),
        pnl: portfolio.snapshot().totals.netPnl,
        openOrders: running.tracker.open().length,
        orders: running.counters.orders,
        fills: running.counters.fills,
        refusals: running.counters.refusalCount,
      })}`,
    );
}

/** Resolves with why the run stops: the stop signal's reason, or 'duration'. */
async function stopReason(stopSignal: Promise<string>, duration: number | undefined): Promise<string> {
  let durationTimer: NodeJS.Timeout | undefined;
  const reason = await Promise.race([
    stopSignal,
    new Promise<string>((resolve) => {
      if (duration !== undefined) durationTimer = setTimeout(() => resolve('duration'), duration * 1000);
    }),
  ]);
  clearTimeout(durationTimer);
  return reason;
}

/** The `run.summary` line of a stopped run. */
function summaryOf(
  running: RunningPipeline,
  portfolio: Portfolio,
  journal: Journal,
  control: ControlServer | undefined,
  durationMs: number,
  final: SummaryReconciliation,
): RunSummary {
  return {
    event: 'run.summary',
    fills: running.counters.fills,
    orders: running.counters.orders,
    refusals: running.counters.refusalCount,
    pnl: portfolio.snapshot().totals.netPnl.toString(),
    positions: positionsOf(portfolio),
    refusalsByCode: { ...running.counters.refusals },
    durationSeconds: Math.round(durationMs / 100) / 10,
    tradingState: running.risk.tradingState.state,
    tradingStateCause: running.risk.tradingState.cause,
    tradingStateReason: running.risk.tradingState.reason,
    operatorCommands: control?.commands ?? 0,
    openOrders: running.tracker.open().length,
    journal: {
      file: journal.description,
      restored: running.counters.restored,
      appended: journal.stats.appended,
      syncs: journal.stats.syncs,
      syncMicros: journal.stats.syncMicros,
    },
    reconciled: final.reconciled,
    ...(final.reconciled ? {} : { reconcileReason: final.reason }),
    reconcileDifferences: final.reconciled ? final.differences.length : 0,
  };
}

export async function runLive(options: LiveRunOptions): Promise<RunSummary> {
  const { config, logger } = options;
  const run = await strategyOf(options);
  const clock = liveClock();
  const started = clock.now();
  const connection = await connectVenue(
    config,
    run.symbols,
    logger,
    options.configFile === undefined ? {} : { configFile: options.configFile },
  );
  const account = config.bot.account ?? connection.accounts[0];
  if (account === undefined) {
    await connection.close();
    throw new TradebotError('RUN_NO_ACCOUNT', 'no account to trade: set bot.account', { kind: 'config' });
  }
  // the default account is always followed (a bot.accounts that leaves it out would refuse every default intent)
  const accounts = [...new Set([account, ...(config.bot.accounts ?? connection.accounts)])];
  const newPortfolio = () =>
    new Portfolio({
      clock,
      fees: { takerBps: config.bot.fees.takerBps, makerBps: config.bot.fees.makerBps },
      moneyDigits: moneyDigitsOf(connection.instruments),
    });
  const portfolio = newPortfolio();
  const several = run.specs === undefined ? undefined : strategyMembers(run.specs, { account, risk: config.risk, portfolio: newPortfolio });
  const recorder = options.recorder?.({ instruments: connection.instruments, symbols: run.symbols, startTime: started });
  // the console answers 503 until the pipeline runs
  const startedRun: { pipeline?: RunningPipeline } = {};
  const liveConsole =
    config.bot.control?.console === true
      ? new LiveConsole({
          token: config.bot.control.token,
          target: (strategy) => controlTarget(startedRun.pipeline, strategy),
          cancelAll: () => startedRun.pipeline?.cancelAll() ?? Promise.resolve(),
          log: logger,
        })
      : undefined;
  const port = portfolioPort(portfolio);
  const services = { run, connection, clock, account, accounts, portfolio, port, recorder, liveConsole, several };
  const { running, metrics, control, journal } = await startServices(options, services);
  startedRun.pipeline = running;
  if (control !== undefined && liveConsole !== undefined) {
    const { maxMessagesPerSecond } = config.risk;
    const strategies = consoleStrategies(running, several);
    const strategy = several === undefined ? run.strategy.name : several.members.map((m) => m.id).join(', ');
    const feed = { pipeline: running, portfolio, strategy, symbols: run.symbols, maxMessagesPerSecond };
    liveConsole.attach({ ...feed, now: () => clock.now(), ...(strategies === undefined ? {} : { strategies }) });
    logger.info(`web console at ${liveConsole.address(control.url)} (its URL with the access token is on stdout: console.ready)`);
    options.onConsoleReady?.(liveConsole.urlWithToken(control.url));
  }
  options.onOperatorToggle?.(() => {
    const next = running.risk.tradingState.state === 'halted' ? 'active' : 'halted';
    running.risk.tradingState.setState(next, 'operator (SIGUSR2)');
  });
  metrics?.bind({
    counters: running.counters,
    netPnl: () => portfolio.snapshot().totals.netPnl,
    openOrders: () => running.tracker.open().length,
    tradingState: () => running.risk.tradingState.state,
    strategies: () =>
      [...(running.strategies?.values() ?? [])].map((part) => ({
        id: part.id,
        counters: part.counters,
        netPnl: () => several?.portfolios.get(part.id)?.snapshot().totals.netPnl ?? ZERO,
        tradingState: () => part.risk.tradingState.state,
      })),
  });
  const draw = statusLineDrawer(options.statusStream, clock, started, running, portfolio);
  const statusTimer = options.statusStream === undefined ? undefined : setInterval(draw, 500);
  const reason = await stopReason(options.stopSignal, options.durationSeconds ?? config.bot.durationSeconds);
  liveConsole?.close();
  await control?.close();
  if (statusTimer !== undefined) {
    clearInterval(statusTimer);
    draw();
    options.statusStream?.write('\n');
  }
  logger.info({ reason }, 'stopping: cancelling open orders and logging out');
  try {
    await running.stop();
  } catch (error) {
    logger.error({ err: error }, 'stopping the pipeline failed; closing the connection anyway');
  }
  const final = await reconcileSummary({ venue: connection.venue, portfolio: port, accounts, log: logger });
  const summary = summaryOf(running, portfolio, journal, control, clock.now() - started, final);
  if (several !== undefined && running.strategies !== undefined) {
    const totals = { ...summary, refusalsByCode: summary.refusalsByCode };
    const parts = strategyParts(running.strategies, several.portfolios, totals);
    Object.assign(summary, { ...parts, strategies: withTradingStates(parts.strategies, running.strategies) });
  }
  await metrics?.close();
  await recorder?.close();
  try {
    await journal.close();
  } catch (error) {
    logger.error({ err: error }, 'closing the order journal failed');
  }
  await connection.close();
  return summary;
}
