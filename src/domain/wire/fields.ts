/**
 * Field codecs for plain values: how one wire value becomes one domain value and back, with the proto3
 * JSON rules. Scaled prices/quantities and decimals live in fields-scaled.ts, times in fields-time.ts;
 * this module re-exports them so tables import every field kind from one place.
 *
 * Absent (or null) values decode to the proto3 default: '' for strings, false for bools, 0 for numbers
 * and scaled values, the first (zero) entry for enums, [] for lists, undefined for timestamps, dates and
 * other messages. int64 accepts a canonical integer string or a safe-integer JSON number; enums accept
 * their name or their proto number (array index). Anything else is a WIRE_INVALID_FIELD error naming the
 * field path. Encoders write int64 and scaled values as strings, enums as names, times as UTC ISO strings.
 */
import { invalidField, invalidValue } from '../errors.ts';
import { tryParseRawInt } from '../scales.ts';
import type { JsonObject } from '../types/common.ts';
import { type FieldCodec, type Path, absent, isPlainObject, pathString } from './codec.ts';

export * from './fields-scaled.ts';
export * from './fields-time.ts';

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
      const aliases = naming === 'camel' ? options.camelAliases : undefined;
      // Own keys only: a wire string such as "constructor" must not reach Object.prototype.
      const alias = aliases !== undefined && Object.hasOwn(aliases, raw) ? aliases[raw] : undefined;
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
