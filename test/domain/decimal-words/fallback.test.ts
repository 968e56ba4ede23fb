/**
 * The install decision of src/domain/decimal-words/ and its fallback. On the pinned decimal.js the self-check
 * passes and the project's Decimal has the in-place prototype. A decimal.js stored differently (a fake
 * representation: other words, other fields, other own properties), or whose own methods give other results,
 * fails the check with a message naming what differs; then nothing is installed (the constructor keeps
 * decimal.js's prototype) and the shortcuts are the public-API ones: tick rounding by toDecimalPlaces, which
 * gives exactly what roundToTick's general path (a modulo) and decimal.js's toDecimalPlaces give, on values
 * with decimal.js's plain prototype; no raw-integer shortcut.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import {
  decideFastPaths,
  fastPaths,
  installFastPaths,
  type DecimalJsProbe,
  type FastPathDecision,
} from '../../../src/domain/decimal-words/index.ts';

type Method = (this: unknown, y: unknown) => unknown;
const own: DecimalJsProbe['own'] = {
  comparedTo: DecimalJs.prototype.comparedTo as Method,
  plus: DecimalJs.prototype.plus as Method,
  minus: DecimalJs.prototype.minus as Method,
  times: DecimalJs.prototype.times as Method,
};
/** decimal.js with the project's configuration and decimal.js's own prototype (what the fallback computes with). */
const Plain = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
  modulo: DecimalJs.EUCLID,
});
const real: DecimalJsProbe = { build: (text) => new Plain(text), own };
const failed: FastPathDecision = { install: false, problem: 'a fake representation' };

/** A fake constructor target: its prototype must stay as it is when the decision is not to install. */
function fakeTarget() {
  const prototype = Object.create(DecimalJs.prototype) as DecimalJs;
  return { target: { prototype }, prototype };
}

describe('the install decision', () => {
  it('passes on the installed (pinned) decimal.js, and the project Decimal has the in-place prototype', () => {
    expect(decideFastPaths(real)).toEqual({ install: true });
    expect(fastPaths).toEqual({ install: true });
    expect(Object.getPrototypeOf(new Decimal(1))).not.toBe(DecimalJs.prototype);
    expect(Object.getPrototypeOf(new Plain(1))).toBe(DecimalJs.prototype);
  });

  it('fails on a fake representation: base-10 digits, renamed fields, other own properties', () => {
    const base10: DecimalJsProbe = {
      ...real,
      build: (text) => {
        const x = new Plain(text);
        return { constructor: Plain, s: x.s, e: x.e, d: x.isFinite() ? x.toFixed().replace(/[-.]/g, '').split('').map(Number) : null };
      },
    };
    expect(decideFastPaths(base10)).toEqual({
      install: false,
      problem: 'decimal.js stores 123.456 as s=1 e=2 d=[1,2,3,4,5,6], not s=1 e=2 d=[123,4560000]',
    });
    const renamed: DecimalJsProbe = { ...real, build: (text) => ({ constructor: Plain, sign: 1, exponent: 0, digits: [text] }) };
    expect(decideFastPaths(renamed)).toEqual({
      install: false,
      problem: "decimal.js's 0 has the own properties constructor,sign,exponent,digits, not constructor,s,e,d",
    });
    const exponentInWords: DecimalJsProbe = {
      ...real,
      build: (text) => {
        const x = new Plain(text);
        return { constructor: Plain, s: x.s, e: x.isFinite() ? Math.floor(x.e / 7) : NaN, d: x.d };
      },
    };
    expect(decideFastPaths(exponentInWords)).toMatchObject({ install: false, problem: expect.stringContaining('123.456') as unknown });
  });

  it("fails when decimal.js's own methods give other results than the in-place ones", () => {
    const otherPlus: DecimalJsProbe = { ...real, own: { ...own, plus: () => new Plain('42') } };
    expect(decideFastPaths(otherPlus)).toEqual({
      install: false,
      problem: expect.stringMatching(
        /^the in-place plus gives s=1 e=1 d=\[12,4500000\] 12.45 for 0.45 and 12, decimal.js s=1 e=1 d=\[42\] 42$/,
      ) as unknown,
    });
    const otherCmp: DecimalJsProbe = { ...real, own: { ...own, comparedTo: () => 0 } };
    expect(decideFastPaths(otherCmp)).toEqual({
      install: false,
      problem: 'the in-place comparedTo gives -1 for 0.45 and 12, decimal.js 0',
    });
  });

  it('fails, without throwing, when reading decimal.js throws', () => {
    const throwing: DecimalJsProbe = {
      ...real,
      build: () => {
        throw new Error('no such constructor');
      },
    };
    expect(decideFastPaths(throwing)).toEqual({ install: false, problem: 'the check threw: no such constructor' });
  });
});

