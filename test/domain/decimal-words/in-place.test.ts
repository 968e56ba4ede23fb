/**
 * plus / minus / times (add / sub / mul) of the project's Decimal compute on a Decimal argument without
 * copying it; these properties check they give exactly decimal.js's results: same sign, exponent, digit
 * words, string, own properties and prototype, for values of 1 to 60 significant digits at any magnitude
 * (exponents up to the minE / maxE limits, so overflow and underflow too), zeros and -0, equal, opposite
 * and nearly cancelling operands, carries over word boundaries and results rounded to 40 digits; that NaN,
 * ±Infinity, numbers and strings as arguments still behave as decimal.js; that decimal.js's own internal
 * computations (sqrt, ln, exp, pow, mod, trigonometry...), which call these methods with rounding switched
 * off and a raised precision, come out the same; and that neither operand is changed.
 *
 * The reference is a second clone of the same configuration (`Decimal.clone()`): its instances have
 * decimal.js's own prototype, so every method there, and every method it calls, is decimal.js's.
 * FAST_CHECK_RUNS raises the number of runs (e.g. FAST_CHECK_RUNS=20000 npx vitest run test/domain/decimal-words/in-place.test.ts).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';

const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 1000);
const Reference = Decimal.clone();

interface Parts {
  s: number;
  e: number;
  d: number[] | null;
}
const partsOf = (x: unknown): Parts => x as Parts;

/** The same value as a decimal.js-prototype instance, fields copied as they are (no range check, no rounding). */
function mirror(x: Decimal): Decimal {
  const copy = new Reference(0);
  const parts = partsOf(copy);
  parts.s = partsOf(x).s;
  parts.e = partsOf(x).e;
  parts.d = partsOf(x).d === null ? null : [...(partsOf(x).d as number[])];
  return copy;
}

function snapshot(x: Decimal): { s: number; e: number; d: number[] | null; array: number[] | null } {
  const parts = partsOf(x);
  return { s: parts.s, e: parts.e, d: parts.d === null ? null : [...parts.d], array: parts.d };
}

/** What must agree: fields (compared with Object.is: -0, NaN), string, own keys, constructor and prototype. */
function describeResult(x: Decimal, constructor: unknown) {
  const parts = partsOf(x);
  return {
    s: parts.s,
    e: parts.e,
    d: parts.d === null ? null : [...parts.d],
    // toString never uses an exponent here (toExpNeg / toExpPos at their limits): at e = ±9e15 it would be 9e15 digits long
    text: Math.abs(parts.e) > 10_000 ? x.toExponential() : x.toString(),
    keys: Object.keys(x),
    ownClass: x.constructor === constructor && Object.getPrototypeOf(x) === (constructor as { prototype: unknown }).prototype,
  };
}

/** The project's result has what decimal.js's has (expected: an instance of the reference clone). */
function expectSame(actual: Decimal, expected: Decimal): void {
  expect(describeResult(actual, Decimal)).toStrictEqual(describeResult(expected, Reference));
}

type Op = 'plus' | 'minus' | 'times';
const OPS: readonly Op[] = ['plus', 'minus', 'times'];
const ALIASES: Record<Op, 'add' | 'sub' | 'mul'> = { plus: 'add', minus: 'sub', times: 'mul' };

/** x op y by the project's method and its alias against decimal.js's, operands unchanged and not shared. */
function check(x: Decimal, y: Decimal | number | string, op: Op): void {
  const before = [snapshot(x), typeof y === 'object' ? snapshot(y) : y];
  const expected = describeResult(mirror(x)[op](typeof y === 'object' ? mirror(y) : y), Reference);
  const actual = x[op](y);
  const digits = partsOf(actual).d;
  const outcome = {
    result: describeResult(actual, Decimal),
    alias: describeResult(x[ALIASES[op]](y), Decimal),
    operands: [snapshot(x), typeof y === 'object' ? snapshot(y) : y],
    shared: digits !== null && (digits === partsOf(x).d || (typeof y === 'object' && digits === partsOf(y).d)),
  };
  expect(outcome, `${x.toExponential()} ${op} ${typeof y === 'object' ? y.toExponential() : String(y)}`).toStrictEqual({
    result: expected,
    alias: expected,
    operands: before,
    shared: false,
  });
}

