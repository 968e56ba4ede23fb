/**
 * decimalFromRawInt: the Decimal tryDecimalFromRaw gives for the same raw integer written out, cached or not;
 * and its shortcut on decimal.js's words (decimal-words/raw-int.ts) against decimal.js's parser: the same sign,
 * exponent, words and prototype at every scale, for raw integers with trailing zeros, at word boundaries and
 * up to the largest safe integer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalFromRawInt, tryDecimalFromRaw } from '../../src/domain/index.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { fromRawIntShortcut } from '../../src/domain/decimal-words/index.ts';

/** raw written with its decimal point `digits` places from the right. */
function written(raw: number, digits: number): string {
  const text = String(raw).padStart(digits + 1, '0');
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

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

  it('builds on the words exactly what decimal.js parses from the written value, at scales 0 to 15', () => {
    const raw = fc.oneof(
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: 1, max: 99_999 }),
      // trailing zeros and word boundaries: m x 10^k
      fc
        .tuple(fc.integer({ min: 1, max: 9_999_999 }), fc.integer({ min: 0, max: 9 }))
        .map(([m, k]) => m * 10 ** k)
        .filter((n) => Number.isSafeInteger(n)),
      fc.constantFrom(1, 9, 10, 9_999_999, 10_000_000, 10_000_001, 1e14, 1e15, Number.MAX_SAFE_INTEGER),
    );
    fc.assert(
      fc.property(raw, fc.integer({ min: 0, max: 15 }), (n, digits) => {
        const built = fromRawIntShortcut(n, digits);
        const parsed = new Decimal(written(n, digits));
        expect(built).toEqual(parsed);
        expect(Object.getPrototypeOf(built)).toBe(Object.getPrototypeOf(parsed));
        expect(built?.toFixed()).toBe(parsed.toFixed());
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves zero, negative, unsafe and fractional raw values and scales past 15 to the general path', () => {
    for (const [n, digits] of [
      [0, 2],
      [-5, 2],
      [2 ** 53, 0],
      [1.5, 0],
      [5, 16],
      [5, -1],
    ] as const) {
      expect(fromRawIntShortcut(n, digits)).toBeUndefined();
    }
  });
});
