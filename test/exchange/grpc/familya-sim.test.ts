/**
 * gRPC authentication against the real embedded exchange (startSim): family A access tokens from the sim's
 * token server, obtained by the production TokenManager with an RSA client key, checked by the sim's gRPC
 * door (familyAVerifier). A call without a token, with a malformed or expired one, or with a family B
 * (gateway) token is UNAUTHENTICATED; a token without the method's scope is PERMISSION_DENIED and the client
 * stops. Tokens live 5 s here: an open stream outlives its token (the token is checked when a call starts);
 * when the streams drop after the token expired, the client gets a new one through the TokenManager (after
 * an UNAUTHENTICATED answer when its clock lags, ahead of time when it does not) and the resumable streams
 * continue exactly where they were: every execution and trade of the firm once, in order, across several
 * expiries; the market copy is fresh and equal to the exchange's book after each reconnection.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tap, type Observable } from 'rxjs';
import { status } from '@grpc/grpc-js';
import {
  GrpcChannel,
  type DropCopyEvent,
  type GrpcError,
  type GrpcExchangeClient,
  type TradeCaptureStreamEvent,
} from '../../../src/exchange/grpc/index.ts';
import { methodRef } from '../../../src/exchange/grpc/protocol/index.ts';
import type { DisconnectedEvent, MarketDataEvent } from '../../../src/domain/stream-events.ts';
import type { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { record } from '../gateway/helpers/events.ts';
import { BookCopy, type BookChange } from '../helpers/book-copy.ts';
import { coreLevels, viewLevels } from '../helpers/books.ts';
import { runToEnd, unaryError } from '../../sim/grpc/helpers/calls.ts';
import { ALICE, BOT, DEMO_ACCOUNTS, ManualClock, NO_DROPCOPY, RAIN, round, startGrpcSim, type GrpcSimRig } from './helpers/familya-sim.ts';

const TTL_SECONDS = 5;
const MARKET_DATA = methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription');
const OPEN_ORDERS = methodRef('OrderEntryAPI', 'GetOpenOrders');

/** What the demo firm's drop copy and trade capture must deliver: every execution and trade, in order. */
function expectedFeed(core: ExchangeCore) {
  const executions: string[] = [];
  const trades: string[] = [];
  const subscription = core.events$.subscribe((event) => {
    if (event.kind === 'execution' && DEMO_ACCOUNTS.includes(event.execution.order.account)) executions.push(event.execution.id);
    if (
      event.kind === 'trade' &&
      [event.trade.aggressor.order.account, event.trade.passive.order.account].some((a) => DEMO_ACCOUNTS.includes(a))
    )
      trades.push(event.trade.id);
  });
  return { executions, trades, stop: () => subscription.unsubscribe() };
}

/**
 * The bot's three feeds over gRPC: drop copy and trade capture without client-side dedupe (so a repeat
 * would show), and a market copy kept by the engine's BookStore (its stream's lifecycle events recorded on the way in).
 */
