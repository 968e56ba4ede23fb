/**
 * Errors raised by the domain layer: stable codes and the constructors that build them.
 *
 * Every error is a `TradebotError` of kind `validation`. Wire errors name the field path inside the
 * payload (`executions[0].order.price`) and what was expected, so a bad payload from the exchange (or a
 * bad request reaching the simulator) is reported where it enters, never as `undefined` deep inside.
 */
import { TradebotError } from '../errors.ts';

export const DomainErrorCode = {
  /** A wire payload field has the wrong type or an invalid value. details: path, expected, got. */
  WIRE_INVALID_FIELD: 'WIRE_INVALID_FIELD',
  /** A domain value handed to an encoder is not encodable (e.g. a fractional int64). details: path. */
  DOMAIN_INVALID_VALUE: 'DOMAIN_INVALID_VALUE',
  /** A stream line or body is not JSON at all. */
  WIRE_INVALID_JSON: 'WIRE_INVALID_JSON',
  /** A decimal cannot be written exactly at the instrument's scale (e.g. 0.555 at price scale 100). */
  SCALE_NOT_REPRESENTABLE: 'SCALE_NOT_REPRESENTABLE',
  /** A scaled integer does not fit the target range (int64 on the wire, safe integer in memory). */
  SCALE_OUT_OF_RANGE: 'SCALE_OUT_OF_RANGE',
  /** A price or quantity scale that is not a power of ten (1, 10, 100, ...). */
  SCALE_INVALID: 'SCALE_INVALID',
  /** No instrument scales are known for a symbol (load reference data first). */
  SCALE_UNKNOWN_SYMBOL: 'SCALE_UNKNOWN_SYMBOL',
  /** A string or number that is not a strict decimal (see decimal.ts). */
  DECIMAL_INVALID: 'DECIMAL_INVALID',
  /** A tick size that is zero or negative. */
  TICK_INVALID: 'TICK_INVALID',
  /** A date-time or date that is not valid ISO 8601 UTC / a valid calendar date. */
  TIME_INVALID: 'TIME_INVALID',
} as const;

export type DomainErrorCode = (typeof DomainErrorCode)[keyof typeof DomainErrorCode];

/** A short rendering of a received value for error messages (never the whole payload). */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function domainError(code: DomainErrorCode, message: string, details: Record<string, unknown>): TradebotError {
  return new TradebotError(code, message, { kind: 'validation', details });
}

/** `executions[0].order.price: expected an integer string, got "abc"` */
export function invalidField(path: string, expected: string, got: unknown): TradebotError {
  return domainError(DomainErrorCode.WIRE_INVALID_FIELD, `${path}: expected ${expected}, got ${describeValue(got)}`, {
    path,
    expected,
    got: describeValue(got),
  });
}

/** An encoder was given a domain value it cannot write (a programming error on the caller's side). */
export function invalidValue(path: string, expected: string, got: unknown): TradebotError {
  return domainError(DomainErrorCode.DOMAIN_INVALID_VALUE, `${path}: cannot encode ${describeValue(got)}, expected ${expected}`, {
    path,
    expected,
    got: describeValue(got),
  });
}
