// The strategy price helpers: clampToLimits keeps a price within the instrument's limits exactly as
// Decimal.max(low, Decimal.min(high, price)) does (ties to the limit, NaN through decimal.js), returning the
// instance itself rather than a copy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { clampToLimits } from '../../../src/engine/strategy/instrument-view.ts';

const cents = fc.oneof(
  fc.integer({ min: -200, max: 200 }).map((c) => new Decimal(c).div(100)),
  fc.constantFrom(new Decimal(0), new Decimal(-0)),
);

describe('clampToLimits', () => {
  it('equals Decimal.max(low, Decimal.min(high, price)) for any price and limits', () => {
    fc.assert(
      fc.property(cents, cents, cents, (low, high, price) => {
        const clamped = clampToLimits({ lowPriceLimit: low, highPriceLimit: high }, price);
        const reference = Decimal.max(low, Decimal.min(high, price));
        expect(clamped.toFixed()).toBe(reference.toFixed());
        expect(clamped.isNegative()).toBe(reference.isNegative());
        expect([low, high, price]).toContain(clamped);
      }),
    );
  });

  it('NaN and zeros as decimal.js', () => {
    const limits = { lowPriceLimit: new Decimal('0.01'), highPriceLimit: new Decimal('0.99') };
    expect(clampToLimits(limits, new Decimal(NaN)).isNaN()).toBe(true);
    const zeros = [new Decimal(0), new Decimal(-0)];
    for (const low of zeros)
      for (const high of zeros)
        for (const price of zeros) {
          expect(clampToLimits({ lowPriceLimit: low, highPriceLimit: high }, price).isNegative()).toBe(
            Decimal.max(low, Decimal.min(high, price)).isNegative(),
          );
        }
    expect(clampToLimits(limits, new Decimal('0.5')).toFixed()).toBe('0.5');
    expect(clampToLimits(limits, new Decimal('1.5')).toFixed()).toBe('0.99');
    expect(clampToLimits(limits, new Decimal('-1')).toFixed()).toBe('0.01');
  });
});
