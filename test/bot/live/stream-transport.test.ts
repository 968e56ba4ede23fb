/**
 * Per-stream transports against the embedded sim: `connectVenue` opens the venue of `bot.venue` with market
 * data and order updates each on the transport `bot.streams` names (gRPC streams authenticate with a family A
 * token of an ephemeral client the sim onboarded for the bot). The demo market maker trades through the real
 * pipeline with market data over gRPC and orders over NDJSON, and the reverse; the gateway's open NDJSON
 * stream count shows which transport carries what. The family A venue trades through /v1.
 */
import { Subscription, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type TradebotConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { connectVenue, type VenueConnection } from '../../../src/bot/live/connection.ts';
import type { StreamTransports } from '../../../src/bot/config.ts';
import { liveClock } from '../../../src/engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../../../src/engine/pipeline/index.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import { Decimal } from '../../../src/domain/decimal.ts';
import marketMaker from '../../../strategies/market-maker.ts';

const SYMBOL = 'RAIN-NYC-2026-12-01';
const ALICE_MAIN = 'firms/demo/accounts/alice-main';

/** config/sim.yaml with brisk synthetic activity, the given venue and per-stream transports. */
function simConfig(venue: 'gateway' | 'familyA', streams: StreamTransports): TradebotConfig {
  const base = loadConfig('config/sim.yaml', { env: {} });
  if (base.sim === undefined) throw new Error('config/sim.yaml has no sim section');
  return {
    ...base,
    bot: { ...base.bot, venue, streams },
    sim: { ...base.sim, activity: { ...base.sim.activity, enabled: true, intervalMs: 50 } },
  };
}

let connection: VenueConnection | undefined;
let pipeline: RunningPipeline | undefined;
afterEach(async () => {
  await pipeline?.stop().catch(() => undefined);
  await connection?.close();
  pipeline = undefined;
  connection = undefined;
});

/** Runs the demo market maker on the connection until its first fill (an event, not a sleep). */
async function tradeUntilFilled(config: TradebotConfig): Promise<{ pipeline: RunningPipeline; connection: VenueConnection }> {
  connection = await connectVenue(config, [SYMBOL], silentLogger());
  const clock = liveClock();
  const params = marketMaker.params.parse({
    symbols: [SYMBOL],
    halfSpread: '0.01',
    quoteQty: '5',
    maxInventory: '40',
    skewPerContract: '0.002',
  });
  pipeline = await startPipeline({
    venue: connection.venue,
    clock,
    log: silentLogger(),
    strategy: marketMaker,
    params,
    risk: config.risk,
    portfolio: portfolioPort(new Portfolio({ clock })),
    account: ALICE_MAIN,
    accounts: connection.accounts,
    symbols: [SYMBOL],
  });
  await firstValueFrom(pipeline.tracker.fills$);
  return { pipeline, connection };
}

describe('per-stream transports against the embedded sim', () => {
  it('trades with market data over gRPC and order updates over the gateway NDJSON stream', { timeout: 60_000 }, async () => {
    const { pipeline: p, connection: c } = await tradeUntilFilled(simConfig('gateway', { marketData: 'grpc', orders: 'ndjson' }));
    expect(c.plan.streams).toEqual({ marketData: 'grpc', orders: 'ndjson' });
    expect(c.venue.name).toBe('gateway');
    expect(c.sim?.gatewayStreamCount()).toBe(1); // the order stream; the books come over gRPC
    expect(p.counters.fills).toBeGreaterThan(0);
    expect(p.counters.bookUpdates).toBeGreaterThan(0);
  });

  it('trades with market data over NDJSON and order updates over gRPC', { timeout: 60_000 }, async () => {
    const { pipeline: p, connection: c } = await tradeUntilFilled(simConfig('gateway', { marketData: 'ndjson', orders: 'grpc' }));
    expect(c.sim?.gatewayStreamCount()).toBe(1); // the market data stream; the orders come over gRPC
    expect(p.counters.fills).toBeGreaterThan(0);
    expect(p.counters.orderStreamConnects).toBeGreaterThan(0);
  });

  it('opens no NDJSON stream with both streams over gRPC, and two with both over NDJSON', { timeout: 60_000 }, async () => {
    for (const [transport, expected] of [
      ['grpc', 0],
      ['ndjson', 2],
    ] as const) {
      const c = await connectVenue(simConfig('gateway', { marketData: transport, orders: transport }), [SYMBOL], silentLogger());
      const subscription = new Subscription();
      try {
        const book = new Promise<void>((resolve) =>
          subscription.add(c.venue.marketData([SYMBOL]).subscribe((e) => e.type === 'book' && resolve())),
        );
        const snapshot = new Promise<void>((resolve) =>
          subscription.add(c.venue.orderUpdates(c.accounts).subscribe((e) => e.type === 'snapshot' && resolve())),
        );
        await Promise.all([book, snapshot]);
        expect(c.sim?.gatewayStreamCount(), transport).toBe(expected);
      } finally {
        subscription.unsubscribe();
        await c.close();
      }
    }
  });

  it('the family A venue trades through /v1 with its order updates over the gateway NDJSON stream', { timeout: 60_000 }, async () => {
    const { pipeline: p, connection: c } = await tradeUntilFilled(simConfig('familyA', { marketData: 'grpc', orders: 'ndjson' }));
    expect(c.venue.name).toBe('familyA');
    expect(c.sim?.gatewayStreamCount()).toBe(1);
    expect(p.counters.fills).toBeGreaterThan(0);
  });
});

describe('family A venue', () => {
  it('inserts, replaces and cancels through /v1 and reconciles from /v1 lookups', async () => {
    connection = await connectVenue(simConfig('familyA', { marketData: 'grpc', orders: 'grpc' }), [SYMBOL], silentLogger());
    const { venue, sim } = connection;
    expect(venue.name).toBe('familyA');
    const [orderId] = await venue.insertOrders([
      {
        clordId: 'fa-venue-1',
        account: ALICE_MAIN,
        symbol: SYMBOL,
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GOOD_TILL_CANCEL',
        qty: new Decimal(2),
        price: new Decimal('0.05'),
        postOnly: true,
        selfMatchPreventionInstruction: undefined,
      },
    ]);
    expect(sim!.core.openOrders({ account: ALICE_MAIN }).map((o) => o.order.orderId)).toContain(orderId);
    await venue.replaceOrders([{ orderId: orderId!, symbol: SYMBOL, clordId: 'fa-venue-2', qty: undefined, price: new Decimal('0.06') }]);
    const snapshot = await venue.snapshot([ALICE_MAIN]);
    expect(snapshot.openOrders.find((o) => o.id === orderId)?.price.toString()).toBe('0.06');
    expect(snapshot.balances.length).toBeGreaterThan(0);
    await venue.cancelOrders([{ orderId: orderId!, clordId: 'fa-venue-2', symbol: SYMBOL }]);
    expect(sim!.core.openOrders({ account: ALICE_MAIN })).toHaveLength(0);
    await expect(venue.cross({} as never)).rejects.toMatchObject({ code: 'VENUE_CROSS_UNSUPPORTED' });
  });
});
