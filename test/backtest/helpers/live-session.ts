/**
 * A live session with recording on, for the parity test: the embedded exchange (config through the config
 * loader, servers on 127.0.0.1:0, market activity stepped by the test), the real GatewayClient and
 * GatewayVenue (NDJSON streams), the pipeline, and `openRecorder` on the pipeline's `record` hook, exactly
 * what `tradebot run --record` attaches. The bot's clock is injected (the pipeline takes any Clock) and
 * moves `stepMs` per activity step, so the session runs as fast as the machine allows while the bot's
 * engine time (its rate limits, the recorded times) is that of an exchange stepping every `stepMs`.
 *
 * `step()` moves the bot's clock, runs one activity step and waits until the session is quiet: every book change of the traded
 * symbols and every execution or cancel reject of the bot's account that the exchange emitted has reached
 * the pipeline, and no venue call is in flight (the bot's reactions to the step, and the exchange's answers
 * to those, included). Waiting is on events (each stream event after the pipeline handled it, each venue
 * answer), never on time; a deadline only turns a hang into a failure that says what was missing.
 */
import { Observable, Subject } from 'rxjs';
import { openRecorder, type Recorder } from '../../../backtest/recording/recorder.ts';
import { configSchema, parseConfigText, type TradebotConfig } from '../../../src/config/index.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../../../src/engine/pipeline/index.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import type { AnyStrategy } from '../../../src/engine/strategy/define-strategy.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../../src/domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../../../src/engine/venue.ts';
import { GatewayVenue } from '../../../src/bot/venues/gateway-venue.ts';
import { GatewayClient, instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { toDomainInstrument } from '../../../src/sim/exchange/instruments.ts';
import { startSim, type RunningSim } from '../../../src/sim/simulator.ts';

export const SESSION_SYMBOL = 'RAIN-NYC-2026-12-01';
export const SESSION_ACCOUNT = 'firms/demo/accounts/alice-main';
const PASSWORD = 'Test-Alice-Pass-2026';

/** The session's config: a sim with one contract and seeded activity, the bot's account and risk limits. */
export function sessionConfigYaml(seed: number): string {
  return `
logging: { level: error }
sim:
  startingBalance: "100000"
  gateway: { heartbeatSeconds: 1, rateLimitPerSecond: 100000 }
  users:
    - { username: alice, password: "${PASSWORD}", participant: firms/demo/users/alice, accounts: [${SESSION_ACCOUNT}] }
  instruments:
    - { symbol: ${SESSION_SYMBOL}, eventGroup: WEATHER, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
  activity: { enabled: true, seed: ${seed}, intervalMs: 1000, makersPerInstrument: 3,
    takerProbability: "0.7", volatilityTicks: "0.8", maxOrderQty: 8 }
bot:
  account: ${SESSION_ACCOUNT}
  fees: { takerBps: "10", makerBps: "0" }
risk:
  maxOrderQty: "50"
  maxPosition: "1000"
  maxOpenOrders: 20
  maxMessagesPerSecond: 100
`;
}

export interface LiveSession {
  readonly sim: RunningSim;
  readonly config: TradebotConfig;
  readonly pipeline: RunningPipeline;
  /** Recorded events so far. */
  readonly recorded: () => number;
  /** One activity step, then waits until the session is quiet. */
  step(): Promise<void>;
  /** Stops the pipeline (the strategy's onStop, open orders cancelled), waits for quiet, closes the recording. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** Forwards to a venue and tells (`changed$`) after the pipeline handled each stream event and after each call settled. */
class QuietVenue implements Venue {
  readonly name: string;
  readonly changed$ = new Subject<void>();
  inFlight = 0;

  constructor(private readonly inner: Venue) {
    this.name = inner.name;
  }

  instruments(symbols: readonly string[]) {
    return this.inner.instruments(symbols);
  }

  marketData(symbols: readonly string[]): Observable<MarketDataEvent> {
    return this.observed(this.inner.marketData(symbols));
  }

  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent> {
    return this.observed(this.inner.orderUpdates(accounts));
  }

  insertOrders(requests: readonly VenueOrderRequest[]) {
    return this.call(() => this.inner.insertOrders(requests));
  }

  cancelOrders(requests: readonly VenueCancelRequest[]) {
    return this.call(() => this.inner.cancelOrders(requests));
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]) {
    return this.call(() => this.inner.replaceOrders(requests));
  }

  cross(request: VenueCrossRequest) {
    return this.call(() => this.inner.cross(request));
  }

  snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    return this.call(() => this.inner.snapshot(accounts));
  }

  close() {
    return this.inner.close();
  }

  private observed<T>(source: Observable<T>): Observable<T> {
    return new Observable<T>((subscriber) => {
      const subscription = source.subscribe({
        next: (event) => {
          subscriber.next(event);
          this.changed$.next();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return subscription;
    });
  }

  private call<T>(send: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    return send().finally(() => {
      this.inFlight -= 1;
      // after the caller's own continuation ran
      setImmediate(() => this.changed$.next());
    });
  }
}

/** The bot's clock at the start of a session (steps move it on by stepMs). */
export const SESSION_START = Date.UTC(2026, 10, 30, 14, 0, 0);

export async function startLiveSession(options: {
  strategy: AnyStrategy;
  params: Record<string, unknown>;
  recording: string;
  seed: number;
  stepMs: number;
}): Promise<LiveSession> {
  const config = parseConfigText(sessionConfigYaml(options.seed), configSchema, { env: {} });
  if (config.sim === undefined) throw new Error('the session config has no sim section');
  const sim = await startSim(config.sim, { logger: silentLogger(), activityTimer: false });
  const symbols = [SESSION_SYMBOL];
  const accounts = [SESSION_ACCOUNT];
  // what the exchange emitted that the bot must receive: book changes of its symbols, its executions and cancel rejects
  const emitted = { books: symbols.length /* the stream's opening snapshot per symbol */, orders: 0 };
  const received = { books: 0, orders: 0, snapshot: false };
  const coreWatch = sim.core.events$.subscribe((event) => {
    if (event.kind === 'book' && symbols.includes(event.symbol)) emitted.books += 1;
    if (event.kind === 'execution' && accounts.includes(event.execution.order.account)) emitted.orders += 1;
    if (event.kind === 'cancelReject' && event.reject.account !== undefined && accounts.includes(event.reject.account)) emitted.orders += 1;
  });
  let client: GatewayClient | undefined;
  let recorder: Recorder | undefined;
  let pipeline: RunningPipeline | undefined;
  try {
    const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
    client = new GatewayClient({
      gatewayUrl: sim.ready.gateway,
      credentials: { username: 'alice', password: PASSWORD },
      instruments: instrumentCatalog(instruments),
      logger: silentLogger(),
    });
    await client.login();
    const clock = new VirtualClock(SESSION_START);
    const openRecording = openRecorder(options.recording, { instruments, symbols, startTime: clock.now(), now: () => clock.now() });
    recorder = openRecording;
    const venue = new QuietVenue(new GatewayVenue({ client, instruments }));
    const portfolio = new Portfolio({ clock, fees: { takerBps: config.bot.fees.takerBps, makerBps: config.bot.fees.makerBps } });
    pipeline = await startPipeline({
      venue,
      clock,
      log: silentLogger(),
      strategy: options.strategy,
      params: options.strategy.params.parse(options.params),
      risk: config.risk,
      portfolio: portfolioPort(portfolio),
      account: SESSION_ACCOUNT,
      accounts,
      symbols,
      record: (event) => {
        openRecording.record(event);
        if (event.stream === 'market' && event.event.type === 'book') received.books += 1;
        if (event.stream === 'orders' && (event.event.type === 'execution' || event.event.type === 'cancelReject')) received.orders += 1;
        if (event.stream === 'orders' && event.event.type === 'snapshot') received.snapshot = true;
      },
    });
    const running = pipeline;
    const openClient = client;
    const quiet = () => received.snapshot && received.books >= emitted.books && received.orders >= emitted.orders && venue.inFlight === 0;
    const waitQuiet = (what: string): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!quiet()) return false;
          clearTimeout(deadline);
          subscription.unsubscribe();
          resolve();
          return true;
        };
        const subscription = venue.changed$.subscribe(() => void check());
        const deadline = setTimeout(() => {
          subscription.unsubscribe();
          reject(
            new Error(
              `${what}: the session did not get quiet (books ${received.books}/${emitted.books}, ` +
                `order events ${received.orders}/${emitted.orders}, calls in flight ${venue.inFlight})`,
            ),
          );
        }, 30_000);
        check();
      });
    await waitQuiet('start');
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await running.stop();
      await openRecording.close();
    };
    return {
      sim,
      config,
      pipeline: running,
      recorded: () => openRecording.events,
      async step() {
        clock.advanceTo(clock.now() + options.stepMs);
        sim.activity?.step();
        await waitQuiet(`activity step`);
      },
      async stop() {
        await stop();
      },
      async close() {
        await stop().catch(() => undefined);
        coreWatch.unsubscribe();
        await openClient.close().catch(() => undefined);
        await sim.close();
      },
    };
  } catch (error) {
    await pipeline?.stop().catch(() => undefined);
    await recorder?.close().catch(() => undefined);
    await client?.close().catch(() => undefined);
    coreWatch.unsubscribe();
    await sim.close();
    throw error;
  }
}
