/**
 * Field codecs: how one wire value becomes one domain value and back, with the proto3 JSON rules.
 *
 * Absent (or null) values decode to the proto3 default: '' for strings, false for bools, 0 for numbers
 * and scaled values, the first (zero) entry for enums, [] for lists, undefined for timestamps, dates and
 * other messages. int64 accepts a canonical integer string or a safe-integer JSON number; enums accept
 * their name or their proto number (array index). Anything else is a WIRE_INVALID_FIELD error naming the
 * field path. Encoders write int64 and scaled values as strings, enums as names, times as UTC ISO strings.
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
  tryParseRawInt,
  tryScale,
} from '../scales.ts';
import { type EpochMs, type ProtoDate, formatTimestamp, isValidProtoDate, tryParseTimestamp } from '../time.ts';
import type { JsonObject, PriceQty } from '../types/common.ts';
import { type FieldCodec, type Path, type Scope, isPlainObject, noScales, pathString } from './codec.ts';

const absent = (raw: unknown): raw is undefined | null => raw === undefined || raw === null;

export function str(): FieldCodec<string> {
  return {
    decode(raw, parent, key) {
      if (typeof raw === 'string') return raw;
      if (absent(raw)) return '';
      throw invalidField(pathString(parent, key), 'a string', raw);
    },
    encode: (value) => value,
    isDefault: (value) => value === '',
    usesScope: false,
  };
}

export function bool(): FieldCodec<boolean> {
  return {
    decode(raw, parent, key) {
      if (typeof raw === 'boolean') return raw;
      if (absent(raw)) return false;
      throw invalidField(pathString(parent, key), 'a boolean', raw);
    },
    encode: (value) => value,
    isDefault: (value) => value === false,
    usesScope: false,
  };
}

/** int64 as a safe-integer number: string or number in, string out. */
export function int64(): FieldCodec<number> {
  return {
    decode(raw, parent, key) {
      if (absent(raw)) return 0;
      const value = tryParseRawInt(raw);
      if (value === undefined) throw invalidField(pathString(parent, key), 'an integer string (safe integer)', raw);
      return value;
    },
    encode(value, parent, key) {
      if (!Number.isSafeInteger(value)) throw invalidValue(pathString(parent, key), 'a safe integer', value);
      return String(value + 0);
    },
    isDefault: (value) => value === 0,
    usesScope: false,
  };
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** int32: number (or integer string) in, number out. */
export function int32(): FieldCodec<number> {
  return {
    decode(raw, parent, key) {
      if (absent(raw)) return 0;
      const value = tryParseRawInt(raw);
      if (value === undefined || value < INT32_MIN || value > INT32_MAX) {
        throw invalidField(pathString(parent, key), 'a 32-bit integer', raw);
      }
      return value;
    },
    encode(value, parent, key) {
      if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
        throw invalidValue(pathString(parent, key), 'a 32-bit integer', value);
      }
      return value + 0;
    },
    isDefault: (value) => value === 0,
    usesScope: false,
  };
}

export interface EnumOptions<T extends string> {
  /** Accept the proto number (array index) on input; true for proto enums. */
  readonly numeric?: boolean;
  /** Extra accepted spellings in family A (camel naming), e.g. `BUY` for `SIDE_BUY`. */
  readonly camelAliases?: Readonly<Record<string, T>>;
}

function enumDecoder<T extends string>(values: readonly T[], label: string, options: EnumOptions<T>) {
  const known = new Set<string>(values);
  const expected = `a ${label} (${values.map((v) => (v === '' ? '""' : v)).join(', ')})`;
  return (raw: unknown, parent: Path, key: string | number, naming: string): T => {
    if (typeof raw === 'string') {
      if (known.has(raw)) return raw as T;
      const alias = naming === 'camel' ? options.camelAliases?.[raw] : undefined;
      if (alias !== undefined) return alias;
    } else if (options.numeric !== false && typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw < values.length) {
      return values[raw] as T;
    }
    throw invalidField(pathString(parent, key), expected, raw);
  };
}

/** A proto enum; absent is the zero value (first entry). */
export function enumOf<T extends string>(values: readonly T[], label: string, options: EnumOptions<T> = {}): FieldCodec<T> {
  const zero = values[0] as T;
  const decode = enumDecoder(values, label, options);
  return {
    decode: (raw, parent, key, ctx) => (absent(raw) ? zero : decode(raw, parent, key, ctx.naming)),
    encode: (value, parent, key) => {
      if (!values.includes(value)) throw invalidValue(pathString(parent, key), label, value);
      return value;
    },
    isDefault: (value) => value === zero,
    usesScope: false,
  };
}

