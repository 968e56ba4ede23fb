/**
 * Self-match prevention with `selfMatch.action: cancelResting`, the whole pipeline against the simulator: the
 * bot rests a buy, then decides to sell at the same price. Risk approves the cancel of the resting buy and
 * then the sell; the execution adapter must keep the sell from the exchange until the buy is confirmed
 * cancelled, so no trade ever has the bot on both sides (before the fix the sell went out first and the bot
 * filled against itself). Every wait is on engine events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import type { RunningSim } from '../../src/sim/simulator.ts';
import { ALICE_HEDGE, ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from './helpers/pipeline-sim.ts';

let t: PipelineSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const BOT = new Set([ALICE_MAIN, ALICE_HEDGE]);

/** Trades on the exchange where the bot bought from itself. */
function selfTrades(sim: RunningSim) {
  return sim.core.trades().filter((trade) => BOT.has(trade.buyer.order.account ?? '') && BOT.has(trade.seller.order.account ?? ''));
}

/** Rests a buy at 0.30 at start; sells at 0.30 once the buy is working (or at once, with `sameStep`). */
function selfCrosser(sameStep: boolean) {
  const ids: { buy?: string; sell?: string } = {};
  const strategy = defineStrategy({
    name: 'self-crosser',
    params: z.object({ symbols: z.array(z.string()) }),
    onStart(ctx) {
      ids.buy = ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '2', price: '0.30' });
      if (sameStep) ids.sell = ctx.place({ symbol: SYMBOL, side: 'SELL', qty: '2', price: '0.30' });
    },
    onOrderUpdate(ctx, update) {
      if (ids.sell === undefined && update.type === 'order' && update.order.clordId === ids.buy && update.order.status === 'NEW') {
        ids.sell = ctx.place({ symbol: SYMBOL, side: 'SELL', qty: '2', price: '0.30' });
      }
    },
  });
  return { strategy, ids };
}

describe('self-match prevention against the simulator (selfMatch.action: cancelResting)', () => {
  it('sends the crossing sell only after the resting buy is confirmed cancelled: the bot never trades with itself', async () => {
    const bot = selfCrosser(false);
    t = await startPipelineSim({
      strategy: bot.strategy,
      params: { symbols: [SYMBOL] },
      activity: false,
      riskYaml: '  selfMatch: { action: cancelResting }',
    });
    const { pipeline, sim, venue } = t;
    await t.waitUntil(
      () => bot.ids.sell !== undefined && pipeline.tracker.get(bot.ids.sell)?.state === 'NEW',
      'the sell rests on the exchange',
    );
    expect(selfTrades(sim)).toEqual([]);
    expect(pipeline.counters.fills).toBe(0);
    expect(pipeline.tracker.get(bot.ids.buy ?? '')?.state).toBe('CANCELED');
    expect(venue.calls.map((c) => c.kind)).toEqual(['insert', 'cancel', 'insert']);
    expect(sim.core.openOrders({ account: ALICE_MAIN }).map((o) => [o.order.clordId, o.order.side, o.order.price])).toEqual([
      [bot.ids.sell, 'SIDE_SELL', 30],
    ]);
  });

  it('a buy and a crossing sell in one step: the buy is dropped before it is sent and only the sell goes out', async () => {
    const bot = selfCrosser(true);
    t = await startPipelineSim({
      strategy: bot.strategy,
      params: { symbols: [SYMBOL] },
      activity: false,
      riskYaml: '  selfMatch: { action: cancelResting }',
    });
    const { pipeline, sim, venue } = t;
    await t.waitUntil(
      () => bot.ids.sell !== undefined && pipeline.tracker.get(bot.ids.sell)?.state === 'NEW',
      'the sell rests on the exchange',
    );
    expect(selfTrades(sim)).toEqual([]);
    expect(pipeline.tracker.get(bot.ids.buy ?? '')?.state).toBe('REJECTED');
    expect(pipeline.tracker.open().map((o) => o.clordId)).toEqual([bot.ids.sell]);
    expect(venue.calls).toEqual([{ kind: 'insert', count: 1 }]);
  });
});
