/**
 * The whole pipeline against the real simulator over loopback (gateway REST + NDJSON streams, the real
 * GatewayClient, GatewayVenue, OrderTracker, risk, portfolio): a market maker quotes both sides, gets
 * filled and stays within risk.maxPosition (refusals counted); stop() leaves no open order on the exchange;
 * a throwing strategy is isolated and trading goes to risk.onStrategyError; an operator halt cancels every
 * open order; a dropped feed makes books stale and trading reducing until the reconnect; orders and
 * positions the account had before the start are reconciled (adopted, or cancelled with
 * unknownOrders: cancel). Activity steps are driven by the test; every wait is on engine events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import type { OrderUpdateView } from '../../src/engine/strategy/views.ts';
import type { TradingStateChange } from '../../src/engine/risk/index.ts';
import type { RunningSim } from '../../src/sim/simulator.ts';
import marketMaker from '../../strategies/market-maker.ts';
import { ALICE_HEDGE, ALICE_MAIN, OTHER_SYMBOL, SYMBOL, startPipelineSim, type PipelineSim } from './helpers/pipeline-sim.ts';
import { z } from 'zod';

const MM_PARAMS = { symbols: [SYMBOL], halfSpread: '0.01', quoteQty: '5', maxInventory: '50', skewPerContract: '0' };

let t: PipelineSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function exchangeSides(sim: RunningSim, account = ALICE_MAIN): string[] {
  return sim.core
    .openOrders({ account })
    .map((o) => o.order.side)
    .sort();
}

const quotingBothSides = (sim: RunningSim) => () => {
  const sides = exchangeSides(sim);
  return sides.includes('SIDE_BUY') && sides.includes('SIDE_SELL');
};

const noOpenOrders = (sim: RunningSim) => () =>
  sim.core.openOrders({ account: ALICE_MAIN }).length + sim.core.openOrders({ account: ALICE_HEDGE }).length === 0;

/** The market maker, throwing from onBook on its `throwAt`-th call (and only then). */
function flakyMaker(throwAt: number) {
  let calls = 0;
  const state = { calls: () => calls };
  const strategy = defineStrategy({
    name: 'flaky-maker',
    params: marketMaker.params,
    onBook(ctx, book) {
      calls += 1;
      if (calls === throwAt) throw new Error('flaky-maker: simulated bug');
      marketMaker.onBook?.(ctx, book);
    },
  });
  return { strategy, state };
}

/** Does nothing; records the order updates it is shown. */
function passive() {
  const updates: OrderUpdateView[] = [];
  const strategy = defineStrategy({
    name: 'passive',
    params: z.object({ symbols: z.array(z.string()) }),
    onOrderUpdate: (_ctx, update) => void updates.push(update),
  });
  return { strategy, updates };
}