/** An enum field with presence (the spec's `state?`): absent is undefined, not the zero value. */
export function optEnum<T extends string>(values: readonly T[], label: string): FieldCodec<T | undefined> {
  const inner = enumOf(values, label);
  return {
    decode: (raw, parent, key, ctx, scope) => (absent(raw) ? undefined : inner.decode(raw, parent, key, ctx, scope)),
    encode: (value, parent, key, ctx, scope) => (value === undefined ? undefined : inner.encode(value, parent, key, ctx, scope)),
    isDefault: (value) => value === undefined,
    usesScope: false,
  };
}

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

function decodeTime(raw: unknown, parent: Path, key: string | number): EpochMs {
  const ms = typeof raw === 'string' ? tryParseTimestamp(raw) : undefined;
  if (ms === undefined) throw invalidField(pathString(parent, key), 'an ISO 8601 date-time such as "2024-05-01T12:00:00Z"', raw);
  return ms;
}

/** A date-time (proto Timestamp): absent is undefined. */
export function time(): FieldCodec<EpochMs | undefined> {
  return {
    decode: (raw, parent, key) => (absent(raw) ? undefined : decodeTime(raw, parent, key)),
    encode: (value, parent, key) => (value === undefined ? undefined : formatTimestamp(value, pathString(parent, key))),
    isDefault: (value) => value === undefined,
    usesScope: false,
  };
}

/** A date-time that must be present (list elements). */
export function timeReq(): FieldCodec<EpochMs> {
  return {
    decode: decodeTime,
    encode: (value, parent, key) => formatTimestamp(value, pathString(parent, key)),
    isDefault: () => false,
    usesScope: false,
  };
}

const DATE_PARTS = ['year', 'month', 'day'] as const;

/** A proto Date {year, month, day}: absent is undefined; parts are int32 (number or string). */
export function date(): FieldCodec<ProtoDate | undefined> {
  return {
    decode(raw, parent, key) {
      if (absent(raw)) return undefined;
      if (!isPlainObject(raw)) throw invalidField(pathString(parent, key), 'a date object {year, month, day}', raw);
      const here = { parent, seg: key };
      const parts = DATE_PARTS.map((part) => {
        const v = raw[part];
        const n = absent(v) ? 0 : tryParseRawInt(v);
        if (n === undefined) throw invalidField(pathString(here, part), 'an integer', v);
        return n;
      });
      const value: ProtoDate = { year: parts[0] ?? 0, month: parts[1] ?? 0, day: parts[2] ?? 0 };
      if (!isValidProtoDate(value)) throw invalidField(pathString(parent, key), 'a valid calendar date', raw);
      return value;
    },
    encode(value, parent, key) {
      if (value === undefined) return undefined;
      if (!isValidProtoDate(value)) throw invalidValue(pathString(parent, key), 'a valid calendar date', value);
      return { year: value.year, month: value.month, day: value.day };
    },
    isDefault: (value) => value === undefined,
    usesScope: false,
  };
}

/** A repeated field: absent is []. Elements are decoded with their index in the path. */
export function list<T>(item: FieldCodec<T>): FieldCodec<readonly T[]> {
  return {
    decode(raw, parent, key, ctx, scope) {
      if (absent(raw)) return [];
      if (!Array.isArray(raw)) throw invalidField(pathString(parent, key), 'an array', raw);
      const here = { parent, seg: key };
      const out = new Array<T>(raw.length);
      for (let i = 0; i < raw.length; i++) out[i] = item.decode(raw[i], here, i, ctx, scope);
      return out;
    },
    encode(value, parent, key, ctx, scope) {
      const here = { parent, seg: key };
      return value.map((v, i) => item.encode(v, here, i, ctx, scope));
    },
    isDefault: (value) => value.length === 0,
    usesScope: item.usesScope,
  };
}

/** An opaque JSON object (metadata, proto Any): absent is {}. */
export function json(): FieldCodec<JsonObject> {
  return {
    decode(raw, parent, key) {
      if (absent(raw)) return {};
      if (!isPlainObject(raw)) throw invalidField(pathString(parent, key), 'an object', raw);
      return raw;
    },
    encode: (value) => value,
    isDefault: (value) => Object.keys(value).length === 0,
    usesScope: false,
  };
}

export function optJson(): FieldCodec<JsonObject | undefined> {
  const inner = json();
  return {
    decode: (raw, parent, key, ctx, scope) => (absent(raw) ? undefined : inner.decode(raw, parent, key, ctx, scope)),
    encode: (value) => value,
    isDefault: (value) => value === undefined,
    usesScope: false,
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

/** Error `details`: a string (gateway HTTP body per the spec) or an array of `@type`d objects. */
export function errorDetails(): FieldCodec<string | readonly JsonObject[]> {
  const asList = list(json());
  return {
    decode(raw, parent, key, ctx, scope) {
      if (absent(raw)) return '';
      if (typeof raw === 'string') return raw;
      if (Array.isArray(raw)) return asList.decode(raw, parent, key, ctx, scope);
      throw invalidField(pathString(parent, key), 'a string or an array of objects', raw);
    },
    encode: (value) => value,
    isDefault: (value) => value.length === 0,
    usesScope: false,
  };
}