// ---- values -------------------------------------------------------------------------------------------

/** A decimal as sign, significant digits and power of ten: -digits × 10^power or digits × 10^power. */
interface Spec {
  negative: boolean;
  digits: bigint;
  power: number;
}
const MAX_E = 9e15;
const specText = (v: Spec): string => `${v.negative ? '-' : ''}${v.digits}e${v.power}`;
const digitCount = (digits: bigint): number => digits.toString().length;

const significand: fc.Arbitrary<bigint> = fc.oneof(
  { weight: 4, arbitrary: fc.bigInt({ min: 1n, max: 99_999n }) },
  {
    weight: 4,
    arbitrary: fc.integer({ min: 1, max: 60 }).chain((n) => fc.bigInt({ min: 10n ** BigInt(n - 1), max: 10n ** BigInt(n) - 1n })),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((n) => 10n ** BigInt(n) - 1n) }, // 9...9: carries
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(1n, 2n, 5n), fc.integer({ min: 0, max: 59 })).map(([d, n]) => d * 10n ** BigInt(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 59 }).map((n) => 10n ** BigInt(n) + 1n) }, // 10...01
);
const power: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -12, max: 12 }) },
  { weight: 3, arbitrary: fc.integer({ min: -70, max: 70 }) },
  { weight: 1, arbitrary: fc.integer({ min: -400, max: 400 }) },
);
const ordinarySpec: fc.Arbitrary<Spec> = fc.record({ negative: fc.boolean(), digits: significand, power });
/** Exponents at maxE or minE (e = digits - 1 + power). */
const extremeSpec: fc.Arbitrary<Spec> = fc
  .tuple(fc.boolean(), significand, fc.boolean(), fc.integer({ min: 0, max: 20 }))
  .map(([negative, digits, high, back]) => ({
    negative,
    digits,
    power: high ? MAX_E - back - (digitCount(digits) - 1) : -MAX_E + back - (digitCount(digits) - 1),
  }));

const zero = fc.constantFrom('0', '-0', '0e-40', '-0e25').map((text) => new Decimal(text));
const value: fc.Arbitrary<Decimal> = fc.oneof(
  { weight: 8, arbitrary: ordinarySpec.map((v) => new Decimal(specText(v))) },
  { weight: 1, arbitrary: extremeSpec.map((v) => new Decimal(specText(v))) },
  { weight: 1, arbitrary: zero },
);

/** Pairs that are related: the same value, its negation, a neighbour, the same digits shifted, a prefix. */
const relatedPair: fc.Arbitrary<[Decimal, Decimal]> = fc
  .tuple(ordinarySpec, fc.integer({ min: 0, max: 5 }), fc.integer({ min: -60, max: 60 }), fc.boolean())
  .map(([v, kind, shift, flip]) => {
    const x = new Decimal(specText(v));
    let w: Spec;
    if (kind === 0) w = v;
    else if (kind === 1) w = { ...v, negative: !v.negative };
    else if (kind === 2) w = { ...v, digits: v.digits + (shift < 0 ? -1n : 1n) === 0n ? 2n : v.digits + (shift < 0 ? -1n : 1n) };
    else if (kind === 3) w = { ...v, power: v.power + shift };
    else if (kind === 4) {
      const text = v.digits.toString();
      const keep = Math.max(1, text.length - Math.abs(shift));
      w = { ...v, digits: BigInt(text.slice(0, keep)), power: v.power + (text.length - keep) };
    } else w = { ...v, digits: v.digits * 10n ** BigInt(Math.abs(shift) % 20) + 1n, power: v.power - (Math.abs(shift) % 20) };
    const y = new Decimal(specText(flip ? { ...w, negative: !w.negative } : w));
    return [x, y];
  });
const pair: fc.Arbitrary<[Decimal, Decimal]> = fc.oneof(fc.tuple(value, value), relatedPair);

// ---- properties ---------------------------------------------------------------------------------------

