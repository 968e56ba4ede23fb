/**
 * The full pipeline against the real simulator over loopback, for engine and strategy tests: a sim (and the
 * run's risk section) from YAML through the config loader, alice logged in through the real GatewayClient, a
 * GatewayVenue wrapped so a test can wait on what happens (every market event, order event and venue call
 * answer wakes `waitUntil`), a Portfolio, and `startPipeline` on the wall clock. Servers on 127.0.0.1:0.
 * Synthetic activity either runs on its own timer (`activityMs`) or only when the test calls `step()`.
 * `close()` stops the pipeline (if the test did not), logs out and closes the sim.
 */
import { Observable, Subject, type Subscription } from 'rxjs';
import { configSchema, parseConfigText, type TradebotConfig } from '../../../src/config/index.ts';
import type { Decimal } from '../../../src/domain/decimal.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { startSim, type RunningSim } from '../../../src/sim/simulator.ts';
import { toDomainInstrument } from '../../../src/sim/exchange/instruments.ts';
import { GatewayClient, instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import { liveClock } from '../../../src/engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../../../src/engine/pipeline.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort, type PortfolioPort } from '../../../src/engine/portfolio-port.ts';
import { GatewayVenue } from '../../../src/engine/venues/gateway-venue.ts';
import type { AnyStrategy } from '../../../src/engine/strategy/define-strategy.ts';
import type {
  MarketDataEvent,
  OrderStreamEvent,
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../../../src/engine/venue.ts';

export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const OTHER_SYMBOL = 'FED-CUT-2026-12';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
const ALICE_PASSWORD = 'Test-Alice-Pass-2026';

export interface PipelineSimOptions {
  strategy: AnyStrategy;
  params: Record<string, unknown>;
  /** The `risk:` section's body, YAML, indented by two spaces (default: no limits). */
  riskYaml?: string;
  /** Activity on a timer of this many ms; undefined: activity steps only when the test calls `step()`. */
  activityMs?: number;
  /** false: no synthetic activity at all (an empty book). */
  activity?: boolean;
  unknownOrders?: 'adopt' | 'cancel';
  /** The accounts the bot follows (default both of alice's). */
  accounts?: readonly string[];
  /** Runs after the sim started and before the pipeline starts (e.g. orders placed directly in the core). */
  beforeStart?: (sim: RunningSim, venue: ObservedVenue) => void;
}

export interface PipelineSim {
  sim: RunningSim;
  config: TradebotConfig;
  pipeline: RunningPipeline;
  portfolio: Portfolio;
  port: PortfolioPort;
  venue: ObservedVenue;
  /** One synthetic activity step (when activity is not on a timer). */
  step(): void;
  /** Resolves once `predicate` holds, re-checked after every market/order event and venue answer. */
  waitUntil(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Steps activity (when not on a timer) until `predicate` holds, waiting for the engine between steps. */
  driveUntil(predicate: () => boolean, what: string, maxSteps?: number): Promise<void>;
  /** The bot account's net position in `symbol` on the exchange (the sim's ledger). */
  exchangePosition(account: string, symbol: string): number;
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** Venue calls seen by the wrapper. */
export interface VenueCall {
  kind: 'insert' | 'cancel' | 'replace' | 'cross';
  count: number;
}

/**
 * A Venue that forwards to another and reports, after the pipeline handled it, every market and order
 * event and every answer to a call (`changed$`), and counts calls in flight.
 */
export class ObservedVenue implements Venue {
  readonly name: string;
  readonly changed$ = new Subject<void>();
  readonly calls: VenueCall[] = [];
  readonly marketEvents: MarketDataEvent[] = [];
  /** Order calls (insert, cancel, replace, cross) sent and not answered yet. */
  inFlight = 0;
  /** Calls sent and not answered yet, by kind (diagnostics for timeouts). */
  readonly pending = new Map<string, number>();

  constructor(private readonly inner: Venue) {
    this.name = inner.name;
  }

  instruments(symbols: readonly string[]) {
    return this.inner.instruments(symbols);
  }

  marketData(symbols: readonly string[]): Observable<MarketDataEvent> {
    return this.observed(this.inner.marketData(symbols), (event) => this.marketEvents.push(event));
  }

  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent> {
    return this.observed(this.inner.orderUpdates(accounts), () => undefined);
  }

  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    return this.call('insert', requests.length, () => this.inner.insertOrders(requests));
  }

  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    return this.call('cancel', requests.length, () => this.inner.cancelOrders(requests));
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    return this.call('replace', requests.length, () => this.inner.replaceOrders(requests));
  }

  cross(request: VenueCrossRequest): Promise<readonly string[]> {
    return this.call('cross', 1, () => this.inner.cross(request));
  }

  snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    const hold = this.snapshotHold;
    this.snapshotHold = undefined;
    return this.call(undefined, 0, async () => {
      const answer = await this.inner.snapshot(accounts);
      await hold;
      return answer;
    });
  }

  /** The next reconciliation lookup is answered (with what the exchange said when asked) only once `until` resolves. */
  holdNextSnapshot(until: Promise<void>): void {
    this.snapshotHold = until;
  }

  private snapshotHold: Promise<void> | undefined;

  close(): Promise<void> {
    return this.inner.close();
  }

  private observed<T>(source: Observable<T>, seen: (event: T) => void): Observable<T> {
    return new Observable<T>((subscriber) => {
      const subscription: Subscription = source.subscribe({
        next: (event) => {
          seen(event);
          subscriber.next(event);
          this.changed$.next();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return subscription;
    });
  }

  private call<T>(kind: VenueCall['kind'] | undefined, count: number, send: () => Promise<T>): Promise<T> {
    if (kind !== undefined) this.calls.push({ kind, count });
    const label = kind ?? 'snapshot';
    const counted = kind === undefined ? 0 : 1;
    this.inFlight += counted;
    this.pending.set(label, (this.pending.get(label) ?? 0) + 1);
    const done = () => {
      this.inFlight -= counted;
      this.pending.set(label, (this.pending.get(label) ?? 1) - 1);
      // after the caller's own continuation ran
      setImmediate(() => this.changed$.next());
    };
    return send().finally(done);
  }
}

function configYaml(options: PipelineSimOptions): string {
  const activity = options.activity === false ? '{ enabled: false }' : `{ enabled: true, seed: 11, intervalMs: ${options.activityMs ?? 1000}, makersPerInstrument: 3, takerProbability: "0.6", volatilityTicks: "0.6", maxOrderQty: 8 }`;
  return `
logging: { level: error }
sim:
  startingBalance: "100000"
  gateway: { heartbeatSeconds: 1 }
  users:
    - { username: alice, password: "${ALICE_PASSWORD}", participant: firms/demo/users/alice, accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}] }
  instruments:
    - { symbol: ${SYMBOL}, eventGroup: WEATHER, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
    - { symbol: ${OTHER_SYMBOL}, eventGroup: FED, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.63" }
  activity: ${activity}
risk:
${options.riskYaml ?? '  maxMessagesPerSecond: 50'}
`;
}

export async function startPipelineSim(options: PipelineSimOptions): Promise<PipelineSim> {
  const config = parseConfigText(configYaml(options), configSchema, { env: {} });
  if (config.sim === undefined) throw new Error('test config has no sim section');
  const timer = options.activityMs !== undefined;
  const sim = await startSim(config.sim, { logger: silentLogger(), activityTimer: timer });
  const log = silentLogger();
  let client: GatewayClient | undefined;
  let pipeline: RunningPipeline | undefined;
  let stopped = false;
  try {
    const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
    client = new GatewayClient({
      gatewayUrl: sim.ready.gateway,
      credentials: { username: 'alice', password: ALICE_PASSWORD },
      instruments: instrumentCatalog(instruments),
      retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
      streams: { baseDelayMs: 20, maxDelayMs: 100 },
      logger: log,
    });
    await client.login();
    const clock = liveClock();
    const portfolio = new Portfolio({ clock });
    const port = portfolioPort(portfolio);
    const venue = new ObservedVenue(new GatewayVenue({ client, instruments }));
    options.beforeStart?.(sim, venue);
    const accounts = options.accounts ?? [ALICE_MAIN, ALICE_HEDGE];
    const symbols = (options.params['symbols'] as string[] | undefined) ?? [String(options.params['symbol'])];
    pipeline = await startPipeline({
      venue,
      clock,
      log,
      strategy: options.strategy,
      params: options.strategy.params.parse(options.params),
      risk: config.risk,
      portfolio: port,
      account: ALICE_MAIN,
      accounts,
      symbols,
      ...(options.unknownOrders === undefined ? {} : { unknownOrders: options.unknownOrders }),
    });
    const running = pipeline;
    const openClient = client;

    const waitUntil = (predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> =>
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
          const pending = [...venue.pending].filter(([, n]) => n > 0).map(([k, n]) => `${k} x${n}`).join(', ');
          finish(new Error(`timed out after ${timeoutMs} ms waiting until ${what} (venue calls in flight: ${pending || 'none'}; counters ${JSON.stringify(running.counters)})`));
        }, timeoutMs);
      });

    const step = () => {
      if (sim.activity === undefined) throw new Error('activity is disabled in this test sim');
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
      step,
      waitUntil,
      async driveUntil(predicate, what, maxSteps = 400) {
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
          await waitUntil(() => running.counters.bookUpdates >= seen + changes && venue.inFlight === 0, `the engine handled activity step ${i + 1} (${changes} book updates)`);
        }
        if (!predicate()) throw new Error(`${what}: not reached after ${maxSteps} activity steps`);
      },
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

/** Absolute value of a Decimal as a number (test assertions). */
export const absNumber = (value: Decimal): number => Math.abs(value.toNumber());
