/**
 * Field codecs for time: proto Timestamp (ISO 8601 string <-> EpochMs) and proto Date {year, month, day}.
 */
import { invalidField, invalidValue } from '../errors.ts';
import { tryParseRawInt } from '../scales.ts';
import { type EpochMs, type ProtoDate, formatTimestamp, isValidProtoDate, tryParseTimestamp } from '../time.ts';
import { type FieldCodec, type Path, absent, isPlainObject, pathString } from './codec.ts';

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
