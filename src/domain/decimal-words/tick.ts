/**
 * Rounding to a tick of 1, 0.1, 0.01, ... (10^-k) towards -infinity or +infinity, the shortcut of roundToTick
 * (decimal.ts) for such ticks: on the value's base-1e7 words (`roundToTenthOnWords`, used when the fast paths
 * are installed), or with decimal.js's public toDecimalPlaces (`roundToTenthPublic`, the fallback). Both give
 * undefined when the shortcut does not apply (another tick, a negative, non-finite or long value), and
 * roundToTick then takes its general path (a modulo); where they apply, both give exactly what that path gives.
 */
import type { Decimal as DecimalJs } from 'decimal.js';
import { Decimal } from '../decimal-config.ts';
import { LOG_BASE, base10Exponent, make, wordDigits, wordExponent, type DecimalParts } from './parts.ts';

/** `value` rounded to a multiple of `tick` (> 0) towards +infinity (`up`) or -infinity, or undefined (see above). */
export type TenthTickRounding = (value: Decimal, tick: Decimal, up: boolean) => Decimal | undefined;

const POW10_WORD: readonly number[] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7];

/**
 * What `x.toDecimalPlaces(places, up ? ROUND_CEIL : ROUND_FLOOR)` gives for a positive finite x with more than
 * `places` decimals, computed on its words (decimal.js's finalise, for the two directed roundings: cut the
 * digits after `places`, add one unit there when rounding up, carry, drop trailing zero words; the exponent
 * grows by one when the carry lengthens the first word, and is the unit's own when the cut took every digit).
 * Undefined (the caller takes decimal.js's path) when the cut falls before the first word or the result is zero.
 */
function cutAtPlaces(x: DecimalParts, places: number, up: boolean): DecimalJs | undefined {
  const d = x.d;
  if (d === null || x.s !== 1) return undefined;
  const k = wordExponent(x.e); // word i is worth d[i] × 1e7^(k - i)
  const j = places === 0 ? 0 : Math.ceil(places / LOG_BASE);
  const i = k + j; // the word holding the last decimal kept
  if (i < 0 || i >= d.length) return undefined;
  const unit = POW10_WORD[places === 0 ? 0 : LOG_BASE - (places - LOG_BASE * (j - 1))] as number;
  const w = d.slice(0, i + 1);
  w[i] = (w[i] as number) - ((w[i] as number) % unit);
  const firstDigits = wordDigits(d[0] as number);
  const cutToZero = w[0] === 0; // the cut took every digit (then only a unit added can remain)
  let e = x.e;
  if (up) {
    w[i] = (w[i] as number) + unit;
    for (let n = i; n > 0 && (w[n] as number) >= 1e7; n--) {
      w[n] = (w[n] as number) - 1e7;
      w[n - 1] = (w[n - 1] as number) + 1;
    }
    if ((w[0] as number) >= 1e7) {
      w[0] = (w[0] as number) - 1e7;
      w.unshift(1);
      e++;
    } else if (cutToZero) {
      e = base10Exponent(w[0] as number, k);
    } else if (wordDigits(w[0] as number) > firstDigits) {
      e++;
    }
  }
  while (w.length > 0 && w[w.length - 1] === 0) w.pop();
  if (w.length === 0 || w[0] === 0) return undefined;
  return make(1, e, w);
}

/**
 * k when `tick` (finite, > 0) is 10^-k for k >= 0 (1, 0.1, 0.01, ...), else -1: one base-1e7 word holding a
 * power of ten is a power of ten, and decimalPlaces() is then -exponent.
 */
function tenthPlacesOfWords(tick: Decimal): number {
  const d = (tick as unknown as DecimalParts).d;
  if (d === null || d.length !== 1 || tick.e > 0) return -1;
  const word = d[0] as number;
  return word === 1 || word === 10 || word === 100 || word === 1000 || word === 10000 || word === 100000 || word === 1000000
    ? tick.decimalPlaces()
    : -1;
}

/**
 * On the words: a tick of 10^-places and a value of at most 5 words (35 significant digits), where the general
 * path's arithmetic is exact and gives what rounding to `places` decimals towards -/+ infinity gives (a zero
 * result is +0 either way).
 */
export const roundToTenthOnWords: TenthTickRounding = (value, tick, up) => {
  const places = tenthPlacesOfWords(tick);
  if (places < 0 || value.isNegative() || !value.isFinite() || (value as unknown as DecimalParts).d!.length > 5) return undefined;
  if (value.decimalPlaces() <= places) return value;
  return (
    cutAtPlaces(value as unknown as DecimalParts, places, up) ??
    value.toDecimalPlaces(places, up ? Decimal.ROUND_CEIL : Decimal.ROUND_FLOOR)
  );
};

/**
 * The fallback, on decimal.js's public API only: a tick equal to 10^-places and a value of at most 35
 * significant digits (where the general path is exact too), rounded by toDecimalPlaces.
 */
export const roundToTenthPublic: TenthTickRounding = (value, tick, up) => {
  const places = tick.decimalPlaces();
  if (!tick.eq(new Decimal(`1e-${places}`)) || value.isNegative() || !value.isFinite() || value.sd(true) > 35) return undefined;
  if (value.decimalPlaces() <= places) return value;
  return value.toDecimalPlaces(places, up ? Decimal.ROUND_CEIL : Decimal.ROUND_FLOOR);
};
