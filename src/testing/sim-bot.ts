/**
 * The sim bot: a strategy in the full pipeline against the embedded exchange simulator, in-process, over
 * loopback (every server on 127.0.0.1, port 0). The sim (and the run's risk section) comes from YAML through the
 * config loader: alice with two accounts (SIM_ACCOUNT, SIM_HEDGE_ACCOUNT), two event contracts (SIM_SYMBOL at a
 * fair value of 0.42, SIM_OTHER_SYMBOL at 0.63) and seeded synthetic activity. Alice logs in through the real
 * GatewayClient; a GatewayVenue wrapped in an ObservedVenue lets the test wait on engine events; a Portfolio and
 * `startPipeline` run on the wall clock. The symbols traded are the plugin's `symbols(params)` (else
 * `params.symbols` / `params.symbol`), as `tradebot run` chooses them. Synthetic activity runs on its own timer
 * (`activityMs`) or one step at a time when the test calls `step()` / `driveUntil()`. What the strategy did is
 * recorded (intents, refusals, fills) as in the scripted market. `close()` stops the pipeline (if the test did
 * not), logs out and closes the sim.
 */
import { configSchema, parseConfigText, type TradebotConfig } from '../config/index.ts';
import type { Decimal } from '../domain/decimal.ts';
import { silentLogger } from '../logging/logger.ts';
import { startSim, type RunningSim } from '../sim/simulator.ts';
import { toDomainInstrument } from '../sim/exchange/instruments.ts';
import { GatewayClient, instrumentCatalog } from '../exchange/gateway/index.ts';
import { liveClock } from '../engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../engine/pipeline/index.ts';
import { moneyDigitsOf, Portfolio } from '../engine/portfolio/index.ts';
import { portfolioPort, type PortfolioPort } from '../engine/portfolio-port.ts';
import { GatewayVenue } from '../bot/venues/gateway-venue.ts';
import { symbolsOf, type AnyStrategy } from '../engine/strategy/define-strategy.ts';
import { validateParams } from '../engine/strategy/loader.ts';
import { testingError } from './errors.ts';
import { ObservedVenue } from './observed-venue.ts';
import { recordStrategy, type StrategyRecorder } from './recorder.ts';
import type { RecordedFill, RecordedIntent, RecordedRefusal } from './records.ts';

/** The sim's first event contract (fair value 0.42) and its second (0.63); prices in cents, whole contracts. */
export const SIM_SYMBOL = 'RAIN-NYC-2026-12-01';
export const SIM_OTHER_SYMBOL = 'FED-CUT-2026-12';
/** Alice's two accounts: the bot trades the first by default and follows both. */
export const SIM_ACCOUNT = 'firms/demo/accounts/alice-main';
export const SIM_HEDGE_ACCOUNT = 'firms/demo/accounts/alice-hedge';
const ALICE_PASSWORD = 'Test-Trader-A-Pass-2026';

export interface SimBotOptions {
  /** The plugin's definition (the default export of a strategy module). */
  strategy: AnyStrategy;
  /** Raw params, as YAML would give them; validated by the plugin's schema (a ConfigError lists every problem). */
  params: Record<string, unknown>;
  /** The `risk:` section's body, YAML, indented by two spaces (default: `maxMessagesPerSecond: 50`). */
  riskYaml?: string;
  /** Activity on a timer of this many ms; undefined: activity steps only when the test calls `step()`. */
  activityMs?: number;
  /** false: no synthetic activity at all (an empty book). */
  activity?: boolean;
  /** Orders found on the exchange that this run did not send: keep tracking them, or cancel them. */
  unknownOrders?: 'adopt' | 'cancel';
  /** The accounts the bot follows (default both of alice's). */
  accounts?: readonly string[];
  /** How long the stop waits for orders in flight (bot.stopGraceMs; default 1000 ms): it ends as soon as they settle. */
  stopGraceMs?: number;
  /** Runs after the sim started and before the pipeline starts (e.g. orders placed directly in the core). */
  beforeStart?: (sim: RunningSim, venue: ObservedVenue) => void;
}

