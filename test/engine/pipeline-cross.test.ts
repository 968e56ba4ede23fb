/**
 * Crosses through the OrderTracker, the whole pipeline against the simulator: the cross demo's legs are
 * tracked as the bot's own orders from the moment they are sent (with their cross id), acknowledged with the
 * order ids insert_order_cross answers, and filled through the tracker; they are never taken for unknown
 * orders, so `unknownOrders: cancel` sends no cancel for them (before the fix each leg came back as an unknown
 * order and was adopted or cancelled). Every wait is on engine events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Fill } from '../../src/engine/orders/index.ts';
import crossDemo from '../../strategies/cross-demo.ts';
import { ALICE_HEDGE, ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from './helpers/pipeline-sim.ts';

let t: PipelineSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('cross legs in the OrderTracker (against the simulator)', () => {
  it.for(['cancel', 'adopt'] as const)(
    'tracks both legs of each cross as its own orders, never as unknown ones (unknownOrders: %s)',
    async (unknownOrders) => {
      t = await startPipelineSim({
        strategy: crossDemo,
        params: { symbol: SYMBOL, buyAccount: ALICE_MAIN, sellAccount: ALICE_HEDGE, qty: '3', everyMs: 40, maxCrosses: 2 },
        unknownOrders,
      });
      const { pipeline, venue, sim } = t;
      const fills: Fill[] = [];
      pipeline.tracker.fills$.subscribe((fill) => fills.push(fill));
      await t.waitUntil(
        () => pipeline.counters.sentByKind.cross === 2 && fills.length === 4 && venue.inFlight === 0,
        'two crosses answered and both legs of each filled',
      );
      expect(pipeline.counters.adopted).toBe(0);
      expect(venue.calls.filter((c) => c.kind === 'cancel')).toEqual([]);
      const legs = pipeline.tracker.all();
      expect(legs).toHaveLength(4);
      expect(legs.every((o) => !o.adopted && o.state === 'FILLED' && o.orderId !== undefined)).toBe(true);
      const crossIds = [...new Set(legs.map((o) => o.crossId))];
      expect(crossIds).toHaveLength(2);
      for (const crossId of crossIds) {
        expect(crossId).toMatch(/^x-/);
        expect(
          legs
            .filter((o) => o.crossId === crossId)
            .map((o) => `${o.side} ${o.account}`)
            .sort(),
        ).toEqual([`BUY ${ALICE_MAIN}`, `SELL ${ALICE_HEDGE}`]);
      }
      // the tracker's order ids are the exchange's, and every fill is attributed to a tracked leg
      const exchangeIds = new Set(sim.core.trades().flatMap((trade) => [trade.buyer.order.orderId, trade.seller.order.orderId]));
      expect(legs.every((o) => exchangeIds.has(o.orderId ?? ''))).toBe(true);
      expect(fills.every((f) => legs.some((o) => o.clordId === f.clordId && o.side === f.side))).toBe(true);
      expect(pipeline.tracker.open()).toEqual([]);
    },
  );
});
