/**
 * RestingOrders.touchedBy, the replay's quick test before allocating a tape trade: whenever it says a
 * trade reaches no resting order, allocate gives nothing and leaves every queue estimate as it was; when
 * it says one is reached, allocate fills one or lowers a queue estimate (property over random books); and
 * several bot orders at one price fill, and their queue estimates fall, as the level's queue would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RestingOrders } from '../../backtest/replay/resting-orders.ts';

const order = fc.record({
  buy: fc.boolean(),
  price: fc.integer({ min: 40, max: 46 }),
  leaves: fc.integer({ min: 1, max: 5 }),
  queueAhead: fc.integer({ min: 0, max: 6 }),
});

describe('RestingOrders.touchedBy', () => {
  it.each(['full', 'print'] as const)('is false exactly when allocate would change nothing (tradeThrough %s)', (tradeThrough) => {
    fc.assert(
      fc.property(
        fc.array(order, { maxLength: 6 }),
        fc.integer({ min: 38, max: 48 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        (orders, price, qty, aggressorBuys) => {
          const resting = new RestingOrders(tradeThrough);
          orders.forEach((o, i) => resting.add({ orderId: `o${i}`, ...o, priority: i + 1 }));
          const before = resting.all().map((o) => o.queueAhead);
          const touched = resting.touchedBy(price, aggressorBuys);
          const allocations = resting.allocate(price, qty, aggressorBuys);
          const after = resting.all().map((o) => o.queueAhead);
          if (!touched) {
            expect(allocations).toEqual([]);
            expect(after).toEqual(before);
          } else {
            expect(allocations.length > 0 || after.some((q, i) => q < (before[i] as number))).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('fills orders at one price as the level itself would: market quantity ahead and bot orders, front first', () => {
    // the level as an explicit queue: the market quantity ahead of the first order, the first order, the
    // market quantity between it and the second, ... (estimates never decrease along time priority)
    const level = fc.array(fc.record({ leaves: fc.integer({ min: 1, max: 5 }), gap: fc.integer({ min: 0, max: 6 }) }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(level, fc.integer({ min: 1, max: 30 }), fc.boolean(), (rows, qty, buy) => {
        const resting = new RestingOrders();
        let ahead = 0;
        rows.forEach((r, i) => {
          ahead += r.gap;
          resting.add({ orderId: `o${i}`, buy, price: 45, leaves: r.leaves, queueAhead: ahead, priority: i + 1 });
        });
        // reference: walk the queue front first with the trade's quantity
        let left = qty;
        let filled = 0;
        const queueAfter: number[] = [];
        let marketLeft = 0; // market quantity still ahead, accumulated along the queue
        for (const r of rows) {
          const take = Math.min(r.gap, left);
          left -= take;
          marketLeft += r.gap - take;
          queueAfter.push(marketLeft);
          const fill = Math.min(r.leaves, left);
          left -= fill;
          filled += fill;
        }
        const allocations = resting.allocate(45, qty, !buy);
        expect(allocations.reduce((sum, a) => sum + a.qty, 0)).toBe(filled);
        expect(resting.all().map((o) => o.queueAhead)).toEqual(queueAfter);
      }),
      { numRuns: 2000 },
    );
  });
});
