/** decimalFromRawInt: the Decimal tryDecimalFromRaw gives for the same raw integer written out, cached or not. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalFromRawInt, tryDecimalFromRaw } from '../../src/domain/index.ts';

describe('decimalFromRawInt', () => {
  it('equals tryDecimalFromRaw(String(raw), digits) for small and large raw integers', () => {
    const raw = fc.oneof(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }));
    fc.assert(
      fc.property(raw, fc.integer({ min: 0, max: 8 }), (n, digits) => {
        expect(decimalFromRawInt(n, digits)).toEqual(tryDecimalFromRaw(String(n), digits));
        expect(decimalFromRawInt(n, digits).toFixed()).toBe(tryDecimalFromRaw(String(n), digits)?.toFixed());
      }),
      { numRuns: 500 },
    );
  });
});
