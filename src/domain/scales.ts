/**
 * Scaled-integer conversions: the only place where wire integers become decimals and back.
 *
 * On the wire a price is an integer string `raw` with `price = raw / price_scale`, and a quantity is
 * `qty = raw / fractional_quantity_scale`. Commissions and notionals are scaled by
 * price_scale × fractional_quantity_scale. A scale of 0 (or an absent scale) means 1.
 *
 * Decisions (see the report / docs/decisions.md):
 * - scales must be powers of ten (1, 10, ..., 1e15), so every raw value has an exact decimal value;
 * - raw integers are canonical int64: `-?[1-9][0-9]*` or `0`, no '+', no leading zeros, no exponent,
 *   no fraction; a JSON number is accepted only when it is a safe integer;
 * - decimal -> raw refuses (SCALE_NOT_REPRESENTABLE) a value with more decimal places than the scale
 *   allows, instead of rounding; callers round to the tick first (decimal.ts roundToTick) or call
 *   `roundToScale` explicitly.
 * The `*RawInt` helpers work on safe-integer numbers for the simulator's matching engine.
 */
import { Decimal, ZERO } from './decimal.ts';
import { fromRawIntShortcut, rawIntShortcut } from './decimal-words/index.ts';
import { DomainErrorCode, describeValue, domainError, invalidField } from './errors.ts';
import { RenewingMap } from '../util/renewing-collections.ts';
import type { TradebotError } from '../errors.ts';

/** Effective scales of one instrument (never 0: a wire scale of 0 is stored as 1). */
export interface InstrumentScales {
  readonly priceScale: number;
  readonly qtyScale: number;
  /** log10(priceScale): decimal places of a price. */
  readonly priceDigits: number;
  /** log10(qtyScale): decimal places of a quantity. */
  readonly qtyDigits: number;
}

/** price: / price_scale; qty: / fractional_quantity_scale; commission (also notional): / both. */
export type ScaledKind = 'price' | 'qty' | 'commission';

const MAX_SCALE_DIGITS = 15;
const INT_RE = /^(?:0|-?[1-9][0-9]*)$/;
const INT64_MAX = '9223372036854775807';
const INT64_MIN_ABS = '9223372036854775808';

/** True when `text` is a canonical int64 decimal string. */
export function isInt64String(text: string): boolean {
  if (!INT_RE.test(text)) return false;
  const negative = text.charCodeAt(0) === 45;
  const digits = negative ? text.length - 1 : text.length;
  if (digits < 19) return true;
  if (digits > 19) return false;
  const abs = negative ? text.slice(1) : text;
  return abs <= (negative ? INT64_MIN_ABS : INT64_MAX);
}

