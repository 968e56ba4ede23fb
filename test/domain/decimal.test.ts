/**
 * Decimal helpers: strict parsing, plain formatting, comparisons, tick arithmetic; plus fast-check
 * properties (parse/format round trip, roundToTick lands on a tick within one tick).
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  Decimal,
  compareDecimal,
  formatDecimal,
  isDecimalString,
  isMultipleOf,
  maxDecimal,
  minDecimal,
  notional,
  parseDecimal,
  roundToTick,
  sumDecimals,
} from '../../src/domain/index.ts';
import { d, installDecimalEquality } from './fixtures.ts';

installDecimalEquality();

describe('parseDecimal', () => {
  test.each(['0', '0.55', '-1.25', '123456789012345678901234567890.123456789', '0.000000001'])('accepts %s', (text) => {
    expect(formatDecimal(parseDecimal(text))).toBe(text);
  });

  test.each(['', ' 1', '1 ', '+1', '1e3', '1E-2', '.5', '5.', '05', '0x10', 'NaN', 'Infinity', '-', '1,5', '١'])(
    'refuses %j with DECIMAL_INVALID',
    (text) => {
      expect(() => parseDecimal(text, 'limit')).toThrowError(expect.objectContaining({ code: 'DECIMAL_INVALID' }));
      expect(isDecimalString(text)).toBe(false);
    },
  );

  test('accepts bigints and safe integers but refuses floats, NaN and Infinity', () => {
    expect(parseDecimal(12345678901234567890n)).toEqual(d('12345678901234567890'));
    expect(parseDecimal(42)).toEqual(d('42'));
    for (const bad of [0.1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      expect(() => parseDecimal(bad)).toThrowError(expect.objectContaining({ code: 'DECIMAL_INVALID' }));
    }
  });

  test('names the value in the error message', () => {
    expect(() => parseDecimal('1e3', 'risk.maxPrice')).toThrowError(/risk\.maxPrice: expected a decimal string/);
  });

  test('normalizes -0 to 0', () => {
    expect(formatDecimal(parseDecimal('-0'))).toBe('0');
  });
});

describe('formatDecimal', () => {
  test('never uses exponent notation', () => {
    expect(formatDecimal(d('1e-12'))).toBe('0.000000000001');
    expect(formatDecimal(d('1e30'))).toBe('1000000000000000000000000000000');
  });

  test('with decimal places pads and rounds half-even', () => {
    expect(formatDecimal(d('0.5'), 2)).toBe('0.50');
    expect(formatDecimal(d('0.125'), 2)).toBe('0.12');
    expect(formatDecimal(d('0.135'), 2)).toBe('0.14');
    expect(formatDecimal(d('-0.001'), 2)).toBe('0.00');
  });
});

describe('comparisons and sums', () => {
  test('compare, min, max and sum are exact', () => {
    expect(compareDecimal(d('0.1'), d('0.10'))).toBe(0);
    expect(compareDecimal(d('0.1'), d('0.2'))).toBe(-1);
    expect(minDecimal(d('3'), d('-1'), d('2'))).toEqual(d('-1'));
    expect(maxDecimal(d('3'), d('-1'), d('2'))).toEqual(d('3'));
    expect(sumDecimals([d('0.1'), d('0.2')])).toEqual(d('0.3'));
    expect(notional(d('0.55'), d('3'))).toEqual(d('1.65'));
  });

  test('the project Decimal keeps 40 significant digits', () => {
    expect(formatDecimal(d('1').div(3))).toBe(`0.${'3'.repeat(40)}`);
  });
});

describe('ticks', () => {
  test('isMultipleOf works for decimal ticks and negative values', () => {
    expect(isMultipleOf(d('0.55'), d('0.01'))).toBe(true);
    expect(isMultipleOf(d('0.555'), d('0.01'))).toBe(false);
    expect(isMultipleOf(d('-0.3'), d('0.1'))).toBe(true);
    expect(isMultipleOf(d('0.09'), d('0.03'))).toBe(true);
  });

  test('roundToTick rounds down, up and to nearest (ties to even)', () => {
    expect(roundToTick(d('0.555'), d('0.01'), 'down')).toEqual(d('0.55'));
    expect(roundToTick(d('0.555'), d('0.01'), 'up')).toEqual(d('0.56'));
    expect(roundToTick(d('0.555'), d('0.01'), 'nearest')).toEqual(d('0.56'));
    expect(roundToTick(d('0.545'), d('0.01'), 'nearest')).toEqual(d('0.54'));
    expect(roundToTick(d('-0.555'), d('0.01'), 'down')).toEqual(d('-0.56'));
    expect(roundToTick(d('0.55'), d('0.01'), 'up')).toEqual(d('0.55'));
  });

  test('a zero or negative tick is TICK_INVALID', () => {
    expect(() => roundToTick(d('1'), d('0'), 'down')).toThrowError(expect.objectContaining({ code: 'TICK_INVALID' }));
    expect(() => isMultipleOf(d('1'), d('-0.01'))).toThrowError(expect.objectContaining({ code: 'TICK_INVALID' }));
  });
});

const decimalString = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }))
  .map(([negative, digits, places]) => {
    const text = digits.toString().padStart(places + 1, '0');
    const whole = text.slice(0, text.length - places);
    const frac = text.slice(text.length - places).replace(/0+$/, '');
    const body = frac === '' ? whole : `${whole}.${frac}`;
    return negative && body !== '0' ? `-${body}` : body;
  });

const positiveTick = fc
  .tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 6 }))
  .map(([n, places]) => new Decimal(n).div(new Decimal(10).pow(places)));

describe('properties', () => {
  test('format(parse(s)) === s for canonical decimal strings', () => {
    fc.assert(fc.property(decimalString, (text) => formatDecimal(parseDecimal(text)) === text));
  });

  test('parse(format(x)) equals x', () => {
    fc.assert(fc.property(decimalString, (text) => parseDecimal(formatDecimal(parseDecimal(text))).eq(parseDecimal(text))));
  });

  test('roundToTick gives a multiple of the tick within one tick, on the right side', () => {
    fc.assert(
      fc.property(decimalString, positiveTick, fc.constantFrom('down', 'up', 'nearest' as const), (text, tick, mode) => {
        const value = parseDecimal(text);
        const rounded = roundToTick(value, tick, mode);
        expect(isMultipleOf(rounded, tick)).toBe(true);
        expect(rounded.minus(value).abs().lessThan(tick)).toBe(true);
        if (mode === 'down') expect(rounded.lte(value)).toBe(true);
        if (mode === 'up') expect(rounded.gte(value)).toBe(true);
        if (mode === 'nearest') expect(rounded.minus(value).abs().times(2).lte(tick)).toBe(true);
      }),
    );
  });

  test('a value already on the tick is unchanged by every mode', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), positiveTick, (n, tick) => {
        const value = tick.times(n);
        return ['down', 'up', 'nearest'].every((mode) => roundToTick(value, tick, mode as 'down').eq(value));
      }),
    );
  });
});

describe('comparisons without a copy (the project prototype)', () => {
  // decimal.js's own comparison: the argument copied into a new instance, as decimal.js does
  const reference = (a: Decimal, b: Decimal | number | string) =>
    Object.getPrototypeOf(Object.getPrototypeOf(a)).comparedTo.call(a, b) as number;
  const special = [
    new Decimal(0),
    new Decimal(-0),
    new Decimal(NaN),
    new Decimal(Infinity),
    new Decimal(-Infinity),
    new Decimal('1e-9000000000000000'),
    new Decimal('9e9000000000000000'),
  ];

  test('cmp, eq, lt, lte, gt, gte agree with decimal.js on any two decimals', () => {
    fc.assert(
      fc.property(decimalString, decimalString, (x, y) => {
        const a = parseDecimal(x);
        const b = parseDecimal(y);
        const expected = reference(a, b);
        expect(a.cmp(b)).toBe(expected);
        expect(a.comparedTo(b)).toBe(expected);
        expect([a.eq(b), a.lt(b), a.lte(b), a.gt(b), a.gte(b)]).toEqual([
          expected === 0,
          expected < 0,
          expected <= 0,
          expected > 0,
          expected >= 0,
        ]);
      }),
    );
  });

  test('zeros, NaN, infinities, extreme exponents, numbers and strings as decimal.js does', () => {
    const values = [...special, new Decimal('0.01'), new Decimal('-0.01'), new Decimal('123.456')];
    for (const a of values) {
      for (const b of [...values, 0, -1, 0.5, '0.01', '-123.456']) expect(Object.is(a.cmp(b), reference(a, b))).toBe(true);
    }
  });

  test('the operands are neither changed nor copied', () => {
    const a = new Decimal('1.25');
    const b = new Decimal('-3.5');
    expect(a.gt(b)).toBe(true);
    expect(formatDecimal(a)).toBe('1.25');
    expect(formatDecimal(b)).toBe('-3.5');
    expect(a).toBeInstanceOf(Decimal);
    expect(a.plus(b)).toBeInstanceOf(Decimal);
  });
});

describe('roundToTick on ticks 1, 0.1, 0.01, ... (decimal places instead of a modulo)', () => {
  // the general algorithm, as roundToTick computes it for any tick
  const byModulo = (value: Decimal, tick: Decimal, mode: 'down' | 'up'): Decimal => {
    const remainder = value.mod(tick);
    if (remainder.isZero()) return value;
    const down = value.minus(remainder);
    return mode === 'down' ? down : down.plus(tick);
  };
  const tenths = fc.integer({ min: 0, max: 12 }).map((k) => new Decimal(10).pow(-k));
  const longDecimal = fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 45n }), fc.integer({ min: 0, max: 40 }))
    .map(([negative, digits, places]) => {
      const text = digits.toString().padStart(places + 1, '0');
      const body = places === 0 ? text : `${text.slice(0, text.length - places)}.${text.slice(text.length - places)}`;
      return new Decimal(negative ? `-${body}` : body);
    });

  test('gives exactly what the modulo gives (value, sign of zero, same instance when on the tick)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          decimalString.map((t) => parseDecimal(t)),
          longDecimal,
        ),
        tenths,
        fc.constantFrom('down' as const, 'up' as const),
        (value, tick, mode) => {
          const fast = roundToTick(value, tick, mode);
          const reference = byModulo(value, tick, mode);
          expect(fast.toFixed()).toBe(reference.toFixed());
          expect(Object.is(fast.isNegative(), reference.isNegative())).toBe(true);
          if (reference === value) expect(fast).toBe(value);
        },
      ),
    );
  });

  test('edge values: zero, -0, below one tick, 35+ digits, a tick of 10 or 0.05', () => {
    const cases = [
      '0',
      '-0',
      '0.004',
      '-0.004',
      '0.995',
      '1',
      '12345678901234567890123456789012345.678',
      '0.1234567890123456789012345678901234567891',
    ];
    for (const text of cases) {
      for (const tick of ['1', '0.1', '0.01', '10', '0.05'].map((t) => new Decimal(t))) {
        for (const mode of ['down', 'up'] as const) {
          const value = new Decimal(text);
          const fast = roundToTick(value, tick, mode);
          const reference = byModulo(value, tick, mode);
          expect(fast.toFixed()).toBe(reference.toFixed());
          expect(fast.isNegative()).toBe(reference.isNegative());
        }
      }
    }
  });

  test('roundToTick on ticks of 10^-k gives exactly what decimal.js toDecimalPlaces floor / ceil gives (digits, exponent, sign)', () => {
    // the word-level cut (and its carries) against decimal.js's own rounding on a plain clone
    const Reference = DecimalJs.clone({
      precision: 40,
      rounding: DecimalJs.ROUND_HALF_EVEN,
      toExpNeg: -9e15,
      toExpPos: 9e15,
      modulo: DecimalJs.EUCLID,
    });
    const parts = (x: unknown) => {
      const { s, e, d: words } = x as { s: number; e: number; d: number[] };
      return { s, e, negativeZeroExponent: Object.is(e, -0), words: [...words] };
    };
    const digits = (max: number) =>
      fc.oneof(fc.stringMatching(new RegExp(`^9{1,${max}}$`)), fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`)));
    fc.assert(
      fc.property(
        digits(20),
        fc.oneof(digits(20), fc.stringMatching(/^0{1,12}[0-9]{1,8}$/)),
        fc.integer({ min: 0, max: 16 }),
        fc.boolean(),
        (int, frac, places, up) => {
          const text = `${int.replace(/^0+(?=.)/, '')}.${frac}`;
          const tick = d('1').div(d('10').pow(places));
          const got = roundToTick(d(text), tick, up ? 'up' : 'down');
          const expected = new Reference(text).toDecimalPlaces(places, up ? Reference.ROUND_CEIL : Reference.ROUND_FLOOR);
          expect(parts(got)).toEqual(parts(expected));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