function openFeeds(client: GrpcExchangeClient) {
  const drops = record<DropCopyEvent>(client.dropCopy$({ dedupe: false }));
  const captures = record<TradeCaptureStreamEvent>(client.tradeCaptureReports$({ dedupe: false }));
  const market = new BookCopy();
  const changes = record<BookChange>(market.changes$);
  const marketEvents: MarketDataEvent[] = [];
  market.attach(client.marketData$({ symbols: [RAIN] }).pipe(tap((e) => marketEvents.push(e))));
  const executionIds = () => drops.events.flatMap((e) => (e.type === 'execution' ? [e.execution.id] : []));
  const tradeIds = () => captures.events.flatMap((e) => (e.type === 'trade' ? [e.trade.id] : []));
  /** Disconnections of the three streams. */
  const disconnects = (): DisconnectedEvent[] =>
    [...drops.events, ...captures.events, ...marketEvents].filter((e): e is DisconnectedEvent => e.type === 'disconnected');
  return {
    drops,
    captures,
    market,
    changes,
    executionIds,
    tradeIds,
    disconnects,
    async live(): Promise<void> {
      await drops.waitFor((e) => e.type === 'heartbeat');
      await captures.waitFor((e) => e.type === 'heartbeat');
      await changes.waitFor((c) => c.type === 'book');
    },
    /** Waits until every expected execution and trade arrived and the copy shows the core's book, fresh. */
    async caughtUp(core: ExchangeCore, feed: ReturnType<typeof expectedFeed>): Promise<void> {
      const executions = feed.executions.at(-1);
      const trades = feed.trades.at(-1);
      if (executions !== undefined) await drops.waitFor((e) => e.type === 'execution' && e.execution.id === executions);
      if (trades !== undefined) await captures.waitFor((e) => e.type === 'trade' && e.trade.id === trades);
      const expected = JSON.stringify(coreLevels(core, RAIN));
      await changes.waitFor((c) => c.type === 'book' && JSON.stringify(viewLevels(c.book)) === expected);
      expect(market.isFresh(RAIN)).toBe(true);
    },
    stop(): void {
      drops.stop();
      captures.stop();
      market.close();
    },
  };
}

