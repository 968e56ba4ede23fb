/**
 * HTTP faults against the live bot: bursts of 429 (with retry-after) and of 5xx answered before the
 * gateway processes a request, 5xx at random for a while, connections cut in the middle of an insert's or
 * a cancel's reply (the exchange did it, the bot does not know), and replies held past the client's
 * timeout (the bot retries an insert that already rests), and cancels that fail for good (their orders
 * must not stay PENDING_CANCEL forever). Retries carry the same clord_id, so no order is ever created twice;
 * positions and open orders end equal to the exchange's; nothing goes unhandled. The feed is not touched by
 * these faults, so trading stays active throughout (except for the test's own halt).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE_MAIN, startLiveBot, type LiveBot } from './helpers/live-bot.ts';
import { expectRecovered } from './helpers/invariants.ts';

const INSERTS = '/api/v1beta1/insert_order'; // insert_order and insert_order_list
const CANCELS = '/api/v1beta1/cancel'; // cancel_order(_list) and cancel_replace_order(_list)

let bot: LiveBot | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
});

async function trading(b: LiveBot): Promise<void> {
  await b.waitUntil(() => b.pipeline.counters.fills >= 1 && b.pipeline.tracker.open().length > 0, 'a fill with quotes working');
}

/** Orders sent after the fault, so the fault did not stop the bot. */
async function keepsTrading(b: LiveBot): Promise<void> {
  const orders = b.pipeline.counters.orders;
  const fills = b.pipeline.counters.fills;
  await b.waitUntil(
    () => b.pipeline.counters.orders > orders + 2 && b.pipeline.counters.fills > fills,
    'more orders and a fill after the fault',
    60_000,
  );
}

describe('HTTP faults', () => {
  it('a burst of 429 with retry-after: the calls are retried after the wait and succeed', async () => {
    bot = await startLiveBot();
    const b = bot;
    await trading(b);
    b.sim.faults.failNext(4, { status: 429 });
    await b.waitUntil(() => b.sim.faults.stats.errors >= 4, 'four requests refused with 429');
    await keepsTrading(b);
    expect(b.retries.filter((r) => r.code === 'TRANSPORT_RATE_LIMITED')).toHaveLength(4);
    expect(b.stateChanges).toEqual([]);
    await expectRecovered(b, { fillsMatch: true });
  }, 120_000);

  it('bursts of 500 / 503 / 504, then 5xx at random on a fifth of the requests: retried, nothing lost or doubled', async () => {
    bot = await startLiveBot();
    const b = bot;
    await trading(b);
    b.sim.faults.failNext(3, { status: 503 });
    b.sim.faults.failNext(2, { status: 500 });
    b.sim.faults.failNext(1, { status: 504 });
    await b.waitUntil(() => b.sim.faults.stats.errors >= 6, 'the burst was answered');
    b.sim.faults.setHttpProbabilities({ errorProbability: 0.2, errorStatuses: [500, 503, 504] });
    await b.waitUntil(() => b.sim.faults.stats.errors >= 12, 'random 5xx answered');
    await keepsTrading(b);
    expect(b.venue.calls['insert']).toBeGreaterThan(0);
    expect(b.stateChanges).toEqual([]);
    await expectRecovered(b, { fillsMatch: true });
  }, 120_000);

  it('connections reset mid-reply on inserts and cancels: the retry finds the order the exchange already made', async () => {
    bot = await startLiveBot();
    const b = bot;
    await trading(b);
    b.sim.faults.resetNext(3, { path: INSERTS });
    b.sim.faults.resetNext(3, { path: CANCELS });
    await b.waitUntil(() => b.sim.faults.stats.resets >= 6, 'three inserts and three cancels cut mid-reply', 60_000);
    // each cut call is sent again (the client sees the reset a moment after the sim counts it); the inserts'
    // repeats are answered with the order the first attempt made
    const retried = (part: string) => b.retries.filter((r) => r.path.includes(part)).length;
    await b.waitUntil(() => retried('insert_order') >= 3 && retried('cancel') >= 3, 'every cut insert and cancel retried', 60_000);
    await keepsTrading(b);
    await expectRecovered(b, { fillsMatch: true });
  }, 120_000);

  it('cancels that fail for good leave their orders working, not pending a cancel forever, and a later cancel goes through', async () => {
    bot = await startLiveBot();
    const b = bot;
    await trading(b);
    const quoting = () => b.pipeline.tracker.open().filter((o) => o.state === 'NEW').length === 2 && b.venue.inFlight === 0;
    await b.waitUntil(quoting, 'a bid and an offer working');
    b.sim.activity?.stop(); // nothing fills the quotes from here on
    await b.waitUntil(quoting, 'a bid and an offer working, activity stopped');
    const cancelsFailed = () =>
      Object.entries(b.venue.failures)
        .filter(([k]) => k.startsWith('cancel '))
        .reduce((n, [, v]) => n + v, 0);
    b.sim.faults.failNext(1000, { status: 503, path: '/api/v1beta1/cancel_order' }); // cancel_order and cancel_order_list
    b.pipeline.risk.tradingState.setState('halted', 'test: operator halt');
    await b.waitUntil(() => cancelsFailed() >= 1 && b.venue.inFlight === 0, "the halt's cancels gave up");
    expect(b.pipeline.tracker.open().map((o) => o.state)).toEqual(['NEW', 'NEW']);
    expect(b.sim.core.openOrders({ account: ALICE_MAIN })).toHaveLength(2);
    b.sim.faults.clear();
    b.pipeline.risk.tradingState.setState('active', 'test: resume');
    b.pipeline.risk.tradingState.setState('halted', 'test: operator halt again');
    await b.waitUntil(
      () => b.pipeline.tracker.open().length === 0 && b.sim.core.openOrders({ account: ALICE_MAIN }).length === 0,
      'the second halt cancelled both quotes',
    );
    b.pipeline.risk.tradingState.setState('active', 'test: resume');
    await expectRecovered(b, { fillsMatch: true });
  }, 120_000);

  it('replies held past the client timeout: the insert is retried with its clord_id and answered with the resting order', async () => {
    bot = await startLiveBot({ timeoutMs: 1000 });
    const b = bot;
    await trading(b);
    b.sim.faults.delayNext(2, 2500, { path: INSERTS });
    b.sim.faults.delayNext(1, 2500, { path: CANCELS });
    await b.waitUntil(() => b.sim.faults.stats.delays >= 3, 'two inserts and a cancel answered late', 60_000);
    // the client gives up on a held insert only after its timeout: wait for that retry, not just for trading
    const timedOutInserts = () => b.retries.filter((r) => r.path.includes('insert_order') && r.code === 'TRANSPORT_TIMEOUT').length;
    await b.waitUntil(() => timedOutInserts() >= 1, 'a held insert timed out and was retried', 60_000);
    await keepsTrading(b);
    await expectRecovered(b, { fillsMatch: true });
  }, 120_000);
});
