/**
 * Issue 8's "token lifetimes of a few seconds" for the live bot on gRPC streams: the bot (test/reliability's
 * live bot: the real GatewayClient, the pipeline, the demo market maker) takes market data and order updates
 * over gRPC with family A access tokens that live 1 s, and the sim drops every stream every 2 s, so each
 * reconnection happens after the token of the previous one expired. The streams come back each time (a
 * reconnect with an expired token would be refused: the TokenManager renews), trading goes on, and after
 * the faults stop the bot agrees with the exchange: no order twice, no fill lost, the same open orders and
 * book, trading active, no unhandled rejection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveBot, type LiveBot } from '../../reliability/helpers/live-bot.ts';
import { expectRecovered } from '../../reliability/helpers/invariants.ts';

let bot: LiveBot | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
});

describe('live bot on gRPC streams with 1 s family A tokens', () => {
  it('keeps its streams across several token expiries (streams dropped every 2 s) and ends in agreement with the exchange', async () => {
    bot = await startLiveBot({ streams: 'grpc', sim: '  familyA: { accessTokenTtlSeconds: 1 }\n  faults: { dropStreamsEverySeconds: 2 }' });
    const b = bot;
    await b.waitUntil(() => b.pipeline.counters.fills >= 1, 'a first fill');
    const fills = b.pipeline.counters.fills;
    await b.waitUntil(
      () =>
        b.sim.faults.stats.drops >= 3 &&
        b.pipeline.counters.orderStreamConnects >= 4 &&
        b.pipeline.risk.tradingState.state === 'active' &&
        b.pipeline.books.get('RAIN-NYC-2026-12-01')?.stale === false,
      'three drops, each reconnected after the previous token expired, with the feed back',
      60_000,
      () => JSON.stringify({ drops: b.sim.faults.stats.drops, counters: b.pipeline.counters, state: b.pipeline.risk.tradingState.state }),
    );
    await b.waitUntil(() => b.pipeline.counters.fills > fills, 'still trading across the renewals', 60_000);
    // every state change came from the feed going down and up, never from a stream that gave up
    expect(b.stateChanges.every((c) => c.cause === 'feed')).toBe(true);
    expect(b.stateChanges.at(-1)?.to ?? 'active').toBe('active');
    await expectRecovered(b);
  }, 120_000);
});