describe('installFastPaths', () => {
  it('leaves the constructor alone when the check failed, and gives the fallback shortcuts', () => {
    const { target, prototype } = fakeTarget();
    const shortcuts = installFastPaths(target, failed);
    expect(target.prototype).toBe(prototype);
    expect(shortcuts.rawInt(new Plain('0.55'), 2)).toBeUndefined();
    expect(shortcuts.fromRawInt(55, 2)).toBeUndefined();
    expect(shortcuts.roundToTenthTick(new Plain('0.555'), new Plain('0.01'), false)?.toString()).toBe('0.55');
  });

  it('installs the in-place prototype when the check passed, and gives the word shortcuts', () => {
    const { target, prototype } = fakeTarget();
    const shortcuts = installFastPaths(target, { install: true });
    expect(target.prototype).not.toBe(prototype);
    expect(target.prototype).toBe(Object.getPrototypeOf(new Decimal(1)));
    expect(shortcuts.rawInt(new Decimal('0.55'), 2)).toBe(55);
    expect(shortcuts.fromRawInt(55, 2)).toEqual(new Decimal('0.55'));
  });
});

describe('the fallback tick rounding (toDecimalPlaces, values with decimal.js prototype)', () => {
  const { roundToTenthTick } = installFastPaths(fakeTarget().target, failed);
  // roundToTick's general path, on decimal.js's own methods
  const byModulo = (value: DecimalJs, tick: DecimalJs, mode: 'down' | 'up'): DecimalJs => {
    const remainder = value.mod(tick);
    if (remainder.isZero()) return value;
    const down = value.minus(remainder);
    return mode === 'down' ? down : down.plus(tick);
  };
  const rounded = (value: DecimalJs, tick: DecimalJs, mode: 'down' | 'up'): DecimalJs =>
    roundToTenthTick(value, tick, mode === 'up') ?? byModulo(value, tick, mode);
  const tenths = fc.integer({ min: 0, max: 12 }).map((k) => new Plain(10).pow(-k));
  const longDecimal = fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 45n }), fc.integer({ min: 0, max: 40 }))
    .map(([negative, digits, places]) => {
      const text = digits.toString().padStart(places + 1, '0');
      const body = places === 0 ? text : `${text.slice(0, text.length - places)}.${text.slice(text.length - places)}`;
      return new Plain(negative ? `-${body}` : body);
    });

  it('gives exactly what the modulo gives (value, sign of zero, same instance when on the tick)', () => {
    fc.assert(
      fc.property(longDecimal, tenths, fc.constantFrom('down' as const, 'up' as const), (value, tick, mode) => {
        const got = rounded(value, tick, mode);
        const reference = byModulo(value, tick, mode);
        expect(got.toFixed()).toBe(reference.toFixed());
        expect(Object.is(got.isNegative(), reference.isNegative())).toBe(true);
        if (reference === value) expect(got).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('edge values: zero, -0, below one tick, 35+ digits, a tick of 10 or 0.05 (not a shortcut)', () => {
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
      for (const tick of ['1', '0.1', '0.01', '10', '0.05'].map((t) => new Plain(t))) {
        for (const mode of ['down', 'up'] as const) {
          const value = new Plain(text);
          expect(rounded(value, tick, mode).toFixed(), `${text} ${mode} to ${tick.toString()}`).toBe(byModulo(value, tick, mode).toFixed());
        }
      }
    }
    expect(roundToTenthTick(new Plain('0.55'), new Plain('0.05'), true)).toBeUndefined();
    expect(roundToTenthTick(new Plain('0.55'), new Plain('10'), true)).toBeUndefined();
  });

  it("gives decimal.js's toDecimalPlaces floor / ceil (digits, exponent, sign) and the word shortcut's result", () => {
    const onWords = installFastPaths(fakeTarget().target, { install: true }).roundToTenthTick;
    const parts = (x: unknown) => {
      const { s, e, d: words } = x as { s: number; e: number; d: number[] };
      return { s, e, negativeZeroExponent: Object.is(e, -0), words: [...words] };
    };
    const digits = (max: number) =>
      fc.oneof(fc.stringMatching(new RegExp(`^9{1,${max}}$`)), fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`)));
    let applied = 0;
    fc.assert(
      fc.property(
        digits(20),
        fc.oneof(digits(20), fc.stringMatching(/^0{1,12}[0-9]{1,8}$/)),
        fc.integer({ min: 0, max: 16 }),
        fc.boolean(),
        (int, frac, places, up) => {
          const text = `${int.replace(/^0+(?=.)/, '')}.${frac}`;
          const tick = new Plain(1).div(new Plain(10).pow(places));
          const got = roundToTenthTick(new Plain(text), tick, up);
          const expected = new Plain(text).toDecimalPlaces(places, up ? Plain.ROUND_CEIL : Plain.ROUND_FLOOR);
          if (got === undefined) return; // over 35 digits: roundToTick's general path
          applied += 1;
          expect(parts(got)).toEqual(parts(expected));
          const fast = onWords(new Decimal(text), new Decimal(tick.toString()), up);
          if (fast !== undefined) expect(parts(fast)).toEqual(parts(got));
        },
      ),
      { numRuns: 3000 },
    );
    expect(applied).toBeGreaterThan(1000);
  });
});
