// The tracker decides whether a change is visible by comparing the view before it with the record itself
// (changedSince), so it takes one view per change: that must answer exactly what comparing two views
// (viewChanged) answers, for any mutation of the fields a view shows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { OrderRecord, changedSince } from '../../../src/engine/orders/record.ts';
import type { TrackedOrder } from '../../../src/engine/orders/index.ts';

/** The oracle: two views differ in anything a consumer would act on (time aside). */
function viewChanged(a: TrackedOrder, b: TrackedOrder): boolean {
  const samePrice = a.price === undefined || b.price === undefined ? a.price === b.price : a.price.eq(b.price);
  return (
    a.state !== b.state ||
    a.clordId !== b.clordId ||
    a.orderId !== b.orderId ||
    !a.qty.eq(b.qty) ||
    !a.filledQty.eq(b.filledQty) ||
    !samePrice ||
    a.pendingReplace !== b.pendingReplace
  );
}

const qtyArb = fc.integer({ min: 0, max: 5 }).map((n) => new Decimal(n));
const priceArb = fc.option(
  fc.integer({ min: 1, max: 3 }).map((c) => new Decimal(c).div(100)),
  { nil: undefined },
);

describe('changedSince', () => {
  it('answers viewChanged(before, record.view()) for any change of the shown fields', () => {
    fc.assert(
      fc.property(
        fc.record({
          base: fc.constantFrom(
            'PENDING_NEW' as const,
            'NEW' as const,
            'PARTIALLY_FILLED' as const,
            'FILLED' as const,
            'CANCELED' as const,
          ),
          qty: qtyArb,
          filled: qtyArb,
          price: priceArb,
          orderId: fc.option(fc.constantFrom('O1', 'O2'), { nil: undefined }),
          pendingCancel: fc.boolean(),
          unknown: fc.boolean(),
          replace: fc.boolean(),
          newClord: fc.boolean(),
          sameObjects: fc.boolean(),
        }),
        (change) => {
          const record = new OrderRecord({
            clordId: 'c1',
            orderId: 'O1',
            account: 'a',
            symbol: 'S',
            side: 'BUY',
            price: new Decimal('0.01'),
            qty: new Decimal(2),
            base: 'NEW',
            adopted: false,
            intentId: undefined,
            label: undefined,
            crossId: undefined,
            time: 0,
          });
          const before = record.view();
          record.base = change.base;
          record.qty = change.sameObjects ? new Decimal(record.qty) : change.qty;
          record.filledQty = change.filled;
          record.price = change.price;
          record.orderId = change.orderId;
          record.pendingCancel = change.pendingCancel;
          record.unknown = change.unknown;
          if (change.newClord) {
            record.chain.push('c2', record.confirmed);
            record.confirmed = 1;
          }
          if (change.replace) record.pendingReplace = Object.freeze({ clordId: 'c3', price: undefined, qty: undefined });
          record.changed();
          expect(changedSince(before, record)).toBe(viewChanged(before, record.view()));
        },
      ),
    );
  });
});