describe('pipeline against the simulator', () => {
  it('a market maker quotes both sides, gets filled, never holds more than risk.maxPosition and counts the refusals', async () => {
    t = await startPipelineSim({ strategy: marketMaker, params: MM_PARAMS, riskYaml: '  maxPosition: "10"\n  maxMessagesPerSecond: 50' });
    const { pipeline, port, sim } = t;
    await t.waitUntil(quotingBothSides(sim), 'a bid and an offer rest on the exchange');
    const quotes = sim.core.openOrders({ account: ALICE_MAIN });
    expect(quotes.map((o) => o.order.orderQty)).toEqual([5, 5]);
    expect(quotes.every((o) => o.order.participateDontInitiate)).toBe(true);

    const seen: { local: number; exchange: number }[] = [];
    pipeline.tracker.fills$.subscribe(() =>
      seen.push({ local: port.position(SYMBOL, ALICE_MAIN).toNumber(), exchange: t?.exchangePosition(ALICE_MAIN, SYMBOL) ?? 0 }),
    );
    await t.driveUntil(
      () => pipeline.counters.fills >= 3 && (pipeline.counters.refusals['RISK_MAX_POSITION'] ?? 0) > 0,
      'fills and a maxPosition refusal',
    );

    expect(seen.length).toBe(pipeline.counters.fills);
    expect(Math.max(...seen.map((s) => Math.abs(s.local)))).toBeLessThanOrEqual(10);
    expect(Math.max(...seen.map((s) => Math.abs(s.exchange)))).toBeLessThanOrEqual(10);
    expect(pipeline.counters.refusalCount).toBeGreaterThanOrEqual(pipeline.counters.refusals['RISK_MAX_POSITION'] ?? 0);
    // the local view and the exchange agree once the engine has caught up
    await t.waitUntil(
      () => port.position(SYMBOL, ALICE_MAIN).toNumber() === t?.exchangePosition(ALICE_MAIN, SYMBOL),
      'the portfolio matches the exchange position',
    );
    expect(pipeline.counters.orders).toBeGreaterThanOrEqual(2);
  });

  it('stop() cancels every open order: none remains on the exchange and none is open locally', async () => {
    t = await startPipelineSim({ strategy: marketMaker, params: MM_PARAMS, riskYaml: '  maxPosition: "10"' });
    const { pipeline, sim } = t;
    await t.driveUntil(() => pipeline.counters.fills >= 1 && quotingBothSides(sim)(), 'a fill with both quotes resting');
    await t.waitUntil(() => t?.venue.inFlight === 0, 'no order call in flight');
    const callsBefore = t.venue.calls.length;
    const working = sim.core.openOrders({ account: ALICE_MAIN }).length;
    await t.stop();
    // the strategy's cancelAll and the engine's own cancel each order once between them
    const cancelled = t.venue.calls
      .slice(callsBefore)
      .filter((c) => c.kind === 'cancel')
      .reduce((n, c) => n + c.count, 0);
    expect(cancelled).toBe(working);
    expect(sim.core.openOrders({ account: ALICE_MAIN })).toEqual([]);
    expect(sim.core.openOrders({ account: ALICE_HEDGE })).toEqual([]);
    expect(pipeline.tracker.open().filter((o) => o.state !== 'PENDING_CANCEL')).toEqual([]);
  });

  it('stop() right after quotes were sent, before their acknowledgement, still leaves nothing on the exchange', async () => {
    t = await startPipelineSim({ strategy: marketMaker, params: MM_PARAMS });
    const { pipeline, sim, venue } = t;
    await t.waitUntil(() => venue.calls.some((c) => c.kind === 'insert'), 'the first quotes are sent');
    await t.stop();
    expect(sim.core.openOrders({ account: ALICE_MAIN })).toEqual([]);
    expect(pipeline.counters.orders).toBeGreaterThanOrEqual(1);
  });

  it.for(['halted', 'reducing'] as const)(
    'isolates a throwing strategy: the error is counted, trading goes %s and events keep flowing',
    async (onStrategyError) => {
      const flaky = flakyMaker(15);
      t = await startPipelineSim({ strategy: flaky.strategy, params: MM_PARAMS, riskYaml: `  onStrategyError: ${onStrategyError}` });
      const { pipeline, sim } = t;
      await t.driveUntil(() => pipeline.counters.strategyErrors === 1, 'the strategy threw');
      expect(pipeline.risk.tradingState.state).toBe(onStrategyError);
      expect(pipeline.risk.tradingState.cause).toBe('strategyError');
      expect(pipeline.risk.tradingState.reason).toMatch(/strategy flaky-maker failed: .*simulated bug/);

      const callsAtError = flaky.state.calls();
      const booksAtError = pipeline.counters.bookUpdates;
      const refusal = onStrategyError === 'halted' ? 'RISK_TRADING_HALTED' : 'RISK_TRADING_REDUCING';
      const refusedAtError = pipeline.counters.refusals[refusal] ?? 0;
      if (onStrategyError === 'halted') await t.waitUntil(noOpenOrders(sim), 'the halt cancelled every open order');
      // the strategy is still called and its new exposure is refused (halted: everything; reducing: what adds risk)
      await t.driveUntil(() => (pipeline.counters.refusals[refusal] ?? 0) > refusedAtError, `a quote refused while ${onStrategyError}`);
      expect(flaky.state.calls()).toBeGreaterThan(callsAtError);
      expect(pipeline.counters.bookUpdates).toBeGreaterThan(booksAtError);
      expect(pipeline.counters.strategyErrors).toBe(1);
      expect(pipeline.risk.tradingState.state).toBe(onStrategyError);
    },
  );

  it('an operator halt (the SIGUSR2 toggle) cancels every open order and refuses quotes until trading is active again', async () => {
    t = await startPipelineSim({ strategy: marketMaker, params: MM_PARAMS });
    const { pipeline, sim } = t;
    await t.waitUntil(quotingBothSides(sim), 'quotes rest on the exchange');
    pipeline.risk.tradingState.setState('halted', 'operator (SIGUSR2)');
    await t.waitUntil(noOpenOrders(sim), 'the halt cancelled every open order');
    await t.driveUntil(() => (pipeline.counters.refusals['RISK_TRADING_HALTED'] ?? 0) > 0, 'a quote refused while halted');
    expect(exchangeSides(sim)).toEqual([]);

    pipeline.risk.tradingState.setState('active', 'operator (SIGUSR2)');
    await t.driveUntil(quotingBothSides(sim), 'quotes back on both sides');
    expect(pipeline.risk.tradingState.state).toBe('active');
  });

  it('a dropped feed marks books stale and trading reducing; after the reconnect books are fresh and trading active again', async () => {
    t = await startPipelineSim({ strategy: marketMaker, params: MM_PARAMS });
    const { pipeline, sim } = t;
    await t.waitUntil(quotingBothSides(sim), 'quotes rest on the exchange');
    const changes: { change: TradingStateChange; stale: boolean | undefined }[] = [];
    pipeline.risk.tradingState.changes$.subscribe((change) => changes.push({ change, stale: pipeline.books.get(SYMBOL)?.stale }));
    const reconciliations = pipeline.counters.reconciliations;

    sim.dropStreams();
    await t.waitUntil(() => changes.some((c) => c.change.to === 'active'), 'trading active again after the reconnect');
    expect(changes.map((c) => [c.change.from, c.change.to, c.change.cause])).toEqual([
      ['active', 'reducing', 'feed'],
      ['reducing', 'active', 'feed'],
    ]);
    expect(changes[0]?.stale).toBe(true);
    expect(changes[1]?.stale).toBe(false);
    expect(pipeline.counters.feedDisconnects).toBe(1);
    expect(pipeline.books.get(SYMBOL)?.stale).toBe(false);
    // the order stream came back too, with a snapshot and a reconciliation; quotes are back
    await t.waitUntil(
      () => pipeline.counters.reconciliations > reconciliations && pipeline.counters.orderStreamConnects >= 2,
      'the order stream reconnected and reconciled',
    );
    await t.driveUntil(quotingBothSides(sim), 'quotes back on both sides');
  });

  it('keeps a fill that arrives during the start-up reconciliation lookup (the exchange position is not applied over it)', async () => {
    let release: () => void = () => undefined;
    t = await startPipelineSim({
      strategy: marketMaker,
      params: MM_PARAMS,
      beforeStart: (_sim, venue) => venue.holdNextSnapshot(new Promise<void>((resolve) => (release = resolve))),
    });
    const { pipeline, port } = t;
    // the first lookup answered before this fill: its position is stale by the time it is applied
    await t.driveUntil(() => !port.position(SYMBOL, ALICE_MAIN).isZero(), 'a fill moves the position');
    expect(pipeline.counters.reconciliations).toBe(0);
    release();
    await t.waitUntil(() => pipeline.counters.reconciliations === 1, 'the reconciliation completes');
    expect(port.position(SYMBOL, ALICE_MAIN).toNumber()).toBe(t.exchangePosition(ALICE_MAIN, SYMBOL));
    expect(port.position(SYMBOL, ALICE_MAIN).isZero()).toBe(false);
  });

  it('adopts an order and a position the account had on the exchange before the bot started', async () => {
    const bot = passive();
    t = await startPipelineSim({
      strategy: bot.strategy,
      params: { symbols: [SYMBOL] },
      activity: false,
      beforeStart: (sim) => {
        sim.core.submit({
          account: ALICE_MAIN,
          symbol: OTHER_SYMBOL,
          side: 'SIDE_BUY',
          type: 'ORDER_TYPE_LIMIT',
          price: 30,
          orderQty: 4,
          timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
          clordId: 'manual-1',
        });
        sim.core.submit({
          account: 'firms/other/accounts/seller',
          symbol: OTHER_SYMBOL,
          side: 'SIDE_SELL',
          type: 'ORDER_TYPE_LIMIT',
          price: 60,
          orderQty: 2,
          timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
        });
        sim.core.submit({
          account: ALICE_HEDGE,
          symbol: OTHER_SYMBOL,
          side: 'SIDE_BUY',
          type: 'ORDER_TYPE_LIMIT',
          price: 60,
          orderQty: 2,
          timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
        });
      },
    });
    const { pipeline, port, sim } = t;
    await t.waitUntil(
      () => pipeline.counters.adopted === 1 && pipeline.counters.reconciliations >= 1,
      'the order is adopted and the account reconciled',
    );
    const [adopted] = pipeline.tracker.open();
    expect(adopted).toMatchObject({
      clordId: 'manual-1',
      account: ALICE_MAIN,
      symbol: OTHER_SYMBOL,
      side: 'BUY',
      state: 'NEW',
      adopted: true,
    });
    expect([adopted?.price?.toString(), adopted?.qty.toString()]).toEqual(['0.3', '4']);
    expect(bot.updates).toContainEqual(
      expect.objectContaining({ type: 'order', order: expect.objectContaining({ clordId: 'manual-1', status: 'NEW' }) }),
    );
    expect(sim.core.openOrders({ account: ALICE_MAIN }).map((o) => o.order.clordId)).toEqual(['manual-1']);
    expect(port.position(OTHER_SYMBOL, ALICE_HEDGE).toString()).toBe('2');
    expect(pipeline.counters.fills).toBe(0);
  });

  it('cancels an order found on the exchange at start with unknownOrders: cancel', async () => {
    const bot = passive();
    t = await startPipelineSim({
      strategy: bot.strategy,
      params: { symbols: [SYMBOL] },
      activity: false,
      unknownOrders: 'cancel',
      beforeStart: (sim) => {
        sim.core.submit({
          account: ALICE_MAIN,
          symbol: SYMBOL,
          side: 'SIDE_SELL',
          type: 'ORDER_TYPE_LIMIT',
          price: 70,
          orderQty: 3,
          timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
          clordId: 'manual-2',
        });
      },
    });
    const { pipeline, sim } = t;
    await t.waitUntil(() => pipeline.tracker.get('manual-2')?.state === 'CANCELED', 'the unknown order is cancelled');
    expect(pipeline.counters.adopted).toBe(1);
    expect(sim.core.openOrders({ account: ALICE_MAIN })).toEqual([]);
    expect(pipeline.tracker.open()).toEqual([]);
  });
});
