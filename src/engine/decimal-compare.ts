/**
 * Allocation-free comparisons of Decimals for the engine's per-event paths. decimal.js copies its argument
 * into a new instance on every comparison (`a.gt(b)` is `new Decimal(b)` plus the compare), and risk compares
 * a few dozen times per intent: those copies were a large share of a requote's time and of its garbage. This
 * is decimal.js's own comparison over its documented representation (`d` digits in base 1e7, most
 * significant first, `e` exponent, `s` sign), without the copy; non-finite values go to decimal.js itself.
 * Also a multiple-of-tick test that only counts decimal places when the tick is 1, 0.1, 0.01, ...
 */
import { Decimal, isMultipleOf } from '../domain/decimal.ts';

interface Parts {
  readonly d: readonly number[] | null;
  readonly e: number | null;
  readonly s: number;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (exactly `a.cmp(b)`). */
export function compare(a: Decimal, b: Decimal): number {
  const x = a as unknown as Parts;
  const y = b as unknown as Parts;
  const xd = x.d;
  const yd = y.d;
  if (xd === null || yd === null || x.e === null || y.e === null) return a.cmp(b);
  const xZero = xd[0] === 0 || xd.length === 0;
  const yZero = yd[0] === 0 || yd.length === 0;
  if (xZero || yZero) return xZero ? (yZero ? 0 : -y.s) : x.s;
  if (x.s !== y.s) return x.s;
  const flip = x.s < 0;
  if (x.e !== y.e) return (x.e > y.e) !== flip ? 1 : -1;
  const n = Math.min(xd.length, yd.length);
  for (let i = 0; i < n; i++) {
    const xi = xd[i] as number;
    const yi = yd[i] as number;
    if (xi !== yi) return (xi > yi) !== flip ? 1 : -1;
  }
  if (xd.length === yd.length) return 0;
  return (xd.length > yd.length) !== flip ? 1 : -1;
}

/** x > 0, without allocating. */
export const isAboveZero = (x: Decimal): boolean => !x.isZero() && x.isPositive();

/** The largest of the values (the first of equal ones). */
export function largest(first: Decimal, ...rest: Decimal[]): Decimal {
  let best = first;
  for (const value of rest) if (compare(value, best) > 0) best = value;
  return best;
}

/**
 * A test "value is a whole multiple of `tick`" (tick > 0). For a tick of 10^-k (1, 0.1, 0.01, ...) it counts
 * the value's decimal places (no division, no allocation); for any other tick it is `isMultipleOf`.
 */
export function multipleOfTick(tick: Decimal): (value: Decimal) => boolean {
  const places = tick.decimalPlaces();
  const powerOfTen = tick.eq(new Decimal(10).pow(-places));
  return powerOfTen ? (value) => value.decimalPlaces() <= places : (value) => isMultipleOf(value, tick);
}