describe('plus, minus, times without copying the argument', () => {
  afterEach(() => {
    Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, minE: -MAX_E, maxE: MAX_E });
    Reference.set({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, minE: -MAX_E, maxE: MAX_E });
  });

  test('give exactly decimal.js results for any two decimals', () => {
    fc.assert(
      fc.property(pair, fc.constantFrom(...OPS), ([x, y], op) => {
        check(x, y, op);
        check(y, x, op);
      }),
      { numRuns: RUNS },
    );
  });

  test('the typical values of an order book: prices, quantities, notionals', () => {
    const prices = ['0.01', '0.45', '0.5', '0.99', '0.1234', '1', '12.5', '0.0001'];
    const quantities = ['0', '-0', '1', '5', '12', '50', '12.5', '1000000', '9999999', '10000000', '0.3333333'];
    for (const a of [...prices, ...quantities]) {
      for (const b of [...prices, ...quantities]) {
        const x = new Decimal(a);
        const y = new Decimal(b);
        for (const op of OPS)
          for (const [u, v] of [
            [x, y],
            [x.neg(), y],
            [x, y.neg()],
          ] as const)
            check(u, v, op);
      }
    }
    expect(new Decimal('0.45').plus(new Decimal('0.01')).toString()).toBe('0.46');
    expect(new Decimal('12').times(new Decimal('0.45')).toString()).toBe('5.4');
    expect(new Decimal('50').minus(new Decimal('5')).toString()).toBe('45');
  });

  test('results rounded to 40 digits, carries at the 40th digit, cancellations to zero and -0', () => {
    const cases: [string, string][] = [
      ['9999999999999999999999999999999999999999', '1'],
      ['9999999999999999999999999999999999999999', '0.5'],
      ['1234567890123456789012345678901234567890', '0.5'],
      ['1234567890123456789012345678901234567891', '0.5'],
      ['1e40', '-0.5'],
      ['1e40', '-1'],
      ['0.1234567890123456789012345678901234567890123', '0'],
      ['1234567890123456789012345678901234567890123456789', '-0'],
      ['1e-30', '1e30'],
      ['1e-300', '1e300'],
      ['0.5', '0.5'],
      ['0.5', '-0.5'],
      ['-0', '0'],
      ['-0', '-0'],
      ['99999999999999999999', '99999999999999999999'],
      ['3.3333333333333333333333333333333333333333', '3'],
      ['9e9000000000000000', '9e9000000000000000'],
      ['9e9000000000000000', '-9e9000000000000000'],
      ['1e-9000000000000000', '1e-9000000000000000'],
      ['1e-9000000000000000', '0.1'],
      ['5e-9000000000000000', '-4e-9000000000000000'],
    ];
    for (const [a, b] of cases)
      for (const op of OPS)
        for (const [x, y] of [
          [a, b],
          [b, a],
        ])
          check(new Decimal(x as string), new Decimal(y as string), op);
  });

  test('NaN, ±Infinity, numbers, strings and other clones as arguments: decimal.js own method', () => {
    const values = ['0', '-0', '1', '-1', '0.45', '123456789.123456789', '1e-40', '9e9000000000000000', 'NaN', 'Infinity', '-Infinity'].map(
      (t) => new Decimal(t),
    );
    const others: (number | string)[] = [
      0,
      -0,
      5,
      -1,
      0.5,
      1e21,
      -1.5e-7,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '0.01',
      '-123.456',
      '1e5',
      '-0',
      'Infinity',
    ];
    for (const x of values) {
      for (const y of [...values, ...others]) for (const op of OPS) check(x, y, op);
    }
    const foreign = new Reference('0.25');
    expectSame(new Decimal('0.5').plus(foreign), new Reference('0.5').plus('0.25'));
    expect(() => new Decimal(1).plus({ constructor: Decimal, s: 1, e: 0, d: [1] } as unknown as Decimal)).toThrow();
  });

  test('another precision, rounding towards -Infinity (0 - 0 = -0), a narrow exponent range', () => {
    const configs = [
      { precision: 5, rounding: Decimal.ROUND_HALF_EVEN },
      { precision: 7, rounding: Decimal.ROUND_FLOOR },
      { precision: 12, rounding: Decimal.ROUND_UP },
      { precision: 40, rounding: Decimal.ROUND_FLOOR, minE: -30, maxE: 30 },
    ];
    const values = fc.sample(value, { numRuns: 300, seed: 7 });
    // beyond maxE = 30 for the narrow range, cancelling to a small value: decimal.js copies y as ±Infinity
    const beyond = [
      '1e35',
      '-99999999999999999999999999999999999.5',
      '99999999999999999999999999999999999.5',
      '1e31',
      '-9.99e30',
      '1e-35',
      '-1e-35',
    ];
    for (const a of beyond) for (const b of beyond) values.push(new Decimal(a), new Decimal(b));
    for (const config of configs) {
      Decimal.set(config);
      Reference.set(config);
      fc.assert(
        fc.property(fc.oneof(fc.tuple(value, value), relatedPair), fc.constantFrom(...OPS), ([x, y], op) => check(x, y, op)),
        { numRuns: Math.ceil(RUNS / 4) },
      );
      // values made under the default range, now beyond minE / maxE for the narrow one
      for (let i = 0; i + 1 < values.length; i += 2) for (const op of OPS) check(values[i] as Decimal, values[i + 1] as Decimal, op);
      if (config.maxE === undefined) continue;
      for (const x of [new Decimal('1'), new Decimal('-0.5'), new Decimal(0)])
        for (const y of values) for (const op of OPS) check(x, y, op);
    }
  });

  test('a word exponent of -0 stays as decimal.js computes it', () => {
    // e = -0 does not come out of decimal.js's parsing, but the methods must not differ on it either
    const values = ['5', '-3', '3', '12', '7', '0.5', '12345678', '5.0000001', '3.5', '-5.0000001', '9.9999999', '0.0000001'];
    for (const a of values) {
      for (const b of values) {
        for (const [negativeX, negativeY] of [
          [true, false],
          [false, true],
          [true, true],
        ]) {
          const x = new Decimal(a);
          const y = new Decimal(b);
          if (negativeX && partsOf(x).e === 0) partsOf(x).e = -0;
          if (negativeY && partsOf(y).e === 0) partsOf(y).e = -0;
          for (const op of OPS) check(x, y, op);
        }
      }
    }
  });

  test("decimal.js's own computations, which call these methods internally, come out the same", () => {
    // magnitudes within 1e-30..1e30 (1e-30..100 for the transcendental functions, slow far beyond)
    const operand = fc.oneof(
      ordinarySpec.filter((v) => Math.abs(digitCount(v.digits) + v.power) < 30).map((v) => new Decimal(specText(v))),
      zero,
    );
    const small = fc.integer({ min: -6, max: 6 });
    fc.assert(
      fc.property(operand, operand, small, (x, y, k) => {
        const rx = mirror(x);
        const ry = mirror(y);
        const a = x.abs();
        const ra = rx.abs();
        const same = (actual: () => Decimal, expected: () => Decimal): void => expectSame(actual(), expected());
        same(
          () => x.mod(y),
          () => rx.mod(ry),
        );
        same(
          () => x.pow(k),
          () => rx.pow(k),
        );
        same(
          () => a.sqrt(),
          () => ra.sqrt(),
        );
        same(
          () => x.cbrt(),
          () => rx.cbrt(),
        );
        same(
          () => x.toNearest(y),
          () => rx.toNearest(ry),
        );
        same(
          () => x.div(y),
          () => rx.div(ry),
        );
        if (!a.isZero())
          same(
            () => a.ln(),
            () => ra.ln(),
          );
        if (a.lt(100)) {
          same(
            () => x.exp(),
            () => rx.exp(),
          );
          same(
            () => x.sin(),
            () => rx.sin(),
          );
          same(
            () => x.atan(),
            () => rx.atan(),
          );
          same(
            () => x.tanh(),
            () => rx.tanh(),
          );
        }
      }),
      { numRuns: Math.ceil(RUNS / 10) },
    );
  });
});
