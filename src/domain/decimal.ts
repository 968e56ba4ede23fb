/**
 * The project's decimal type and helpers. Import `Decimal` from here, never from 'decimal.js'.
 *
 * `Decimal` is a clone of decimal.js configured once for the whole project so everybody computes
 * the same way:
 * - precision 40 significant digits: an int64 scaled integer has at most 19 digits, so products of
 *   a price and a quantity (notional, commissions) stay exact;
 * - rounding ROUND_HALF_EVEN (banker's rounding) wherever a result must be rounded;
 * - toExpNeg/toExpPos at their extremes, so `toString()` never uses exponent notation;
 * - modulo EUCLID, so `x.mod(tick)` is never negative for a positive tick (used by roundToTick).
 *
 * Parsing is strict: a decimal string is `-?digits(.digits)?` with no leading '+', no exponent, no
 * spaces, no leading zeros ("05"), no bare "." forms. JS numbers are accepted only when they are safe
 * integers: a float such as 0.1 has already lost precision, so it is refused. NaN and Infinity are refused.
 *
 * Behind it: decimal-config.ts makes the configured clone, and decimal-words/ (the one place that knows
 * decimal.js's internals) gives it a prototype whose comparison and plus / minus / times work in place on
 * decimal.js's digit words (same results, no copy), when its load-time self-check passes.
 */
import { DomainErrorCode, describeValue, domainError } from './errors.ts';
import { Decimal } from './decimal-config.ts';
import { roundToTenthTick } from './decimal-words/index.ts';

export { Decimal } from './decimal-config.ts';

export const ZERO: Decimal = new Decimal(0);
export const ONE: Decimal = new Decimal(1);

const DECIMAL_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const MAX_DECIMAL_LENGTH = 100;

/** True for strings that `parseDecimal` accepts. */
export function isDecimalString(text: string): boolean {
  return text.length <= MAX_DECIMAL_LENGTH && DECIMAL_RE.test(text);
}

/** Strict parse of a decimal string; undefined when it is not one. "-0" becomes 0. */
export function tryParseDecimal(text: string): Decimal | undefined {
  if (!isDecimalString(text)) return undefined;
  const value = new Decimal(text);
  return value.isZero() ? ZERO : value;
}

/**
 * Parses a decimal from a strict decimal string, a bigint, or a safe-integer number.
 * Throws DECIMAL_INVALID (naming `what`) for anything else.
 */
export function parseDecimal(input: string | bigint | number, what = 'value'): Decimal {
  if (typeof input === 'string') {
    const value = tryParseDecimal(input);
    if (value !== undefined) return value;
  } else if (typeof input === 'bigint') {
    return new Decimal(input.toString());
  } else if (Number.isSafeInteger(input)) {
    return input === 0 ? ZERO : new Decimal(input);
  }
  throw domainError(
    DomainErrorCode.DECIMAL_INVALID,
    `${what}: expected a decimal string such as "0.55" (or a bigint / safe integer), got ${describeValue(input)}`,
    { what, got: describeValue(input) },
  );
}

/**
 * Plain notation, never an exponent. Without `decimalPlaces` the shortest exact form ("0.55");
 * with it, exactly that many places, rounded half-even (for display only).
 */
export function formatDecimal(value: Decimal, decimalPlaces?: number): string {
  if (decimalPlaces === undefined) return value.isZero() ? '0' : value.toFixed();
  const text = value.toFixed(decimalPlaces);
  return /^-0(?:\.0*)?$/.test(text) ? text.slice(1) : text;
}

export function compareDecimal(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const c = a.comparedTo(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

export function minDecimal(first: Decimal, ...rest: Decimal[]): Decimal {
  let best = first;
  for (const value of rest) if (value.lessThan(best)) best = value;
  return best;
}

export function maxDecimal(first: Decimal, ...rest: Decimal[]): Decimal {
  let best = first;
  for (const value of rest) if (value.greaterThan(best)) best = value;
  return best;
}

export function sumDecimals(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const value of values) total = total.plus(value);
  return total;
}

function requirePositiveTick(tick: Decimal): void {
  if (!tick.isFinite() || tick.isNegative() || tick.isZero()) {
    throw domainError(DomainErrorCode.TICK_INVALID, `tick: expected a positive decimal, got ${tick.toString()}`, { tick: tick.toString() });
  }
}

/** True when `value` is an exact multiple of `tick` (tick > 0, else TICK_INVALID). */
export function isMultipleOf(value: Decimal, tick: Decimal): boolean {
  requirePositiveTick(tick);
  return value.mod(tick).isZero();
}

/**
 * A test "value is a whole multiple of `tick`" (tick > 0), for the risk rules' per-intent checks. For a tick of
 * 10^-k (1, 0.1, 0.01, ...) it counts the value's decimal places (no division, no allocation); for any other
 * tick it is `isMultipleOf`.
 */
export function multipleOfTick(tick: Decimal): (value: Decimal) => boolean {
  const places = tick.decimalPlaces();
  const powerOfTen = tick.eq(new Decimal(10).pow(-places));
  return powerOfTen ? (value) => value.decimalPlaces() <= places : (value) => isMultipleOf(value, tick);
}

/** down = towards -infinity, up = towards +infinity, nearest = closest multiple, ties to the even multiple. */
export type TickRounding = 'down' | 'up' | 'nearest';

/**
 * Rounds to a multiple of `tick` (exact arithmetic, no float). The result is a multiple of tick and
 * differs from `value` by less than one tick (at most half a tick for 'nearest').
 */
export function roundToTick(value: Decimal, tick: Decimal, mode: TickRounding): Decimal {
  requirePositiveTick(tick);
  if (mode !== 'nearest') {
    // a tick of 1, 0.1, 0.01, ...: decimal places instead of a modulo, when the value allows (decimal-words/tick.ts)
    const directed = roundToTenthTick(value, tick, mode === 'up');
    if (directed !== undefined) return directed;
  }
  const remainder = value.mod(tick); // EUCLID: 0 <= remainder < tick
  if (remainder.isZero()) return value;
  const down = value.minus(remainder);
  const up = down.plus(tick);
  if (mode === 'down') return down;
  if (mode === 'up') return up;
  const twice = remainder.times(2);
  const c = twice.comparedTo(tick);
  if (c < 0) return down;
  if (c > 0) return up;
  return down.div(tick).mod(2).isZero() ? down : up;
}

/** price × quantity, exact. */
export function notional(price: Decimal, quantity: Decimal): Decimal {
  return price.times(quantity);
}
