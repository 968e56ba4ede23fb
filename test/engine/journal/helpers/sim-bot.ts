/**
 * An in-process embedded exchange (activity off, so nothing moves unless the test moves it) and a bot
 * pipeline on it with an order journal: the real GatewayClient, a GatewayVenue whose order calls are
 * logged, OrderTracker, risk and portfolio, on the wall clock. `waitFor` re-checks a predicate after every
 * tracker update, fill and venue answer (never sleeps). Orders an earlier "run" left behind are put on the
 * exchange directly through the sim's core (`rest`), in wire units (price 41 = 0.41).
 */
import { Subject } from 'rxjs';
import { configSchema, parseConfigText, type TradebotConfig } from '../../../../src/config/index.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';
import { startSim, type RunningSim } from '../../../../src/sim/simulator.ts';
import { toDomainInstrument } from '../../../../src/sim/exchange/instruments.ts';
import { GatewayClient, instrumentCatalog } from '../../../../src/exchange/gateway/index.ts';
import { liveClock } from '../../../../src/engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../../../../src/engine/pipeline/index.ts';
import { Portfolio } from '../../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../../src/engine/portfolio-port.ts';
import { GatewayVenue } from '../../../../src/bot/venues/gateway-venue.ts';
import type { AnyStrategy } from '../../../../src/engine/strategy/define-strategy.ts';
import type { Journal } from '../../../../src/engine/journal/index.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderQuery,
  VenueOrderRequest,
  VenueReplaceRequest,
} from '../../../../src/engine/venue.ts';
import type { Fill } from '../../../../src/engine/orders/index.ts';
import { ACCOUNT, SYMBOL } from './entries.ts';

const PASSWORD = 'Test-Alice-Pass-2026';
export const COUNTERPARTY = 'firms/other/accounts/street';

const CONFIG = `
logging: { level: error }
sim:
  users:
    - { username: alice, password: "${PASSWORD}", participant: firms/demo/users/alice, accounts: [${ACCOUNT}] }
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.50" }
  activity: { enabled: false }
risk:
  maxMessagesPerSecond: 50
`;

/** The gateway venue, logging every insert's clordIds and calling `answered` after each order call or lookup. */
class LoggedVenue implements Venue {
  readonly name = 'gateway';
  constructor(
    private readonly inner: GatewayVenue,
    private readonly inserted: string[],
    private readonly answered: () => void,
  ) {}
  instruments(symbols: readonly string[]) {
    return this.inner.instruments(symbols);
  }
  marketData(symbols: readonly string[]) {
    return this.inner.marketData(symbols);
  }
  orderUpdates(accounts: readonly string[]) {
    return this.inner.orderUpdates(accounts);
  }
  insertOrders(requests: readonly VenueOrderRequest[]) {
    this.inserted.push(...requests.map((r) => r.clordId));
    return this.inner.insertOrders(requests).finally(this.answered);
  }
  cancelOrders(requests: readonly VenueCancelRequest[]) {
    return this.inner.cancelOrders(requests).finally(this.answered);
  }
  replaceOrders(requests: readonly VenueReplaceRequest[]) {
    return this.inner.replaceOrders(requests).finally(this.answered);
  }
  cross(request: VenueCrossRequest) {
    return this.inner.cross(request).finally(this.answered);
  }
  snapshot(accounts: readonly string[]) {
    return this.inner.snapshot(accounts).finally(this.answered);
  }
  lookupOrder(query: VenueOrderQuery) {
    return this.inner.lookupOrder(query).finally(this.answered);
  }
  close() {
    return this.inner.close();
  }
}

export interface SimBot {
  sim: RunningSim;
  config: TradebotConfig;
  /** clordIds of every insert the bot sent (all runs of this SimBot). */
  inserted: string[];
  fills: Fill[];
  /** Puts an order on the exchange as if an earlier run had sent it; returns its exchange order id. */
  rest(
    clordId: string,
    side: 'SIDE_BUY' | 'SIDE_SELL',
    price: number,
    qty: number,
    tif?: 'TIME_IN_FORCE_GOOD_TILL_CANCEL' | 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  ): string;
  /** Another firm trades against the book (a taker). */
  take(side: 'SIDE_BUY' | 'SIDE_SELL', price: number, qty: number): void;
  start(journal: Journal, strategy: AnyStrategy): Promise<RunningPipeline>;
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSimBot(): Promise<SimBot> {
  const config = parseConfigText(CONFIG, configSchema, { env: {} });
  if (config.sim === undefined) throw new Error('no sim section');
  const sim = await startSim(config.sim, { logger: silentLogger(), activityTimer: false });
  const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
  const client = new GatewayClient({
    gatewayUrl: sim.ready.gateway,
    credentials: { username: 'alice', password: PASSWORD },
    instruments: instrumentCatalog(instruments),
    logger: silentLogger(),
  });
  await client.login();
  const changed = new Subject<void>();
  const inserted: string[] = [];
  const fills: Fill[] = [];
  const venue = new LoggedVenue(new GatewayVenue({ client, instruments }), inserted, () => setImmediate(() => changed.next()));
  const pipelines: RunningPipeline[] = [];
  return {
    sim,
    config,
    inserted,
    fills,
    rest(clordId, side, price, qty, tif = 'TIME_IN_FORCE_GOOD_TILL_CANCEL') {
      sim.core.submit({
        account: ACCOUNT,
        symbol: SYMBOL,
        side,
        type: 'ORDER_TYPE_LIMIT',
        price,
        orderQty: qty,
        timeInForce: tif,
        clordId,
      });
      const orderId = sim.core.orderIdFor(ACCOUNT, clordId);
      if (orderId === undefined) throw new Error(`the sim did not take ${clordId}`);
      return orderId;
    },
    take(side, price, qty) {
      sim.core.submit({
        account: COUNTERPARTY,
        symbol: SYMBOL,
        side,
        type: 'ORDER_TYPE_LIMIT',
        price,
        orderQty: qty,
        timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
      });
    },
    async start(journal, strategy) {
      const clock = liveClock();
      // waitFor predicates read the journal too: re-check them whenever it writes (not only on order updates)
      const flush = journal.flush.bind(journal);
      journal.flush = () => {
        const result = flush();
        changed.next();
        return result;
      };
      const pipeline = await startPipeline({
        venue,
        clock,
        log: silentLogger(),
        strategy,
        params: strategy.params.parse({ symbols: [SYMBOL] }),
        risk: config.risk,
        portfolio: portfolioPort(new Portfolio({ clock })),
        account: ACCOUNT,
        accounts: [ACCOUNT],
        symbols: [SYMBOL],
        journal,
      });
      pipelines.push(pipeline);
      pipeline.tracker.updates$.subscribe(() => changed.next());
      pipeline.tracker.fills$.subscribe((fill) => fills.push(fill));
      return pipeline;
    },
    waitFor: (predicate, what, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (predicate()) return resolve();
        const subscription = changed.subscribe(() => {
          if (!predicate()) return;
          clearTimeout(deadline);
          subscription.unsubscribe();
          resolve();
        });
        const deadline = setTimeout(() => {
          subscription.unsubscribe();
          reject(new Error(`timed out after ${timeoutMs} ms waiting until ${what}`));
        }, timeoutMs);
      }),
    async close() {
      await client.close().catch(() => undefined);
      await sim.close();
      changed.complete();
    },
  };
}
