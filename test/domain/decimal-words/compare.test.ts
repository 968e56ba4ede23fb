// The project's Decimal comparison (`cmp`, compared in place by src/domain/decimal-words/) agrees with
// decimal.js's own for any pair of values (signs, zeros, scales, long digit strings, equal values written
// differently), and so do the domain helpers that replaced src/engine/decimal-compare.ts (maxDecimal,
// multipleOfTick). The reference is a clone of the configuration: its instances have decimal.js's prototype.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO, isMultipleOf, maxDecimal, multipleOfTick } from '../../../src/domain/decimal.ts';

const Reference = Decimal.clone();
/** decimal.js's own comparison of the same values. */
const compare = (a: Decimal, b: Decimal): number => new Reference(a.toString()).cmp(new Reference(b.toString()));

const decimalArb = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 25 }))
  .map(([units, scale]) => new Decimal(units.toString()).div(new Decimal(10).pow(scale)));

describe('Decimal comparison', () => {
  it("a.cmp(b) equals decimal.js's own for any decimals", () => {
    fc.assert(
      fc.property(decimalArb, decimalArb, (a, b) => {
        expect(compare(a, b)).toBe(a.cmp(b));
        expect(a.cmp(a.plus(0))).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('handles zeros, negative zero and values equal in other forms', () => {
    const cases: [string, string][] = [
      ['0', '-0'],
      ['0', '0.000'],
      ['1', '1.0000000'],
      ['-0.5', '-0.50'],
      ['0.1', '0.10000000001'],
      ['-3', '2'],
      ['100000000', '99999999.9999'],
    ];
    for (const [a, b] of cases) {
      expect(compare(new Decimal(a), new Decimal(b))).toBe(new Decimal(a).cmp(new Decimal(b)));
      expect(compare(new Decimal(b), new Decimal(a))).toBe(new Decimal(b).cmp(new Decimal(a)));
    }
  });

  it('above zero (x.gt(ZERO)) and the largest (maxDecimal)', () => {
    expect([new Decimal(0), new Decimal('-0'), new Decimal('0.001'), new Decimal(-1)].map((x) => x.gt(ZERO))).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect(maxDecimal(new Decimal(1), new Decimal('-2'), new Decimal('1.5'), new Decimal('1.50')).toString()).toBe('1.5');
  });

  it('multipleOfTick agrees with isMultipleOf for powers of ten and other ticks', () => {
    const ticks = ['1', '0.1', '0.01', '0.001', '0.05', '0.25', '10', '5'].map((t) => new Decimal(t));
    fc.assert(
      fc.property(decimalArb, fc.constantFrom(...ticks), (value, tick) => {
        expect(multipleOfTick(tick)(value)).toBe(isMultipleOf(value, tick));
      }),
      { numRuns: 2000 },
    );
    expect(multipleOfTick(new Decimal('0.01'))(new Decimal('0.420'))).toBe(true);
    expect(multipleOfTick(new Decimal('0.01'))(new Decimal('0.425'))).toBe(false);
  });
});