describe('gRPC with family A tokens against the embedded sim', () => {
  let rig: GrpcSimRig;
  beforeEach(async () => {
    rig = await startGrpcSim({ ttlSeconds: TTL_SECONDS });
  });
  afterEach(async () => rig.close());

  it('a call without a token, or with a malformed, expired or gateway token, is UNAUTHENTICATED', async () => {
    const channel = new GrpcChannel({ address: rig.sim.ready.grpc });
    try {
      const stack = rig.tokens(BOT);
      const valid = await stack.tokens.getToken();
      const gateway = (await rig.sim.gatewayTokens.issue('access', 'alice', 900, { participant: ALICE })).token;
      // the token works while it is valid
      expect((await runToEnd(channel, MARKET_DATA, { symbols: [RAIN], snapshot_only: true }, valid)).error).toBeUndefined();
      rig.clock.advance((TTL_SECONDS + 1) * 1000);
      const details = { missing: /missing authorization/, malformed: /not valid/, expired: /expired/, 'gateway (family B)': /not valid/ };
      for (const [what, token] of [
        ['missing', ''],
        ['malformed', 'not-a-token'],
        ['expired', valid],
        ['gateway (family B)', gateway],
      ] as const) {
        const streamed = await runToEnd(channel, MARKET_DATA, { symbols: [RAIN], snapshot_only: true }, token);
        expect(streamed.messages, what).toEqual([]);
        expect(streamed.error?.code, what).toBe('GRPC_UNAUTHENTICATED');
        expect(streamed.error?.grpcCode, what).toBe(status.UNAUTHENTICATED);
        expect(streamed.error?.message, what).toMatch(details[what]);
        const unary = await unaryError(channel, OPEN_ORDERS, {}, token);
        expect(unary.code, what).toBe('GRPC_UNAUTHENTICATED');
        expect(unary.kind, what).toBe('authentication');
      }
    } finally {
      channel.close();
    }
  });

  it('a token without read:dropcopy is PERMISSION_DENIED on the drop copy streams, with no retry and no token refresh', async () => {
    const stack = rig.tokens(NO_DROPCOPY);
    const client = rig.grpc(stack);
    const streams: Observable<DropCopyEvent | TradeCaptureStreamEvent>[] = [client.dropCopy$(), client.tradeCaptureReports$()];
    for (const stream of streams) {
      const events = record(stream);
      const error = (await events.failed) as GrpcError;
      expect(error.code).toBe('GRPC_PERMISSION_DENIED');
      expect(error.kind).toBe('permission');
      expect(error.message).toMatch(/read:dropcopy/);
      expect(events.events).toEqual([expect.objectContaining({ type: 'disconnected', willReconnect: false })]);
    }
    // the same token reads market data (its scope), so the refusal was about the scope
    const books = record(client.marketData$({ symbols: [RAIN] }));
    await books.waitFor((e) => e.type === 'book');
    books.stop();
    expect(stack.tokens.exchanges).toBe(1);
  });

  it('a token expiring mid-stream: open streams flow on; the reconnect is refused, TokenManager renews, no gap or duplicate', async () => {
    // The client's clock stands still: its TokenManager believes the token is fresh after the sim's clock passed its expiry.
    const clientClock = new ManualClock();
    const stack = rig.tokens(BOT, clientClock.now);
    const channel = new GrpcChannel({ address: rig.sim.ready.grpc });
    const feed = expectedFeed(rig.sim.core);
    const feeds = openFeeds(rig.grpc(stack));
    try {
      await feeds.live();
      expect(stack.tokens.exchanges).toBe(1);
      round(rig.sim.core, 1);
      await feeds.caughtUp(rig.sim.core, feed);

      rig.clock.advance((TTL_SECONDS + 1) * 1000);
      const token = await stack.tokens.getToken();
      expect((await unaryError(channel, OPEN_ORDERS, {}, token)).code, 'the cached token has expired on the exchange').toBe(
        'GRPC_UNAUTHENTICATED',
      );
      round(rig.sim.core, 2);
      await feeds.caughtUp(rig.sim.core, feed);
      expect(feeds.disconnects(), 'the open streams outlive their token').toEqual([]);

      rig.sim.dropStreams();
      round(rig.sim.core, 3); // while the streams are down
      await feeds.caughtUp(rig.sim.core, feed);
      round(rig.sim.core, 4);
      await feeds.caughtUp(rig.sim.core, feed);

      // every stream dropped once; those that reconnected before the renewal were refused with the expired token
      const disconnects = feeds.disconnects();
      expect(disconnects.filter((d) => d.reason !== 'unauthenticated')).toHaveLength(3);
      const refused = disconnects.filter((d) => d.reason === 'unauthenticated');
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeLessThanOrEqual(3);
      expect(refused.every((d) => d.willReconnect && (d.error as GrpcError).code === 'GRPC_UNAUTHENTICATED')).toBe(true);
      expect(stack.tokens.exchanges, 'one renewal for all the refused streams').toBe(2);
      expect(feeds.executionIds()).toEqual(feed.executions);
      expect(feeds.tradeIds()).toEqual(feed.trades);
      expect(feed.executions.length).toBe(4 * 3);
      expect(feed.trades.length).toBe(4);
      expect([...feeds.drops.events, ...feeds.captures.events].some((e) => e.type === 'resumeLost')).toBe(false);
    } finally {
      feeds.stop();
      feed.stop();
      channel.close();
    }
  });

  it('streams flow across token expiries (client and sim on one clock, as live): renewed early, nothing lost or repeated', async () => {
    const stack = rig.tokens(BOT);
    const feed = expectedFeed(rig.sim.core);
    const feeds = openFeeds(rig.grpc(stack));
    try {
      await feeds.live();
      let n = 0;
      for (let expiry = 1; expiry <= 3; expiry++) {
        round(rig.sim.core, ++n);
        await feeds.caughtUp(rig.sim.core, feed);
        rig.clock.advance((TTL_SECONDS + 1) * 1000);
        round(rig.sim.core, ++n); // the token expired; the open streams still carry this round
        await feeds.caughtUp(rig.sim.core, feed);
        const before = feeds.disconnects().length;
        rig.sim.dropStreams();
        round(rig.sim.core, ++n); // while the streams are down
        await feeds.caughtUp(rig.sim.core, feed);
        expect(feeds.disconnects().length - before, `expiry ${expiry}: each stream dropped once and reconnected`).toBe(3);
        expect(stack.tokens.exchanges, `expiry ${expiry}: one renewal`).toBe(1 + expiry);
      }
      expect(
        feeds.disconnects().filter((d) => d.reason === 'unauthenticated'),
        'renewed before any call was refused',
      ).toEqual([]);
      expect(feeds.executionIds()).toEqual(feed.executions);
      expect(feeds.tradeIds()).toEqual(feed.trades);
      expect(feed.trades.length).toBe(n);
    } finally {
      feeds.stop();
      feed.stop();
    }
  });
});