/** A raw wire integer (string or JSON number) as a safe integer, or undefined. */
export function tryParseRawInt(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw + 0 : undefined;
  if (typeof raw !== 'string' || raw.length > 17 || !INT_RE.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Strict raw integer -> safe integer; throws WIRE_INVALID_FIELD naming `path`. */
export function parseRawInt(raw: string | number, path = 'value'): number {
  const value = tryParseRawInt(raw);
  if (value === undefined) throw invalidField(path, 'an integer string within the safe integer range', raw);
  return value;
}

/** Safe integer -> wire string; throws SCALE_OUT_OF_RANGE for non-integers or unsafe values. */
export function formatRawInt(value: number, path = 'value'): string {
  if (!Number.isSafeInteger(value)) {
    throw domainError(DomainErrorCode.SCALE_OUT_OF_RANGE, `${path}: expected a safe integer, got ${describeValue(value)}`, {
      path,
      got: describeValue(value),
    });
  }
  return String(value + 0);
}

function digitsOfScale(scale: number): number | undefined {
  let digits = 0;
  let rest = scale;
  while (rest > 1 && rest % 10 === 0) {
    rest /= 10;
    digits++;
  }
  return rest === 1 && digits <= MAX_SCALE_DIGITS ? digits : undefined;
}

/** Effective scale for a wire scale value, or undefined when it is not 0 or a power of ten. */
export function tryScale(raw: unknown): number | undefined {
  const value = raw === undefined || raw === null ? 0 : tryParseRawInt(raw);
  if (value === undefined || value < 0) return undefined;
  if (value === 0) return 1;
  return digitsOfScale(value) === undefined ? undefined : value;
}

/** Builds the scales of an instrument from its wire `price_scale` and `fractional_quantity_scale`. */
export function instrumentScales(priceScale: number | string, fractionalQtyScale: number | string): InstrumentScales {
  const price = tryScale(priceScale);
  const qty = tryScale(fractionalQtyScale);
  if (price === undefined || qty === undefined) {
    const [name, bad] = price === undefined ? ['priceScale', priceScale] : ['fractionalQtyScale', fractionalQtyScale];
    throw domainError(
      DomainErrorCode.SCALE_INVALID,
      `${name}: expected 0 or a power of ten up to 1e${MAX_SCALE_DIGITS}, got ${describeValue(bad)}`,
      { name, got: describeValue(bad) },
    );
  }
  return Object.freeze({
    priceScale: price,
    qtyScale: qty,
    priceDigits: digitsOfScale(price) ?? 0,
    qtyDigits: digitsOfScale(qty) ?? 0,
  });
}

/** The scales of an instrument (reference data). */
export function scalesOf(instrument: { readonly priceScale: number; readonly fractionalQtyScale: number }): InstrumentScales {
  return instrumentScales(instrument.priceScale, instrument.fractionalQtyScale);
}

/** symbol -> scales for a set of instruments, the usual `scales` argument of the decoders. */
export function scalesBySymbol(
  instruments: Iterable<{ readonly symbol: string; readonly priceScale: number; readonly fractionalQtyScale: number }>,
): Map<string, InstrumentScales> {
  const map = new Map<string, InstrumentScales>();
  for (const instrument of instruments) map.set(instrument.symbol, scalesOf(instrument));
  return map;
}

export function scalesEqual(a: InstrumentScales, b: InstrumentScales): boolean {
  return a.priceScale === b.priceScale && a.qtyScale === b.qtyScale;
}

/** Decimal places for a kind of scaled value. */
export function scaleDigits(scales: InstrumentScales, kind: ScaledKind): number {
  return kind === 'price' ? scales.priceDigits : kind === 'qty' ? scales.qtyDigits : scales.priceDigits + scales.qtyDigits;
}

function shiftPoint(raw: string, digits: number): string {
  if (digits === 0) return raw;
  const negative = raw.charCodeAt(0) === 45;
  let abs = negative ? raw.slice(1) : raw;
  if (abs.length <= digits) abs = '0'.repeat(digits - abs.length + 1) + abs;
  const cut = abs.length - digits;
  return `${negative ? '-' : ''}${abs.slice(0, cut)}.${abs.slice(cut)}`;
}

/**
 * Decimals of short raw values are cached per number of digits (decimal.js instances are immutable, so
 * sharing is safe): event-contract prices take few distinct values and parsing dominates decode time.
 */
const CACHE_LIMIT = 4096;
const CACHEABLE_LENGTH = 8;
/** By number of digits; a cache only ever holds canonical int64 strings (checked before they go in). */
const cacheByDigits: (RenewingMap<string, Decimal> | undefined)[] = [];

/** Raw int64 (canonical string or safe-integer number) at `digits` decimal places; undefined if invalid. */
export function tryDecimalFromRaw(raw: unknown, digits: number): Decimal | undefined {
  let text: string;
  if (typeof raw === 'string') {
    // A cached text was checked when it went in: a hit needs no second check.
    const hit = raw.length <= CACHEABLE_LENGTH ? cacheByDigits[digits]?.get(raw) : undefined;
    if (hit !== undefined) return hit;
    if (!isInt64String(raw)) return undefined;
    text = raw;
  } else if (typeof raw === 'number' && Number.isSafeInteger(raw)) {
    text = String(raw + 0);
  } else {
    return undefined;
  }
  if (text === '0') return ZERO;
  if (text.length > CACHEABLE_LENGTH) return new Decimal(shiftPoint(text, digits));
  let cache = cacheByDigits[digits];
  if (cache === undefined) {
    cache = new RenewingMap();
    cacheByDigits[digits] = cache;
  }
  let value = cache.get(text);
  if (value === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    value = new Decimal(shiftPoint(text, digits));
    cache.set(text, value);
  }
  return value;
}

const SMALL_RAW = 1 << 14;
const smallByDigits: (Decimal[] | undefined)[] = [];
const largeByDigits: (RenewingMap<number, Decimal> | undefined)[] = [];

/** raw × 10^-digits built afresh: on decimal.js's words when the shortcut is installed, else through its text. */
function builtFromRawInt(raw: number, digits: number): Decimal {
  if (raw === 0) return ZERO;
  return fromRawIntShortcut(raw, digits) ?? (tryDecimalFromRaw(String(raw), digits) as Decimal);
}

/** Larger raw integers (statistics: volume, notional), whose values repeat from one update to the next. */
function largeDecimal(raw: number, digits: number): Decimal {
  let large = largeByDigits[digits];
  if (large === undefined) {
    large = new RenewingMap();
    largeByDigits[digits] = large;
  }
  let value = large.get(raw);
  if (value === undefined) {
    if (large.size >= CACHE_LIMIT) large.clear();
    value = builtFromRawInt(raw, digits);
    large.set(raw, value);
  }
  return value;
}

/**
 * `tryDecimalFromRaw(String(raw), digits)` for a raw integer already read as a number (a non-negative safe
 * integer): the same Decimal, from an array cache when it is small (book levels' prices and sizes), from a
 * bounded map otherwise.
 */
export function decimalFromRawInt(raw: number, digits: number): Decimal {
  if (raw >= SMALL_RAW) return largeDecimal(raw, digits);
  let small = smallByDigits[digits];
  if (small === undefined) {
    small = [];
    smallByDigits[digits] = small;
  }
  return (small[raw] ??= builtFromRawInt(raw, digits));
}

/** Why a decimal could not become a raw integer. */
export type RawFailure = 'inexact' | 'range';

const POW10: Decimal[] = Array.from({ length: 2 * MAX_SCALE_DIGITS + 1 }, (_, i) => new Decimal(10).pow(i));

/**
 * Decimal -> canonical int64 string at `digits` places, or the reason it cannot be written exactly.
 * (A failure is returned, not thrown, so hot-path callers build the error message only when needed.)
 */
export function tryDecimalToRaw(value: Decimal, digits: number): string | { readonly failure: RawFailure } {
  if (!value.isFinite()) return { failure: 'range' };
  if (value.decimalPlaces() > digits) return { failure: 'inexact' };
  if (value.isZero()) return '0';
  const text = value.times(POW10[digits] ?? new Decimal(10).pow(digits)).toFixed(0);
  return isInt64String(text) ? text : { failure: 'range' };
}

/** The error for a failed decimal -> raw conversion, naming the field and the scale. */
export function scaleFailure(failure: RawFailure, value: Decimal, path: string, scales: InstrumentScales, kind: ScaledKind): TradebotError {
  const digits = scaleDigits(scales, kind);
  const scaleText =
    kind === 'price'
      ? `price scale ${scales.priceScale}`
      : kind === 'qty'
        ? `quantity scale ${scales.qtyScale}`
        : `commission scale ${scales.priceScale}x${scales.qtyScale}`;
  if (failure === 'inexact') {
    return domainError(
      DomainErrorCode.SCALE_NOT_REPRESENTABLE,
      `${path}: ${value.toFixed()} is not representable at ${scaleText} (${digits} decimal places); round it to the tick first`,
      { path, value: value.toFixed(), kind, digits },
    );
  }
  return domainError(DomainErrorCode.SCALE_OUT_OF_RANGE, `${path}: ${value.toString()} at ${scaleText} does not fit a 64-bit integer`, {
    path,
    value: value.toString(),
    kind,
    digits,
  });
}

/** Raw wire integer -> decimal; throws WIRE_INVALID_FIELD naming `path`. */
export function decimalFromRaw(raw: string | number, scales: InstrumentScales, kind: ScaledKind, path = 'value'): Decimal {
  const value = tryDecimalFromRaw(raw, scaleDigits(scales, kind));
  if (value === undefined) throw invalidField(path, 'an integer string', raw);
  return value;
}

/** Decimal -> raw wire integer string; throws SCALE_NOT_REPRESENTABLE / SCALE_OUT_OF_RANGE. */
export function decimalToRaw(value: Decimal, scales: InstrumentScales, kind: ScaledKind, path = 'value'): string {
  const raw = tryDecimalToRaw(value, scaleDigits(scales, kind));
  if (typeof raw !== 'string') throw scaleFailure(raw.failure, value, path, scales, kind);
  return raw;
}

/** Decimal -> safe-integer raw (for the matching engine); throws like decimalToRaw. */
export function decimalToRawInt(value: Decimal, scales: InstrumentScales, kind: ScaledKind, path = 'value'): number {
  const fast = rawIntShortcut(value, scaleDigits(scales, kind));
  if (fast !== undefined) return fast;
  const raw = decimalToRaw(value, scales, kind, path);
  const int = tryParseRawInt(raw);
  if (int === undefined) throw scaleFailure('range', value, path, scales, kind);
  return int;
}

/** Safe-integer raw -> decimal (for the matching engine's outputs). */
export function rawIntToDecimal(raw: number, scales: InstrumentScales, kind: ScaledKind, path = 'value'): Decimal {
  return decimalFromRaw(raw, scales, kind, path);
}

/** Rounds half-even to what the scale can represent (for averages such as avg_px, never for limit prices). */
export function roundToScale(value: Decimal, scales: InstrumentScales, kind: ScaledKind): Decimal {
  return value.toDecimalPlaces(scaleDigits(scales, kind), Decimal.ROUND_HALF_EVEN);
}

export const priceFromRaw = (raw: string | number, scales: InstrumentScales, path?: string): Decimal =>
  decimalFromRaw(raw, scales, 'price', path);
export const priceToRaw = (value: Decimal, scales: InstrumentScales, path?: string): string => decimalToRaw(value, scales, 'price', path);
export const qtyFromRaw = (raw: string | number, scales: InstrumentScales, path?: string): Decimal =>
  decimalFromRaw(raw, scales, 'qty', path);
export const qtyToRaw = (value: Decimal, scales: InstrumentScales, path?: string): string => decimalToRaw(value, scales, 'qty', path);
export const commissionFromRaw = (raw: string | number, scales: InstrumentScales, path?: string): Decimal =>
  decimalFromRaw(raw, scales, 'commission', path);
export const commissionToRaw = (value: Decimal, scales: InstrumentScales, path?: string): string =>
  decimalToRaw(value, scales, 'commission', path);