/** A running sim bot; see the module comment. */
export interface SimBot {
  /** The simulator: `sim.core` is the exchange's own view (orders, ledger). */
  sim: RunningSim;
  config: TradebotConfig;
  pipeline: RunningPipeline;
  portfolio: Portfolio;
  port: PortfolioPort;
  venue: ObservedVenue;
  /** The symbols the run trades. */
  symbols: readonly string[];
  /** What the strategy did; also as `intents`, `refusals`, `fills` and their logs below. */
  recorder: StrategyRecorder;
  readonly intents: readonly RecordedIntent[];
  readonly refusals: readonly RecordedRefusal[];
  readonly fills: readonly RecordedFill[];
  intentLog(): string[];
  refusalLog(): string[];
  fillLog(): string[];
  /** The bot's net position in `symbol` as the engine holds it (across alice's accounts unless `account` is given). */
  position(symbol: string, account?: string): Decimal;
  /** One synthetic activity step (when activity is not on a timer). */
  step(): void;
  /** Resolves once `predicate` holds, re-checked after every market/order event and venue answer. */
  waitUntil(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Steps activity (when not on a timer) until `predicate` holds, waiting for the engine between steps. */
  driveUntil(predicate: () => boolean, what: string, maxSteps?: number): Promise<void>;
  /** The account's net position in `symbol` on the exchange (the sim's ledger). */
  exchangePosition(account: string, symbol: string): number;
  /** Stops the pipeline (the strategy's onStop, open orders cancelled). */
  stop(): Promise<void>;
  /** Stops (if not stopped), logs out and closes the sim. */
  close(): Promise<void>;
}

/** The former names of the sim bot (test/engine/helpers/pipeline-sim.ts). */
export type PipelineSimOptions = SimBotOptions;
export type PipelineSim = SimBot;

function configYaml(options: SimBotOptions): string {
  const activity =
    options.activity === false
      ? '{ enabled: false }'
      : `{ enabled: true, seed: 11, intervalMs: ${options.activityMs ?? 1000}, makersPerInstrument: 3, ` +
        'takerProbability: "0.6", volatilityTicks: "0.6", maxOrderQty: 8 }';
  return `
logging: { level: error }
sim:
  ports: { api: 0, auth: 0, gateway: 0, grpc: 0 }
  startingBalance: "100000"
  gateway: { heartbeatSeconds: 1 }
  users:
    - { username: alice, password: "${ALICE_PASSWORD}", participant: firms/demo/users/alice,
        accounts: [${SIM_ACCOUNT}, ${SIM_HEDGE_ACCOUNT}] }
  instruments:
    - { symbol: ${SIM_SYMBOL}, eventGroup: WEATHER, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
    - { symbol: ${SIM_OTHER_SYMBOL}, eventGroup: FED, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.63" }
  activity: ${activity}
risk:
${options.riskYaml ?? '  maxMessagesPerSecond: 50'}
`;
}

/** The params and symbols (TESTING_NO_SYMBOLS when none), the recorded strategy and the run's config. */
function recordedRun(options: SimBotOptions) {
  const params = validateParams(options.strategy, options.params, { path: '' });
  const symbols = symbolsOf(options.strategy, params);
  if (symbols.length === 0)
    throw testingError(
      'TESTING_NO_SYMBOLS',
      `strategy ${options.strategy.name} trades no symbols with these params: ` +
        'give params.symbols (or symbol), or a symbols(params) in the definition',
    );
  const { strategy, recorder } = recordStrategy(options.strategy);
  const config = parseConfigText(configYaml(options), configSchema, { env: {} });
  if (config.sim === undefined) throw testingError('TESTING_SIM_CONFIG', "the sim bot's config has no sim section");
  return { params, symbols, strategy, recorder, config, sim: config.sim };
}

/** SimBot.waitUntil: resolves once `predicate` holds, re-checked on every venue change; TESTING_TIMEOUT after `timeoutMs`. */
function venueWaiter(venue: ObservedVenue, running: RunningPipeline): SimBot['waitUntil'] {
  return (predicate, what, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      if (predicate()) return resolve();
      const finish = (error?: Error) => {
        clearTimeout(deadline);
        subscription.unsubscribe();
        if (error) reject(error);
        else resolve();
      };
      const subscription = venue.changed$.subscribe(() => {
        try {
          if (predicate()) finish();
        } catch (error) {
          finish(error as Error);
        }
      });
      const deadline = setTimeout(() => {
        const pending = [...venue.pending]
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k} x${n}`)
          .join(', ');
        finish(
          testingError(
            'TESTING_TIMEOUT',
            `timed out after ${timeoutMs} ms waiting until ${what} ` +
              `(venue calls in flight: ${pending || 'none'}; counters ${JSON.stringify(running.counters)})`,
          ),
        );
      }, timeoutMs);
    });
}

/** What SimBot.driveUntil steps and waits on. */
interface Drive {
  readonly sim: RunningSim;
  readonly running: RunningPipeline;
  readonly venue: ObservedVenue;
  readonly symbols: readonly string[];
  readonly step: () => void;
  readonly waitUntil: SimBot['waitUntil'];
}

/** SimBot.driveUntil: activity steps until `predicate` holds, each followed by a wait for the engine to handle it. */
async function driveUntil(drive: Drive, predicate: () => boolean, what: string, maxSteps: number): Promise<void> {
  const { sim, running, venue, symbols, step, waitUntil } = drive;
  // core events before the market data subscription are not streamed one by one: start once it is live
  await waitUntil(() => symbols.every((symbol) => running.books.get(symbol) !== undefined), 'the first book of every symbol arrived');
  for (let i = 0; i < maxSteps && !predicate(); i++) {
    const seen = running.counters.bookUpdates;
    // the gateway sends one update per book change of a subscribed symbol: count them during the step
    let changes = 0;
    const counting = sim.core.events$.subscribe((event) => {
      if (event.kind === 'book' && symbols.includes(event.symbol)) changes += 1;
    });
    step();
    counting.unsubscribe();
    await waitUntil(
      () => running.counters.bookUpdates >= seen + changes && venue.inFlight === 0,
      `the engine handled activity step ${i + 1} (${changes} book updates)`,
    );
  }
  if (!predicate()) throw testingError('TESTING_TIMEOUT', `${what}: not reached after ${maxSteps} activity steps`);
}

/** Alice's gateway client on the sim (the client the venue trades through; not logged in yet), and the instruments. */
function aliceClient(sim: RunningSim, log: ReturnType<typeof silentLogger>) {
  const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
  const client = new GatewayClient({
    gatewayUrl: sim.ready.gateway,
    credentials: { username: 'alice', password: ALICE_PASSWORD },
    instruments: instrumentCatalog(instruments),
    retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
    streams: { baseDelayMs: 20, maxDelayMs: 100 },
    logger: log,
  });
  return { client, instruments };
}

/** Starts the sim, logs alice in and starts the pipeline with the (recorded) strategy; see the module comment. */
export async function startSimBot(options: SimBotOptions): Promise<SimBot> {
  const { params, symbols, strategy, recorder, config, sim: simConfig } = recordedRun(options);
  const timer = options.activityMs !== undefined;
  const sim = await startSim(simConfig, { logger: silentLogger(), activityTimer: timer });
  const log = silentLogger();
  let client: GatewayClient | undefined;
  let pipeline: RunningPipeline | undefined;
  let stopped = false;
  try {
    const alice = aliceClient(sim, log);
    client = alice.client;
    await client.login();
    const clock = liveClock();
    const portfolio = new Portfolio({ clock, moneyDigits: moneyDigitsOf(alice.instruments) });
    const port = portfolioPort(portfolio);
    const venue = new ObservedVenue(new GatewayVenue({ client, instruments: alice.instruments }));
    options.beforeStart?.(sim, venue);
    const accounts = options.accounts ?? [SIM_ACCOUNT, SIM_HEDGE_ACCOUNT];
    pipeline = await startPipeline({
      venue,
      clock,
      log,
      strategy,
      params,
      risk: config.risk,
      portfolio: port,
      account: SIM_ACCOUNT,
      accounts,
      symbols,
      ...(options.unknownOrders === undefined ? {} : { unknownOrders: options.unknownOrders }),
      ...(options.stopGraceMs === undefined ? {} : { stopGraceMs: options.stopGraceMs }),
    });
    const running = pipeline;
    const openClient = client;
    const waitUntil = venueWaiter(venue, running);
    const step = () => {
      if (sim.activity === undefined)
        throw testingError('TESTING_SIM_CONFIG', 'step(): synthetic activity is disabled in this sim bot (activity: false)');
      sim.activity.step();
    };
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await running.stop();
    };
    return {
      sim,
      config,
      pipeline: running,
      portfolio,
      port,
      venue,
      symbols,
      recorder,
      intents: recorder.intents,
      refusals: recorder.refusals,
      fills: recorder.fills,
      intentLog: () => recorder.intents.map((i) => i.text),
      refusalLog: () => recorder.refusals.map((r) => r.text),
      fillLog: () => recorder.fills.map((f) => f.text),
      position: (symbol, account) => port.position(symbol, account),
      step,
      waitUntil,
      driveUntil: (predicate, what, maxSteps = 400) =>
        driveUntil({ sim, running, venue, symbols, step, waitUntil }, predicate, what, maxSteps),
      exchangePosition: (account, symbol) => sim.core.ledger.position(account, symbol).net,
      stop,
      async close() {
        await stop().catch(() => undefined);
        await openClient.close().catch(() => undefined);
        await sim.close();
      },
    };
  } catch (error) {
    if (pipeline !== undefined) await pipeline.stop().catch(() => undefined);
    await client?.close().catch(() => undefined);
    await sim.close();
    throw error;
  }
}

/** The sim bot under its former name (every existing engine test uses it). */
export const startPipelineSim = startSimBot;

/** Absolute value of a Decimal as a number (assertions on small positions). */
export const absNumber = (value: Decimal): number => Math.abs(value.toNumber());
