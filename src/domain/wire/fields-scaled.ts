/**
 * Field codecs for numbers that need care: scaled integers <-> Decimal (using the instrument scales of
 * the enclosing scope), plain decimal strings, optional overrides, the price -> quantity fill map and an
 * instrument's own scale fields.
 */
import { type Decimal, ZERO, tryParseDecimal } from '../decimal.ts';
import { invalidField, invalidValue } from '../errors.ts';
import {
  type InstrumentScales,
  type ScaledKind,
  roundToScale,
  scaleDigits,
  scaleFailure,
  tryDecimalFromRaw,
  tryDecimalToRaw,
  tryScale,
} from '../scales.ts';
import type { PriceQty } from '../types/common.ts';
import { type FieldCodec, type Path, type Scope, absent, isPlainObject, noScales, pathString } from './codec.ts';

function scopeScales(scope: Scope, parent: Path, key: string | number): InstrumentScales {
  if (typeof scope === 'string') throw noScales(pathString(parent, key), scope);
  return scope;
}

/**
 * A scaled integer string <-> Decimal. `roundOnEncode` (averages only) rounds half-even to the scale
 * instead of refusing an unrepresentable value.
 */
export function scaled(kind: ScaledKind, roundOnEncode = false): FieldCodec<Decimal> {
  return {
    decode(raw, parent, key, _ctx, scope) {
      if (absent(raw) || raw === '0' || raw === 0) return ZERO;
      const scales = scopeScales(scope, parent, key);
      const value = tryDecimalFromRaw(raw, scaleDigits(scales, kind));
      if (value === undefined) throw invalidField(pathString(parent, key), 'an integer string', raw);
      return value;
    },
    encode(value, parent, key, _ctx, scope) {
      if (value.isZero()) return '0';
      const scales = scopeScales(scope, parent, key);
      const v = roundOnEncode ? roundToScale(value, scales, kind) : value;
      const raw = tryDecimalToRaw(v, scaleDigits(scales, kind));
      if (typeof raw !== 'string') throw scaleFailure(raw.failure, value, pathString(parent, key), scales, kind);
      return raw;
    },
    isDefault: (value) => value.isZero(),
    usesScope: true,
  };
}

export const price = (): FieldCodec<Decimal> => scaled('price');
export const avgPrice = (): FieldCodec<Decimal> => scaled('price', true);
export const qty = (): FieldCodec<Decimal> => scaled('qty');
/** Commissions and notionals: scaled by price_scale × fractional_quantity_scale. */
export const commission = (): FieldCodec<Decimal> => scaled('commission');

function parsePlainDecimal(raw: unknown, acceptNumber: boolean): Decimal | undefined {
  if (typeof raw === 'string') return tryParseDecimal(raw);
  if (acceptNumber && typeof raw === 'number' && Number.isFinite(raw)) return tryParseDecimal(String(raw));
  return undefined;
}

/** A plain (unscaled) decimal string; absent or "" is 0. `acceptNumber` also takes a JSON number. */
export function dec(acceptNumber = false): FieldCodec<Decimal> {
  return {
    decode(raw, parent, key) {
      if (absent(raw) || raw === '') return ZERO;
      const value = parsePlainDecimal(raw, acceptNumber);
      if (value === undefined) throw invalidField(pathString(parent, key), 'a decimal string such as "0.01"', raw);
      return value;
    },
    encode: (value) => (value.isZero() ? '0' : value.toFixed()),
    isDefault: (value) => value.isZero(),
    usesScope: false,
  };
}

/** Like `dec` or a scaled codec but absent / "" is undefined (an optional override). */
export function optional(inner: FieldCodec<Decimal>): FieldCodec<Decimal | undefined> {
  return {
    decode: (raw, parent, key, ctx, scope) => (absent(raw) || raw === '' ? undefined : inner.decode(raw, parent, key, ctx, scope)),
    encode: (value, parent, key, ctx, scope) => (value === undefined ? undefined : inner.encode(value, parent, key, ctx, scope)),
    isDefault: (value) => value === undefined,
    usesScope: inner.usesScope,
  };
}

/** A map raw price -> raw quantity (`price_to_quantity_filled`) as PriceQty sorted by price ascending. */
export function priceQtyMap(): FieldCodec<readonly PriceQty[]> {
  return {
    decode(raw, parent, key, _ctx, scope) {
      if (absent(raw)) return [];
      if (!isPlainObject(raw)) throw invalidField(pathString(parent, key), 'an object mapping prices to quantities', raw);
      const entries = Object.entries(raw);
      if (entries.length === 0) return [];
      const scales = scopeScales(scope, parent, key);
      const here = { parent, seg: key };
      const out = entries.map(([p, q]): PriceQty => {
        const px = tryDecimalFromRaw(p, scales.priceDigits);
        if (px === undefined) throw invalidField(pathString(here, p), 'an integer string price as the key', p);
        const amount = absent(q) ? ZERO : tryDecimalFromRaw(q, scales.qtyDigits);
        if (amount === undefined) throw invalidField(pathString(here, p), 'an integer string quantity', q);
        return { px, qty: amount };
      });
      return out.sort((a, b) => a.px.comparedTo(b.px));
    },
    encode(value, parent, key, _ctx, scope) {
      const scales = scopeScales(scope, parent, key);
      const here = { parent, seg: key };
      const out: Record<string, string> = {};
      for (const { px, qty: amount } of value) {
        const p = tryDecimalToRaw(px, scales.priceDigits);
        if (typeof p !== 'string') throw scaleFailure(p.failure, px, pathString(here, px.toFixed()), scales, 'price');
        const q = tryDecimalToRaw(amount, scales.qtyDigits);
        if (typeof q !== 'string') throw scaleFailure(q.failure, amount, pathString(here, p), scales, 'qty');
        out[p] = q;
      }
      return out;
    },
    isDefault: (value) => value.length === 0,
    usesScope: true,
  };
}

/** An instrument's own scale field: absent or 0 means 1; must be a power of ten. Domain holds the effective scale. */
export function scaleField(): FieldCodec<number> {
  return {
    decode(raw, parent, key) {
      const value = tryScale(raw);
      if (value === undefined) throw invalidField(pathString(parent, key), 'a scale: 0 or a power of ten', raw);
      return value;
    },
    encode(value, parent, key) {
      if (tryScale(value) === undefined) throw invalidValue(pathString(parent, key), 'a power of ten', value);
      return String(value);
    },
    isDefault: () => false,
    usesScope: false,
  };
}
