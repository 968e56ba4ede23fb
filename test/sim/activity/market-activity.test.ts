/**
 * Synthetic market activity in the simulator: seeded and deterministic (the same seed and steps give the
 * same trades and books, another seed a different market), a two-sided book on every instrument from the
 * start, noise takers that trade within a few dozen steps, prices on ticks inside the limits, and the
 * wiring in `startSim` (driven by hand with `sim.activity.step()`, or by its own timer).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { startActivity, type ActivityDriver } from '../../../src/sim/activity/driver.ts';
import { ACTIVITY_FIRM, MarketActivity } from '../../../src/sim/activity/market-activity.ts';
import { seededRandom } from '../../../src/sim/activity/random.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import type { Trade } from '../../../src/sim/matching/index.ts';
import {
  ALICE,
  ALICE_MAIN,
  ManualClock,
  SYMBOL,
  SYMBOL2,
  at,
  limitOrder,
  list,
  simConfig,
  startHarness,
  type Harness,
} from '../gateway/helpers/harness.ts';

const SYMBOLS = [SYMBOL, SYMBOL2];

function activityYaml(seed: number, takerProbability = '0.35'): string {
  return `    enabled: true
    seed: ${seed}
    makersPerInstrument: 3
    takerProbability: "${takerProbability}"
    volatilityTicks: "0.6"
    maxOrderQty: 20`;
}

interface Market {
  core: ExchangeCore;
  driver: ActivityDriver;
  clock: ManualClock;
}

const markets: Market[] = [];

function market(seed: number, takerProbability?: string): Market {
  const clock = new ManualClock();
  const config = simConfig({ activity: activityYaml(seed, takerProbability) });
  const core = new ExchangeCore({
    clock,
    instruments: config.instruments,
    startingBalance: config.startingBalance,
    currency: config.currency,
  });
  const driver = startActivity(core, config.activity, silentLogger(), { timer: false });
  const m = { core, driver, clock };
  markets.push(m);
  return m;
}

function run(m: Market, steps: number): void {
  for (let i = 0; i < steps; i++) {
    m.clock.advance(200);
    m.driver.step();
  }
}

const fingerprint = (t: Trade) => `${t.symbol} ${t.price}x${t.qty} ${t.buyer.order.account}<-${t.seller.order.account} @${t.time}`;
const depthOf = (m: Market) => SYMBOLS.map((s) => m.core.engine.depth(s, 10));

let h: Harness | undefined;

afterEach(async () => {
  for (const m of markets.splice(0)) {
    m.driver.stop();
    m.core.events$.complete();
  }
  await h?.close();
  h = undefined;
});

describe('seededRandom', () => {
  it('gives the same sequence for the same seed and another for another seed, inside its ranges', () => {
    const draw = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 50 }, () => r.next());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    for (const x of draw(3)) expect(x >= 0 && x < 1).toBe(true);
    const r = seededRandom(11);
    const ints = Array.from({ length: 500 }, () => r.int(2, 5));
    expect(new Set(ints)).toEqual(new Set([2, 3, 4, 5]));
    expect(Number.isFinite(r.normal())).toBe(true);
    expect(r.chance(0)).toBe(false);
    expect(r.chance(1)).toBe(true);
  });
});

describe('market activity', () => {
  it('is deterministic: the same seed gives identical trades and books after N steps', () => {
    const first = market(7);
    const second = market(7);
    run(first, 60);
    run(second, 60);
    expect(first.core.trades().length).toBeGreaterThan(0);
    expect(first.core.trades().map(fingerprint)).toEqual(second.core.trades().map(fingerprint));
    expect(depthOf(first)).toEqual(depthOf(second));
    expect(first.driver.activity.fairValue(SYMBOL)).toBe(second.driver.activity.fairValue(SYMBOL));
  });

  it('a different seed gives a different market', () => {
    const a = market(7);
    const b = market(8);
    run(a, 60);
    run(b, 60);
    const same =
      JSON.stringify(a.core.trades().map(fingerprint)) === JSON.stringify(b.core.trades().map(fingerprint)) &&
      JSON.stringify(depthOf(a)) === JSON.stringify(depthOf(b));
    expect(same).toBe(false);
  });

  it('posts a two-sided book on every instrument before the first step, and keeps it two-sided', () => {
    const m = market(7);
    for (const symbol of SYMBOLS) {
      const bbo = m.core.engine.bbo(symbol);
      expect(bbo.bid).toBeDefined();
      expect(bbo.offer).toBeDefined();
    }
    for (let step = 0; step < 5; step++) {
      run(m, 1);
      for (const symbol of SYMBOLS) {
        const bbo = m.core.engine.bbo(symbol);
        expect(bbo.bid?.price).toBeLessThan(bbo.offer?.price ?? 0);
      }
    }
  });

  it('lets the noise taker trade on every instrument within 50 steps', () => {
    const m = market(7);
    run(m, 50);
    for (const symbol of SYMBOLS) {
      const taker = MarketActivity.takerAccount(symbol);
      const takerTrades = m.core
        .trades()
        .filter((t) => t.symbol === symbol && (t.buyer.order.account === taker || t.seller.order.account === taker));
      expect(takerTrades.length, symbol).toBeGreaterThan(0);
    }
  });

  it('trades only between activity accounts, on ticks inside the price limits', () => {
    const m = market(5);
    run(m, 80);
    for (const trade of m.core.trades()) {
      expect(trade.price).toBeGreaterThanOrEqual(1);
      expect(trade.price).toBeLessThanOrEqual(99);
      expect(Number.isInteger(trade.price)).toBe(true);
      expect(trade.buyer.order.account.startsWith(`firms/${ACTIVITY_FIRM}/accounts/`)).toBe(true);
      expect(trade.seller.order.account.startsWith(`firms/${ACTIVITY_FIRM}/accounts/`)).toBe(true);
    }
    for (const symbol of SYMBOLS) {
      const fair = m.driver.activity.fairValue(symbol) ?? 0;
      expect(fair).toBeGreaterThanOrEqual(5);
      expect(fair).toBeLessThanOrEqual(95);
    }
  });

  it('with takerProbability 0 the makers never trade with each other', () => {
    const m = market(7, '0');
    run(m, 40);
    expect(m.core.trades()).toEqual([]);
  });
});

describe('activity inside startSim', () => {
  it('sim.activity.step() drives the market a gateway client sees: two-sided books and trades to hit', async () => {
    h = await startHarness({ activity: activityYaml(7) });
    expect(h.sim.activity).toBeDefined();
    const alice = await h.login(ALICE);
    for (let i = 0; i < 5; i++) {
      h.clock.advance(200);
      h.sim.activity?.step();
    }
    const stream = await h.stream('create_market_data_subscription', alice, { symbols: SYMBOLS, depth: 3, snapshot_only: true });
    await stream.ended;
    expect(stream.lines).toHaveLength(2);
    for (const line of stream.lines) {
      const bids = list(line, 'result', 'update', 'bids');
      const offers = list(line, 'result', 'update', 'offers');
      expect(bids).toHaveLength(3);
      expect(offers).toHaveLength(3);
      expect(Number(bids[0]?.['px'])).toBeLessThan(Number(offers[0]?.['px']));
    }
    // a bot's marketable order finds a counterparty in the activity
    const bestOffer = String(at(stream.lines[0], 'result', 'update', 'offers', 0, 'px'));
    await h.api(
      'insert_order',
      alice,
      limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', bestOffer, { time_in_force: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }),
    );
    const [position] = list((await h.api('list_account_positions', alice, { name: ALICE_MAIN })).body, 'positions');
    expect(position).toMatchObject({ net_position: '1', avg_entry_px: bestOffer });
  });

  it('each activity step expires GOOD_TILL_TIME orders whose time has passed (EXPIRED on the order stream)', async () => {
    h = await startHarness({ activity: activityYaml(7) });
    const alice = await h.token('alice');
    const stream = await h.stream('create_order_subscription', alice, {});
    const gtt = await h.api(
      'insert_order',
      alice,
      limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '2', {
        time_in_force: 'TIME_IN_FORCE_GOOD_TILL_TIME',
        good_till_time: new Date(h.clock.t + 60_000).toISOString(),
      }),
    );
    expect(gtt.status).toBe(200);
    h.clock.advance(30_000);
    h.sim.activity?.step();
    expect(list((await h.api('get_open_orders', alice)).body, 'orders')).toHaveLength(1);
    h.clock.advance(31_000);
    h.sim.activity?.step();
    const expired = await stream.until((l) =>
      list(l, 'result', 'update', 'executions').some((e) => e['type'] === 'EXECUTION_TYPE_EXPIRED'),
    );
    expect(at(expired, 'result', 'update', 'executions', 0, 'order')).toMatchObject({
      id: gtt.body['order_id'],
      state: 'ORDER_STATE_EXPIRED',
    });
    expect(list((await h.api('get_open_orders', alice)).body, 'orders')).toEqual([]);
  });

  it('without activityTimer: false, the sim steps activity on its own timer', async () => {
    h = await startHarness({ activity: `${activityYaml(7, '1')}\n    intervalMs: 5`, activityTimer: true });
    const core = h.sim.core;
    await new Promise<void>((resolve) => {
      const subscription = core.events$.subscribe((event) => {
        if (event.kind === 'trade') {
          subscription.unsubscribe();
          resolve();
        }
      });
    });
    expect(core.trades().length).toBeGreaterThan(0);
  });

  it('activity disabled: no activity driver and empty books', async () => {
    h = await startHarness();
    expect(h.sim.activity).toBeUndefined();
    expect(h.sim.core.engine.bbo(SYMBOL).bid).toBeUndefined();
  });
});
