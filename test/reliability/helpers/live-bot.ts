/**
 * The live bot against the embedded simulator, for reliability tests: the sim (from YAML through the config
 * loader, market activity on its own timer, fault injection and a state file as the test asks) on
 * 127.0.0.1:0, and the bot of bot-rig.ts on it (real GatewayClient, NDJSON or gRPC streams, the pipeline as
 * run-live.ts assembles it, the order journal on a temp file unless `journal: false`).
 *
 * Besides what the rig records, every (account, clord_id) -> order ids the exchange created for the bot's
 * accounts is recorded from the exchange's own events. `restartSim` stops the simulator (with or without its
 * final state write, i.e. SIGTERM or SIGKILL as far as the state file goes) and starts a new one on the same
 * ports from the same state file. Waits are on events (every market/order event, venue answer and exchange
 * event).
 */
import { Subject, type Subscription } from 'rxjs';
import { configSchema, parseConfigText, type TradebotConfig } from '../../../src/config/index.ts';
import type { Instrument } from '../../../src/domain/index.ts';
import { silentLogger, createLogger } from '../../../src/logging/logger.ts';
import { startSim, type RunningSim } from '../../../src/sim/simulator.ts';
import type { SimConfig } from '../../../src/sim/config.ts';
import { toDomainInstrument } from '../../../src/sim/exchange/instruments.ts';
import { grpcStreams, onboardEphemeralClient, BOT_CLIENT_ID, type StreamSources } from '../../../src/bot/live/stream-transport.ts';
import {
  ALICE_HEDGE,
  ALICE_MAIN,
  BOT_ACCOUNTS,
  PARTICIPANT,
  SYMBOL,
  positionKey,
  startBotRig,
  type BotRig,
  type Positions,
} from './bot-rig.ts';

export { ALICE_HEDGE, ALICE_MAIN, BOT_ACCOUNTS, SYMBOL, type Positions };
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
  /** The order journal: a temp file (default, the `bot.journal` a live run against an environment has), or none. */
  journal?: false;
}

export interface LiveBot extends BotRig {
  /** The running simulator (a new one after `restartSim`). */
  readonly sim: RunningSim;
  readonly config: TradebotConfig;
  /** (account + clord_id) -> order ids the exchange created for it, across restarts. */
  readonly exchangeOrdersByClord: ReadonlyMap<string, ReadonlySet<string>>;
  /** The exchange's positions of the bot's accounts (ledger, in contracts). */
  exchangePositions(): Positions;
  /** Stops the simulator (writing its state unless `crash`) and starts a new one on the same ports. */
  restartSim(options: { crash: boolean }): Promise<void>;
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
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
  activity: { enabled: true, seed: 11, intervalMs: ${options.activityMs ?? 50}, makersPerInstrument: 3,
    takerProbability: "0.6", volatilityTicks: "0.6", maxOrderQty: 8 }
${options.sim ?? ''}
risk:
  maxMessagesPerSecond: 50
  maxPosition: "30"
`;
}

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

  const instruments: Instrument[] = sim.core
    .instruments()
    .map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
  let streams: StreamSources | undefined;
  let rig: BotRig | undefined;
  try {
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
    rig = await startBotRig({
      gatewayUrl: sim.ready.gateway,
      password: PASSWORD,
      instruments,
      risk: config.risk,
      logger: log,
      ...(streams === undefined ? {} : { streams }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.silenceTimeoutMs === undefined ? {} : { silenceTimeoutMs: options.silenceTimeoutMs }),
      ...(options.journal === false ? { journal: false as const } : {}),
      wake$,
    });
    const bot: BotRig = rig;
    const exchangePositions = (): Positions => {
      const out: Positions = new Map();
      for (const account of BOT_ACCOUNTS) {
        for (const p of sim.core.ledger.positionsOf(account)) {
          const scale = sim.core.instrument(p.symbol)?.scales.qtyScale ?? 1;
          if (p.net !== 0) out.set(positionKey(account, p.symbol), p.net / scale);
        }
      }
      return out;
    };
    let closed = false;
    const live: LiveBot = {
      ...bot,
      get sim() {
        return sim;
      },
      config,
      exchangeOrdersByClord: byClord,
      exchangePositions,
      async restartSim({ crash }) {
        const ports = portsOf(sim);
        await sim.close({ writeState: !crash });
        sim = await startSim({ ...simConfig, ports }, { logger: log.child({ component: 'sim' }) });
        watchCore(sim);
      },
      async close() {
        if (closed) return;
        closed = true;
        await bot.close();
        coreSubscription?.unsubscribe();
        await streams?.close().catch(() => undefined);
        await sim.close();
        onboarded?.cleanup();
      },
    };
    return live;
  } catch (error) {
    await rig?.close().catch(() => undefined);
    await streams?.close().catch(() => undefined);
    await sim.close();
    onboarded?.cleanup();
    throw error;
  }
}
