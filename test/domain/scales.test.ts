/**
 * Scaled-integer conversions: raw / scale with scale 0 meaning 1, exact decimal -> raw or a typed
 * refusal, commissions at price × quantity scale, strict raw integers for the simulator; plus properties.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  commissionFromRaw,
  commissionToRaw,
  decimalToRawInt,
  formatRawInt,
  instrumentScales,
  isInt64String,
  parseRawInt,
  priceFromRaw,
  priceToRaw,
  qtyFromRaw,
  qtyToRaw,
  rawIntToDecimal,
  roundToScale,
} from '../../src/domain/index.ts';
import { d, installDecimalEquality } from './fixtures.ts';

installDecimalEquality();

describe('scales', () => {
  test('a price is raw / price_scale: "5500" at 10000 is 0.55, at 100 is 55, at 0 is 5500', () => {
    expect(priceFromRaw('5500', instrumentScales('10000', '0'))).toEqual(d('0.55'));
    expect(priceFromRaw('5500', instrumentScales('100', '0'))).toEqual(d('55'));
    expect(priceFromRaw('5500', instrumentScales('0', '0'))).toEqual(d('5500'));
  });

  test('a quantity scale of 0 means 1', () => {
    const scales = instrumentScales('100', '0');
    expect(scales.qtyScale).toBe(1);
    expect(qtyFromRaw('7', scales)).toEqual(d('7'));
    expect(qtyFromRaw('7', instrumentScales('100', '100'))).toEqual(d('0.07'));
  });

  test('negative raw values and values smaller than one scale unit', () => {
    const scales = instrumentScales('10000', '1');
    expect(priceFromRaw('-5', scales)).toEqual(d('-0.0005'));
    expect(priceToRaw(d('-0.0005'), scales)).toBe('-5');
  });

  test('commissions are scaled by price_scale x fractional_quantity_scale', () => {
    const scales = instrumentScales('100', '100');
    expect(commissionFromRaw('12345', scales)).toEqual(d('1.2345'));
    expect(commissionToRaw(d('1.2345'), scales)).toBe('12345');
  });

  test('scales must be 0 or a power of ten', () => {
    for (const bad of ['3', '-100', '1.5', 'abc', '1e2']) {
      expect(() => instrumentScales(bad, '1')).toThrowError(expect.objectContaining({ code: 'SCALE_INVALID' }));
    }
    expect(() => instrumentScales('100', '250')).toThrowError(/fractionalQtyScale: expected 0 or a power of ten/);
  });
});

describe('decimal -> raw refuses what the scale cannot represent', () => {
  test('0.555 at price scale 100 is SCALE_NOT_REPRESENTABLE, naming the field', () => {
    const scales = instrumentScales('100', '1');
    expect(() => priceToRaw(d('0.555'), scales, 'order.price')).toThrowError(
      expect.objectContaining({ code: 'SCALE_NOT_REPRESENTABLE', details: expect.objectContaining({ path: 'order.price' }) }),
    );
    expect(() => qtyToRaw(d('1.5'), scales, 'order_qty')).toThrowError(/order_qty: 1\.5 is not representable at quantity scale 1/);
  });

  test('values beyond int64 are SCALE_OUT_OF_RANGE', () => {
    expect(() => priceToRaw(d('1e30'), instrumentScales('100', '1'))).toThrowError(expect.objectContaining({ code: 'SCALE_OUT_OF_RANGE' }));
  });

  test('roundToScale rounds half-even when the caller asks for it', () => {
    expect(roundToScale(d('0.555'), instrumentScales('100', '1'), 'price')).toEqual(d('0.56'));
    expect(roundToScale(d('0.545'), instrumentScales('100', '1'), 'price')).toEqual(d('0.54'));
  });
});

describe('raw integers for the simulator', () => {
  test('parseRawInt accepts canonical integer strings and safe integer numbers', () => {
    expect(parseRawInt('5500')).toBe(5500);
    expect(parseRawInt('-12')).toBe(-12);
    expect(parseRawInt(42)).toBe(42);
    expect(parseRawInt(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  test.each(['+1', '1e3', '1.0', '01', '-0', '', ' 1', '0x1', '9007199254740992', 'abc'])('parseRawInt refuses %j', (bad) => {
    expect(() => parseRawInt(bad, 'order.price')).toThrowError(
      expect.objectContaining({ code: 'WIRE_INVALID_FIELD', details: expect.objectContaining({ path: 'order.price' }) }),
    );
  });

  test('parseRawInt refuses non-integer and unsafe numbers', () => {
    for (const bad of [1.5, 2 ** 53, Number.NaN]) expect(() => parseRawInt(bad)).toThrowError(/safe integer/);
  });

  test('formatRawInt refuses unsafe or fractional numbers', () => {
    expect(formatRawInt(-7)).toBe('-7');
    expect(() => formatRawInt(0.5)).toThrowError(expect.objectContaining({ code: 'SCALE_OUT_OF_RANGE' }));
    expect(() => formatRawInt(2 ** 53)).toThrowError(expect.objectContaining({ code: 'SCALE_OUT_OF_RANGE' }));
  });

  test('decimalToRawInt / rawIntToDecimal convert prices for the matching engine', () => {
    const scales = instrumentScales('100', '1');
    expect(decimalToRawInt(d('0.55'), scales, 'price')).toBe(55);
    expect(rawIntToDecimal(55, scales, 'price')).toEqual(d('0.55'));
    expect(() => decimalToRawInt(d('1e17'), scales, 'price')).toThrowError(expect.objectContaining({ code: 'SCALE_OUT_OF_RANGE' }));
  });

  test('isInt64String checks the int64 range exactly', () => {
    expect(isInt64String('9223372036854775807')).toBe(true);
    expect(isInt64String('9223372036854775808')).toBe(false);
    expect(isInt64String('-9223372036854775808')).toBe(true);
    expect(isInt64String('-9223372036854775809')).toBe(false);
  });
});

const scalesArb = fc
  .tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 6 }))
  .map(([p, q]) => instrumentScales(p === 0 ? '0' : `1${'0'.repeat(p)}`, q === 0 ? '0' : `1${'0'.repeat(q)}`));

describe('properties', () => {
  test('toWire(fromWire(raw)) === raw for any safe integer and scale', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), scalesArb, fc.constantFrom('price', 'qty', 'commission' as const), (n, scales, kind) => {
        const raw = String(n);
        const from = kind === 'price' ? priceFromRaw : kind === 'qty' ? qtyFromRaw : commissionFromRaw;
        const to = kind === 'price' ? priceToRaw : kind === 'qty' ? qtyToRaw : commissionToRaw;
        return to(from(raw, scales), scales) === raw;
      }),
    );
  });

  test('fromWire(toWire(x)) equals x for any x on the scale', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), scalesArb, (n, scales) => {
        const value = d(n.toString()).div(scales.priceScale);
        return priceFromRaw(priceToRaw(value, scales), scales).eq(value);
      }),
    );
  });

  test('a value with one more decimal place than the scale is always refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: -1e6, max: 1e6 }), scalesArb, (digit, n, scales) => {
        const value = d(String(n)).plus(d(String(digit)).div(10 ** (scales.priceDigits + 1)));
        expect(() => priceToRaw(value, scales)).toThrowError(expect.objectContaining({ code: 'SCALE_NOT_REPRESENTABLE' }));
      }),
    );
  });

  test('decimalToRawInt (its exact fast path for short values) agrees with the Decimal path: same integer or same refusal', () => {
    // the Decimal path: decimalToRaw's canonical string, then a safe integer (or SCALE_OUT_OF_RANGE)
    const slow = (
      value: ReturnType<typeof d>,
      scales: ReturnType<typeof instrumentScales>,
      kind: 'price' | 'qty' | 'commission',
    ): number | string => {
      try {
        const raw =
          kind === 'price' ? priceToRaw(value, scales) : kind === 'qty' ? qtyToRaw(value, scales) : commissionToRaw(value, scales);
        const int = Number(raw);
        return Number.isSafeInteger(int) ? int : 'SCALE_OUT_OF_RANGE';
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    const fast = (
      value: ReturnType<typeof d>,
      scales: ReturnType<typeof instrumentScales>,
      kind: 'price' | 'qty' | 'commission',
    ): number | string => {
      try {
        return decimalToRawInt(value, scales, kind);
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    const digitsArb = fc.oneof(fc.stringMatching(/^[0-9]{1,8}$/), fc.stringMatching(/^[0-9]{1,24}$/));
    const valueArb = fc
      .tuple(fc.boolean(), digitsArb, fc.option(digitsArb, { nil: undefined }))
      .map(([negative, int, frac]) => d(`${negative ? '-' : ''}${int.replace(/^0+(?=.)/, '')}${frac === undefined ? '' : `.${frac}`}`));
    fc.assert(
      fc.property(valueArb, scalesArb, fc.constantFrom('price', 'qty', 'commission' as const), (value, scales, kind) => {
        expect(fast(value, scales, kind)).toBe(slow(value, scales, kind));
      }),
      { numRuns: 3000 },
    );
    for (const [text, digits] of [
      ['0', 2],
      ['-0', 2],
      ['0.45', 2],
      ['12.5', 1],
      ['1234567.891', 3],
      ['99999999', 0],
      ['0.00001', 5],
      ['90071992547.40991', 5],
      ['90071992547.40992', 5],
    ] as const) {
      const scales = instrumentScales(digits === 0 ? '0' : `1${'0'.repeat(digits)}`, '0');
      expect(fast(d(text), scales, 'price')).toBe(slow(d(text), scales, 'price'));
    }
  });
});
