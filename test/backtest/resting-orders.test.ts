/**
 * RestingOrders.touchedBy, the replay's quick test before allocating a tape trade: whenever it says a
 * trade reaches no resting order, allocate gives nothing and leaves every queue estimate as it was; when
 * it says one is reached, allocate fills one or lowers a queue estimate (property over random books).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RestingOrders } from '../../backtest/replay/resting-orders.ts';

const order = fc.record({ buy: fc.boolean(), price: fc.integer({ min: 40, max: 46 }), leaves: fc.integer({ min: 1, max: 5 }), queueAhead: fc.integer({ min: 0, max: 6 }) });

describe('RestingOrders.touchedBy', () => {
  it('is false exactly when allocate would change nothing', () => {
    fc.assert(
      fc.property(fc.array(order, { maxLength: 6 }), fc.integer({ min: 38, max: 48 }), fc.integer({ min: 1, max: 8 }), fc.boolean(), (orders, price, qty, aggressorBuys) => {
        const resting = new RestingOrders();
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
      }),
      { numRuns: 2000 },
    );
  });
});
