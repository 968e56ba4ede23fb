/**
 * The live bot against the embedded simulator, for reliability tests: the sim (from YAML through the config
 * loader, market activity on its own timer, fault injection and a state file as the test asks), the real
 * GatewayClient (short timeouts and backoffs), the gateway's NDJSON streams or the gRPC streams, and the
 * pipeline assembled the way src/engine/live/run-live.ts does it (GatewayVenue, Portfolio, startPipeline,
 * the demo market maker), on the wall clock. Servers on 127.0.0.1:0.
 *
 * What the checks need is recorded from the start: every (account, clord_id) -> order ids the exchange
 * created for the bot's accounts, the fills the tracker derived, the differences each reconciliation found,
 * the trading state changes and any unhandled promise rejection. `restartSim` stops the simulator (with
 * or without its final state write, i.e. SIGTERM or SIGKILL) and starts a new one on the same ports from
 * the same state file. Waits are on events (every market/order event, venue answer and exchange event).
 */
import { Subject, merge, type Subscription } from 'rxjs';
import { configSchema, parseConfigText, type TradebotConfig } from '../../../src/config/index.ts';
import type { Instrument } from '../../../src/domain/index.ts';
import { silentLogger, createLogger } from '../../../src/logging/logger.ts';
import { startSim, type RunningSim } from '../../../src/sim/simulator.ts';
import type { SimConfig } from '../../../src/sim/config.ts';
import { toDomainInstrument } from '../../../src/sim/exchange/instruments.ts';
import { GatewayClient, instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import { liveClock } from '../../../src/engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../../../src/engine/pipeline.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort, type PortfolioPort } from '../../../src/engine/portfolio-port.ts';
import { GatewayVenue } from '../../../src/engine/venues/gateway-venue.ts';
import { grpcStreams, onboardEphemeralClient, BOT_CLIENT_ID, type StreamSources } from '../../../src/engine/live/stream-transport.ts';
import type { TradingStateChange } from '../../../src/engine/risk/index.ts';
import marketMaker from '../../../strategies/market-maker.ts';
import { WatchedVenue } from './watched-venue.ts';

export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
export const BOT_ACCOUNTS = [ALICE_MAIN, ALICE_HEDGE] as const;
const PARTICIPANT = 'firms/demo/users/alice';
const PASSWORD = 'Test-Alice-Pass-2026';

export interface LiveBotOptions {
  /** Extra `sim.gateway` flow-mapping entries, e.g. `accessTokenTtlSeconds: 2`. */
  gateway?: string;
  /** Extra YAML under `sim:` (two-space indent), e.g. a `faults:` block or `stateFile: ...`. */
  sim?: string;
  /** Activity interval, ms (default 50). */
  activityMs?: number;
  /** Client per-call deadline, ms (default 2000). */
  timeoutMs?: number;
  /** Client stream silence watchdog, ms (default 3000; the sim heartbeats every 0.5 s). */
  silenceTimeoutMs?: number;
  /** Market data and order updates over the gateway's NDJSON (default) or gRPC. */
  streams?: 'ndjson' | 'grpc';
}

/** A signed position per "account symbol". */
export type Positions = Map<string, number>;

export interface LiveBot {
  /** The running simulator (a new one after `restartSim`). */
  readonly sim: RunningSim;
  readonly config: TradebotConfig;
  readonly pipeline: RunningPipeline;
  readonly portfolio: Portfolio;
  readonly port: PortfolioPort;
  readonly client: GatewayClient;
  readonly venue: WatchedVenue;
  /** Every trading state change since the start. */
  readonly stateChanges: TradingStateChange[];
  /** Unhandled promise rejections seen since the start. */
  readonly rejections: unknown[];
  /** Differences each reconciliation found between the local view and the exchange. */
  readonly reconcileDifferences: string[];
  /** (account + clord_id) -> order ids the exchange created for it, across restarts. */
  readonly exchangeOrdersByClord: ReadonlyMap<string, ReadonlySet<string>>;
  /** Sum of the fills the tracker derived, by "account symbol". */
  readonly trackedFills: Positions;
  /** Every retry the gateway client made: the path and the error code of the failed attempt. */
  readonly retries: { path: string; code: string }[];
  /** Resolves once `predicate` holds, re-checked on every event; rejects after `timeoutMs` with `what`. */
  waitUntil(predicate: () => boolean, what: string, timeoutMs?: number, describe?: () => string): Promise<void>;
  /** The exchange's positions of the bot's accounts (ledger, in contracts). */
  exchangePositions(): Positions;
  /** The portfolio's positions of the bot's accounts. */
  localPositions(): Positions;
  /** Stops the simulator (writing its state unless `crash`) and starts a new one on the same ports. */
  restartSim(options: { crash: boolean }): Promise<void>;
  close(): Promise<void>;
}

function configYaml(options: LiveBotOptions): string {
  return `
logging: { level: error }
sim:
  startingBalance: "100000"
  gateway: { heartbeatSeconds: "0.5"${options.gateway === undefined ? '' : `, ${options.gateway}`} }
  users:
    - { username: alice, password: "${PASSWORD}", participant: ${PARTICIPANT}, accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}] }
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
  activity: { enabled: true, seed: 11, intervalMs: ${options.activityMs ?? 50}, makersPerInstrument: 3, takerProbability: "0.6", volatilityTicks: "0.6", maxOrderQty: 8 }
${options.sim ?? ''}
risk:
  maxMessagesPerSecond: 50
  maxPosition: "30"
`;
}

const key = (account: string, symbol: string) => `${account} ${symbol}`;

/** Ports of a running sim, to start its successor on the same ones (clients keep their URLs). */
function portsOf(sim: RunningSim): SimConfig['ports'] {
  const port = (url: string) => Number(new URL(url.includes('://') ? url : `http://${url}`).port);
  return { api: port(sim.ready.api), auth: port(sim.ready.auth), gateway: port(sim.ready.gateway), grpc: port(sim.ready.grpc) };
}

function logger() {
  const file = process.env['RELIABILITY_LOG'];
  return file === undefined ? silentLogger() : createLogger({ level: 'debug', pretty: false, destination: process.stderr });
}

export async function startLiveBot(options: LiveBotOptions = {}): Promise<LiveBot> {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  const config = parseConfigText(configYaml(options), configSchema, { env: {} });
  if (config.sim === undefined) throw new Error('test config has no sim section');
  const log = logger();
  const onboarded = options.streams === 'grpc' ? onboardEphemeralClient(config.sim, PARTICIPANT) : undefined;
  const simConfig = onboarded?.sim ?? config.sim;
  let sim = await startSim(simConfig, { logger: log.child({ component: 'sim' }) });

  const wake$ = new Subject<void>();
  const byClord = new Map<string, Set<string>>();
  let coreSubscription: Subscription | undefined;
  const watchCore = (running: RunningSim) => {
    coreSubscription?.unsubscribe();
    coreSubscription = running.core.events$.subscribe((event) => {
      if (event.kind === 'execution') {
        const order = event.execution.order;
        if ((BOT_ACCOUNTS as readonly string[]).includes(order.account) && order.clordId !== undefined) {
          const k = `${order.account} ${order.clordId}`;
          const ids = byClord.get(k) ?? new Set<string>();
          ids.add(order.orderId);
          byClord.set(k, ids);
        }
      }
      wake$.next();
    });
  };
  watchCore(sim);

  const instruments: Instrument[] = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
  const retries: { path: string; code: string }[] = [];
  const client = new GatewayClient({
    gatewayUrl: sim.ready.gateway,
    credentials: { username: 'alice', password: PASSWORD },
    instruments: instrumentCatalog(instruments),
    timeoutMs: options.timeoutMs ?? 2000,
    retry: {
      maxAttempts: 5,
      baseDelayMs: 20,
      maxDelayMs: 300,
      onRetry: (info) => void retries.push({ path: info.request.path, code: String((info.error as { code?: unknown }).code) }),
    },
    streams: { baseDelayMs: 20, maxDelayMs: 300, silenceTimeoutMs: options.silenceTimeoutMs ?? 3000 },
    logger: log.child({ component: 'gateway' }),
  });
  let streams: StreamSources | undefined;
  let pipeline: RunningPipeline | undefined;
  try {
    await client.login();
    if (onboarded !== undefined) {
      const exchange = {
        apiUrl: sim.ready.api,
        authUrl: sim.ready.auth,
        gatewayUrl: sim.ready.gateway,
        grpcAddress: sim.ready.grpc,
        familyA: { clientId: BOT_CLIENT_ID, privateKeyFile: onboarded.privateKeyFile, participant: PARTICIPANT, refreshMarginSeconds: 30 },
      };
      streams = grpcStreams(exchange as Parameters<typeof grpcStreams>[0], instruments, log);
    }
    const sources = streams;
    const venue = new WatchedVenue(
      new GatewayVenue({
        client,
        instruments,
        ...(sources === undefined ? {} : { marketData: (symbols: readonly string[]) => sources.marketData(symbols), orderUpdates: (accounts: readonly string[]) => sources.orderUpdates(accounts) }),
      }),
    );
    const clock = liveClock();
    const portfolio = new Portfolio({ clock });
    const inner = portfolioPort(portfolio);
    const reconcileDifferences: string[] = [];
    const port: PortfolioPort = {
      ...inner,
      reconcile: (positions, balances) => {
        const differences = inner.reconcile(positions, balances);
        reconcileDifferences.push(...differences);
        return differences;
      },
    };
    const params = marketMaker.params.parse({ symbols: [SYMBOL], halfSpread: '0.01', quoteQty: '5', maxInventory: '25', skewPerContract: '0.002' });
    pipeline = await startPipeline({ venue, clock, log: log.child({ component: 'bot' }), strategy: marketMaker, params, risk: config.risk, portfolio: port, account: ALICE_MAIN, accounts: BOT_ACCOUNTS, symbols: [SYMBOL] });
    const running = pipeline;
    const stateChanges: TradingStateChange[] = [];
    const trackedFills: Positions = new Map();
    const subscriptions = [
      running.risk.tradingState.changes$.subscribe((change) => stateChanges.push(change)),
      running.tracker.fills$.subscribe((fill) => {
        const k = key(fill.account, fill.symbol);
        trackedFills.set(k, (trackedFills.get(k) ?? 0) + (fill.side === 'BUY' ? 1 : -1) * fill.qty.toNumber());
      }),
    ];

    const waitUntil = (predicate: () => boolean, what: string, timeoutMs = 30_000, describe?: () => string): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        if (predicate()) return resolve();
        const finish = (error?: Error) => {
          clearTimeout(deadline);
          subscription.unsubscribe();
          if (error) reject(error);
          else resolve();
        };
        const subscription = merge(venue.changed$, wake$).subscribe(() => {
          try {
            if (predicate()) finish();
          } catch (error) {
            finish(error as Error);
          }
        });
        const deadline = setTimeout(() => {
          finish(new Error(`timed out after ${timeoutMs} ms waiting until ${what}${describe === undefined ? '' : `: ${describe()}`} (counters ${JSON.stringify(running.counters)})`));
        }, timeoutMs);
      });

    const exchangePositions = (): Positions => {
      const out: Positions = new Map();
      for (const account of BOT_ACCOUNTS) {
        for (const p of sim.core.ledger.positionsOf(account)) {
          const scale = sim.core.instrument(p.symbol)?.scales.qtyScale ?? 1;
          if (p.net !== 0) out.set(key(account, p.symbol), p.net / scale);
        }
      }
      return out;
    };
    const localPositions = (): Positions => new Map(port.positions().map((p) => [key(p.account, p.symbol), p.qty.toNumber()]));

    let closed = false;
    const bot: LiveBot = {
      get sim() {
        return sim;
      },
      config,
      pipeline: running,
      portfolio,
      port,
      client,
      venue,
      stateChanges,
      rejections,
      reconcileDifferences,
      exchangeOrdersByClord: byClord,
      trackedFills,
      retries,
      waitUntil,
      exchangePositions,
      localPositions,
      async restartSim({ crash }) {
        const ports = portsOf(sim);
        await sim.close({ writeState: !crash });
        sim = await startSim({ ...simConfig, ports }, { logger: log.child({ component: 'sim' }) });
        watchCore(sim);
      },
      async close() {
        if (closed) return;
        closed = true;
        await running.stop().catch(() => undefined);
        for (const s of subscriptions) s.unsubscribe();
        coreSubscription?.unsubscribe();
        await streams?.close().catch(() => undefined);
        await client.close().catch(() => undefined);
        await sim.close();
        onboarded?.cleanup();
        process.off('unhandledRejection', onRejection);
      },
    };
    return bot;
  } catch (error) {
    await pipeline?.stop().catch(() => undefined);
    await streams?.close().catch(() => undefined);
    await client.close().catch(() => undefined);
    await sim.close();
    onboarded?.cleanup();
    process.off('unhandledRejection', onRejection);
    throw error;
  }
}
