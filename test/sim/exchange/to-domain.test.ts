/**
 * The simulator's raw -> domain mapper remembers the Decimals it builds (raw / scale, per scale, bounded):
 * whatever the values, repeated or not, past the memory's bound or negative zero, every price and quantity
 * of a converted order equals a fresh Decimal division, sign and digits alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { scalesOf } from '../../../src/domain/index.ts';
import { toDomainOrder, type SnapshotLike } from '../../../src/sim/exchange/to-domain.ts';

const same = (actual: Decimal, raw: number | string, scale: number) => {
  const expected = new Decimal(raw).div(scale);
  expect(actual.toString()).toBe(expected.toString());
  expect(actual.isNegative()).toBe(expected.isNegative());
  expect(actual.eq(expected)).toBe(true);
};

function snapshot(price: number, orderQty: number, cumQty: number, leavesQty: number, avgPx: string): SnapshotLike {
  return {
    order: {
      orderId: 'O1',
      symbol: 'X',
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      timeInForce: 'TIME_IN_FORCE_DAY',
      price,
      orderQty,
      account: 'firms/f/accounts/a',
      insertTime: 0,
    },
    state: 'ORDER_STATE_NEW',
    cumQty,
    leavesQty,
    avgPx,
  };
}

describe('toDomainOrder decimals', () => {
  it('equal a fresh division for any raw values and scales, repeated or not', () => {
    const raw = fc.oneof(fc.integer({ min: -20_000, max: 20_000 }), fc.constantFrom(0, -0, 1, 99, 10_000));
    fc.assert(
      fc.property(
        fc.constantFrom(1, 10, 100, 10_000),
        fc.constantFrom(1, 100),
        fc.array(fc.tuple(raw, raw, raw, raw, raw), { minLength: 1, maxLength: 300 }),
        (priceScale, qtyScale, rows) => {
          const scales = scalesOf({ priceScale, fractionalQtyScale: qtyScale });
          for (const [price, orderQty, cumQty, leavesQty, avg] of rows) {
            const avgPx = String(avg);
            const order = toDomainOrder(snapshot(price, orderQty, cumQty, leavesQty, avgPx), scales);
            same(order.price, price, priceScale);
            same(order.orderQty, orderQty, scales.qtyScale);
            same(order.cumQty, cumQty, scales.qtyScale);
            same(order.leavesQty, leavesQty, scales.qtyScale);
            same(order.avgPx, avgPx, priceScale);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('stays right past the bound of what it remembers', () => {
    const scales = scalesOf({ priceScale: 100, fractionalQtyScale: 1 });
    for (let round = 0; round < 2; round++) {
      for (let p = 0; p < 10_000; p += 1) {
        const order = toDomainOrder(snapshot(p, p + 1, 0, p + 1, String(p)), scales);
        same(order.price, p, 100);
        same(order.orderQty, p + 1, scales.qtyScale);
      }
    }
  });
});
