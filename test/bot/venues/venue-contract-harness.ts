/**
 * Harnesses for the Venue contract suite (venue-contract.test.ts): each builds one implementation over the
 * same market (someone else's offer of 10 at 0.45 and bid of 10 at 0.40 in the contract's symbol) and
 * says how to run a call to completion and how to move the market.
 *  - simulated: the backtest's SimulatedVenue with its FillEngine and a TapeBook on a VirtualClock; the
 *    market comes from tape trades (a buy at 0.45 shows the offer, a sell at 0.40 the bid); a call is run by
 *    moving virtual time past its latency.
 *  - gateway / familyA: the embedded exchange on 127.0.0.1 (no synthetic activity; the market is orders of
 *    a maker account put in the exchange core), alice through the real GatewayClient and its NDJSON
 *    streams, or through the family A client (an ephemeral API client onboarded as the live runner does)
 *    with the gRPC streams.
 */
import { Decimal } from '../../../src/domain/decimal.ts';
import { configSchema, parseConfigText } from '../../../src/config/index.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { BOT_CLIENT_ID, grpcStreams, onboardEphemeralClient } from '../../../src/bot/live/stream-transport.ts';
import type { Venue } from '../../../src/engine/venue.ts';
import { FamilyAVenue } from '../../../src/bot/venues/familya-venue.ts';
import { GatewayVenue } from '../../../src/bot/venues/gateway-venue.ts';
import { GatewayClient, instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { toDomainInstrument } from '../../../src/sim/exchange/instruments.ts';
import { startSim } from '../../../src/sim/simulator.ts';
import { FillEngine } from '../../../backtest/replay/fill-engine.ts';
import { engineDefinition } from '../../../backtest/replay/instrument-defs.ts';
import { SimulatedVenue } from '../../../backtest/replay/simulated-venue.ts';
import { TapeBook } from '../../../backtest/replay/tape-book.ts';
import { syntheticInstrument } from '../../../backtest/tape/synthetic-history.ts';

export interface VenueHarness {
  readonly venue: Venue;
  /** The account the contract trades (its order stream is followed). */
  readonly account: string;
  /** A second account of the same user (the other leg of a cross). */
  readonly otherAccount: string;
  /** Opens the market; call after subscribing to the streams. */
  ready(): Promise<void>;
  /** Runs a venue call to completion (the simulated venue needs its virtual time moved). */
  call<T>(send: () => Promise<T>): Promise<T>;
  /** Someone else offers at 0.44: the book's best offer changes. */
  moveMarket(): Promise<void>;
  close(): Promise<void>;
}

const MAIN = 'firms/demo/accounts/alice-main';
const HEDGE = 'firms/demo/accounts/alice-hedge';
const MAKER = 'firms/makers/accounts/maker-1';
const PARTICIPANT = 'firms/demo/users/alice';
const PASSWORD = 'Contract-Alice-Pass-2026';

export function openContractMarket(kind: 'simulated' | 'gateway' | 'familyA', symbol: string): Promise<VenueHarness> {
  return kind === 'simulated' ? Promise.resolve(simulatedHarness(symbol)) : simHarness(kind, symbol);
}

function simulatedHarness(symbol: string): VenueHarness {
  const start = Date.UTC(2026, 10, 30, 14, 0, 0);
  const clock = new VirtualClock(start);
  const instrument = { ...syntheticInstrument(symbol), tickSize: new Decimal('0.01') };
  const book = new TapeBook({ depth: 5, sizeWindowMs: 60_000, levelTtlMs: 3_600_000 });
  const models = new Map([[symbol, book]]);
  const fills = new FillEngine({
    clock,
    instruments: [engineDefinition(instrument)],
    models,
    volumes: new Map(),
    queueModel: { model: 'none' },
  });
  const latency = 5;
  const venue = new SimulatedVenue({
    clock,
    instruments: [instrument],
    fills,
    models,
    latency: { insertMs: latency, cancelMs: latency, replaceMs: latency },
    commissions: { takerBps: new Decimal(0), makerBps: new Decimal(0) },
  });
  const trade = (price: number, qty: number, buy: boolean) => {
    clock.advanceTo(clock.now() + 1);
    venue.onTrade(symbol, price, qty, buy, clock.now(), book);
    venue.flushBooks();
  };
  return {
    venue,
    account: MAIN,
    otherAccount: HEDGE,
    async ready() {
      venue.connect();
      trade(45, 10, true);
      trade(40, 10, false);
    },
    async call(send) {
      const answer = send();
      clock.advanceTo(clock.now() + latency);
      venue.processDue(clock.now());
      return answer;
    },
    async moveMarket() {
      trade(44, 1, true);
    },
    close: () => venue.close(),
  };
}

async function simHarness(kind: 'gateway' | 'familyA', symbol: string): Promise<VenueHarness> {
  const config = parseConfigText(
    `
sim:
  startingBalance: "100000"
  gateway: { heartbeatSeconds: 1 }
  users:
    - { username: alice, password: "${PASSWORD}", participant: ${PARTICIPANT}, accounts: [${MAIN}, ${HEDGE}] }
  instruments:
    - { symbol: ${symbol}, eventGroup: WEATHER, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
  activity: { enabled: false }
`,
    configSchema,
    { env: {} },
  );
  if (config.sim === undefined) throw new Error('no sim section');
  const onboarded = kind === 'familyA' ? onboardEphemeralClient(config.sim, PARTICIPANT) : undefined;
  const sim = await startSim(onboarded?.sim ?? config.sim, { logger: silentLogger(), activityTimer: false });
  const maker = (side: 'SIDE_BUY' | 'SIDE_SELL', price: number) =>
    sim.core.submit({ symbol, side, type: 'ORDER_TYPE_LIMIT', price, orderQty: 10, timeInForce: 'TIME_IN_FORCE_DAY', account: MAKER });
  maker('SIDE_SELL', 45);
  maker('SIDE_BUY', 40);
  const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
  let venue: Venue;
  let closeClients: () => Promise<void>;
  if (onboarded === undefined) {
    const client = new GatewayClient({
      gatewayUrl: sim.ready.gateway,
      credentials: { username: 'alice', password: PASSWORD },
      instruments: instrumentCatalog(instruments),
      logger: silentLogger(),
    });
    await client.login();
    venue = new GatewayVenue({ client, instruments });
    closeClients = () => client.close();
  } else {
    const exchange = {
      apiUrl: sim.ready.api,
      authUrl: sim.ready.auth,
      gatewayUrl: sim.ready.gateway,
      grpcAddress: sim.ready.grpc,
      familyA: { clientId: BOT_CLIENT_ID, privateKeyFile: onboarded.privateKeyFile, participant: PARTICIPANT, refreshMarginSeconds: 30 },
    };
    const streams = grpcStreams(exchange as Parameters<typeof grpcStreams>[0], instruments, silentLogger());
    venue = new FamilyAVenue({
      client: streams.familyA,
      marketData: (s) => streams.marketData(s),
      orderUpdates: (a) => streams.orderUpdates(a),
    });
    closeClients = () => streams.close();
  }
  return {
    venue,
    account: MAIN,
    otherAccount: HEDGE,
    ready: async () => undefined,
    call: (send) => send(),
    async moveMarket() {
      maker('SIDE_SELL', 44);
    },
    async close() {
      await closeClients().catch(() => undefined);
      await sim.close();
      onboarded?.cleanup();
    },
  };
}
