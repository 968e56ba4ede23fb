/**
 * Session and order stream faults against the live bot: access tokens that live two seconds and refresh
 * tokens that live five (the session refreshes on demand, then logs in again when the refresh token is
 * gone, while trading and streaming), and order streams that send executions twice and swap adjacent ones
 * (the client dedupes by execution id; the tracker only moves states forward and derives fills from cum_qty).
 * In either case the tracker's own fills (not the portfolio, which a reconciliation may set) must add up to
 * the exchange's positions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveBot, type LiveBot } from './helpers/live-bot.ts';
import { expectRecovered } from './helpers/invariants.ts';

let bot: LiveBot | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
});

describe('session and order stream faults', () => {
  it('tokens of a few seconds: refreshed and re-logged in on demand while the bot trades, with no failed call', async () => {
    bot = await startLiveBot({ gateway: 'accessTokenTtlSeconds: 2, refreshTokenTtlSeconds: 5' });
    const b = bot;
    const start = b.client.sessionInfo();
    await b.waitUntil(
      () => {
        const info = b.client.sessionInfo();
        return info.refreshes >= start.refreshes + 2 && info.logins >= start.logins + 1 && b.pipeline.counters.fills >= 2;
      },
      'two refreshes and a new login while trading',
      60_000,
    );
    const orders = b.pipeline.counters.orders;
    await b.waitUntil(() => b.pipeline.counters.orders > orders + 2, 'still trading after the renewals');
    // a replace may lose a race with a fill (an exchange rejection); none failed for authentication
    expect(Object.keys(b.venue.failures).filter((k) => /AUTH|UNAUTHORIZED|SESSION/.test(k))).toEqual([]);
    expect(b.retries.filter((r) => /AUTH|UNAUTHORIZED/.test(r.code))).toEqual([]);
    expect(b.stateChanges).toEqual([]);
    await expectRecovered(b, { fillsMatch: true });
  }, 120_000);

  it('duplicated and reordered order stream executions: every fill counted once', async () => {
    bot = await startLiveBot({ sim: '  faults: { orderStream: { duplicateProbability: "0.3", reorderProbability: "0.3" } }' });
    const b = bot;
    await b.waitUntil(
      () => b.sim.faults.stats.duplicated >= 5 && b.sim.faults.stats.reordered >= 5 && b.pipeline.counters.fills >= 4,
      'garbled executions and fills',
      60_000,
    );
    // every fill counted once: the tracker's own fills (whatever a reconciliation did to the portfolio) add up to
    // the exchange's positions
    await expectRecovered(b, { fillsMatch: true });
  }, 120_000);
});
