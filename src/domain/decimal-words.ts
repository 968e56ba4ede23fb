/**
 * The project's Decimal prototype: decimal.js's methods, with comparison and plus / minus / times computed
 * in place on decimal.js's base-1e7 words instead of on a copy of the argument (details below), and the
 * word-level helpers the tick rounding of decimal.ts uses. Loading this module installs the prototype on
 * the Decimal of decimal-config.ts; decimal.ts imports it, so every Decimal made anywhere has it.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import { Decimal } from './decimal-config.ts';

/**
 * Comparisons without a copy. decimal.js's `x.cmp(y)` (and `eq`, `lt`, `lte`, `gt`, `gte`, which call
 * `this.cmp`) first copies its argument into a new instance (`new Decimal(y)`: an object and a slice of
 * its digits), so every comparison allocates; strategies, risk and the portfolio compare on every event.
 * The project's Decimal gets a prototype of its own (inheriting every method of decimal.js's) whose `cmp` /
 * `comparedTo` compare a finite Decimal argument in place: decimal.js's own algorithm over its documented
 * representation (`d` digits in base 1e7, most significant first, `e` exponent, `s` sign), on the same
 * values the copy would hold (a copy of a finite instance within [minE, maxE] is exact). Anything else (a
 * number or string argument, NaN, ±Infinity, an exponent out of range) goes to decimal.js's own `cmp`.
 */
export interface DecimalParts {
  readonly d: readonly number[] | null;
  readonly e: number;
  readonly s: number;
}
const decimalJsCmp = DecimalJs.prototype.comparedTo;
function comparedTo(this: DecimalJs, y: DecimalJs.Value): number {
  if (y instanceof DecimalJs) {
    const x = this as unknown as DecimalParts;
    const v = y as unknown as DecimalParts;
    const xd = x.d;
    const yd = v.d;
    if (xd !== null && yd !== null && v.e <= Decimal.maxE && v.e >= Decimal.minE) {
      const xs = x.s;
      const ys = v.s;
      if (!xd[0] || !yd[0]) return xd[0] ? xs : yd[0] ? -ys : 0;
      if (xs !== ys) return xs;
      if (x.e !== v.e) return x.e > v.e !== xs < 0 ? 1 : -1;
      const xdL = xd.length;
      const ydL = yd.length;
      for (let i = 0, j = xdL < ydL ? xdL : ydL; i < j; ++i) {
        if (xd[i] !== yd[i]) return (xd[i] as number) > (yd[i] as number) !== xs < 0 ? 1 : -1;
      }
      return xdL === ydL ? 0 : xdL > ydL !== xs < 0 ? 1 : -1;
    }
  }
  return decimalJsCmp.call(this, y);
}
/**
 * Arithmetic without a copy. decimal.js's `x.plus(y)`, `x.minus(y)` and `x.times(y)` (and `add`, `sub`,
 * `mul`) also begin with `y = new Decimal(y)`. The project prototype's versions compute on a finite Decimal
 * argument (exponent within [minE, maxE], so the copy would be exact) in place, following decimal.js's own
 * algorithm, and keep a result only when it is provably the one decimal.js returns:
 *
 * decimal.js computes the exact sum, difference or product in base-1e7 words (no leading or trailing zero
 * word; plus and minus first cut an operand lying more than max(ceil(precision / 7), the other's length) + 1
 * words (+ 2 for minus) below the other), then, when its module flag `external` is set (any call from outside
 * decimal.js; its own internal computations, which call these methods too, clear it), `finalise(result,
 * precision, rounding)`: rounding to `precision` significant digits, an exponent above maxE giving ±Infinity
 * and below minE zero. The flag cannot be read from outside, so the result is kept only when finalise would
 * leave it as it is: finalise's own no-rounding test passes (i = precision - digits of the first word >= 0
 * and ceil((i + 1) / 7) >= number of words) and the exponent is within [minE, maxE]; operands more than
 * ceil(precision / 7) + 1 words apart (which decimal.js may cut) are not computed at all. Everything else (a
 * result to round, NaN, ±Infinity, a number or string argument, an operand's exponent out of range) goes to
 * decimal.js's own method. Results that need no rounding (prices, quantities and their products, at most 40
 * digits) are by far the common case.
 */
interface MutableParts {
  constructor: unknown;
  s: number;
  e: number;
  d: number[] | null;
}
const BASE = 1e7;
const LOG_BASE = 7;
const decimalJsPlus = DecimalJs.prototype.plus;
const decimalJsMinus = DecimalJs.prototype.minus;
const decimalJsTimes = DecimalJs.prototype.times;
/*
 * SPAN: operands spanning more than ceil(precision / 7) + 2 words (a sum or difference over more words, a
 * product of more words in all) go to decimal.js's method without being computed here: their result has more
 * than `precision` digits (to be rounded) unless words at its ends come out zero, and decimal.js's own
 * computations call these methods with long exact operands (rounding off) where computing twice would only
 * cost time. A shortcut only: decimal.js's path gives decimal.js's result in every case.
 */
/** Work area of the word-aligned sum or difference (single-threaded, never re-entered). */
const work: number[] = [];

/**
 * An instance of the project's Decimal (its prototype is the project's own): decimal.js's `new Decimal(y)`
 * copies its s, e and d. Cheaper than `instanceof` (~10 ns each on the constructor functions).
 */
function isProjectDecimal(y: unknown): y is DecimalParts {
  return typeof y === 'object' && y !== null && Object.getPrototypeOf(y) === ownPrototype;
}

/** Number of decimal digits of a base-1e7 word, 1 for 0 (what decimal.js's digit-counting loops give). */
function wordDigits(w: number): number {
  return w < 1e4 ? (w < 100 ? (w < 10 ? 1 : 2) : w < 1e3 ? 3 : 4) : w < 1e5 ? 5 : w < 1e6 ? 6 : 7;
}

/**
 * decimal.js's getBase10Exponent: the word exponent times 7, plus one per digit of the first word after its
 * first (written as decimal.js computes it, so a word exponent of -0 stays -0 as it does there).
 */
function base10Exponent(first: number, wordExponent: number): number {
  const e = wordExponent * LOG_BASE;
  return first < 10 ? e : e + wordDigits(first) - 1;
}

/** The word exponent of a value of exponent e: word i of its digits is worth d[i] × 1e7^(k - i). */
function wordExponent(e: number): number {
  return Math.floor(e / LOG_BASE);
}

/** How many word places apart two operands may be for a result within `pr` digits to be computed here (see SPAN). */
function wordReach(pr: number): number {
  return Math.ceil(pr / LOG_BASE) + 1;
}

/** True when decimal.js's finalise(x, precision, rounding) leaves x (exponent e, first word, length words) unchanged. */
function finaliseKeeps(e: number, first: number, length: number, pr: number): boolean {
  const i = pr - wordDigits(first);
  return i >= 0 && Math.ceil((i + 1) / LOG_BASE) >= length && e <= Decimal.maxE && e >= Decimal.minE;
}

/**
 * A result instance: what decimal.js's `new Decimal(y)` makes (own properties constructor, s, e, d in that
 * order, prototype Decimal.prototype), without running the constructor's argument checks.
 */
const DecimalResult = function (this: MutableParts, s: number, e: number, d: number[]) {
  this.constructor = Decimal;
  this.s = s;
  this.e = e;
  this.d = d;
} as unknown as { new (s: number, e: number, d: number[]): DecimalJs; prototype: DecimalJs };
function make(s: number, e: number, d: number[]): DecimalJs {
  return new DecimalResult(s, e, d);
}

/** decimal.js's `new Decimal(v)` of a finite in-range instance then finalise, when finalise keeps it. */
function copyOf(s: number, e: number, d: readonly number[]): DecimalJs | undefined {
  return finaliseKeeps(e, d[0] as number, d.length, Decimal.precision) ? make(s, e, d.slice()) : undefined;
}

/** decimal.js's plus of two finite values of sign s (x.s === s, y taken with sign s). */
function addMagnitudes(x: DecimalParts, y: DecimalParts, xd: readonly number[], yd: readonly number[], s: number): DecimalJs | undefined {
  // either is zero: the other (x when y is zero), copied and finalised
  if (!xd[0] || !yd[0]) return yd[0] ? copyOf(s, y.e, yd) : copyOf(s, x.e, xd);
  const pr = Decimal.precision;
  const kx = wordExponent(x.e);
  const ky = wordExponent(y.e);
  const reach = wordReach(pr);
  if (Math.abs(kx - ky) > reach) return undefined;
  const xL = xd.length;
  const yL = yd.length;
  if (kx === ky && xL === 1 && yL === 1) {
    // one word each at the same place (decimal.js then keeps y's word exponent): a + b, at most one carry
    const t = (xd[0] as number) + (yd[0] as number);
    if (t < BASE) {
      const e = base10Exponent(t, ky);
      return finaliseKeeps(e, t, 1, pr) ? make(s, e, [t]) : undefined;
    }
    const e = (ky + 1) * LOG_BASE;
    return finaliseKeeps(e, 1, t === BASE ? 1 : 2, pr) ? make(s, e, t === BASE ? [1] : [1, t - BASE]) : undefined;
  }
  const hi = kx > ky ? kx : ky; // y's when equal, as decimal.js
  const ox = hi - kx;
  const oy = hi - ky;
  const n = ox + xL > oy + yL ? ox + xL : oy + yL;
  if (n > reach + 1) return undefined; // a shortcut only: see SPAN
  const w = work;
  for (let i = 0; i < n; i++) w[i] = 0;
  for (let i = 0; i < xL; i++) w[ox + i] = xd[i] as number;
  for (let i = 0; i < yL; i++) w[oy + i] = (w[oy + i] as number) + (yd[i] as number);
  let carry = 0;
  for (let i = n; i--;) {
    const t = (w[i] as number) + carry;
    carry = t >= BASE ? 1 : 0;
    w[i] = carry ? t - BASE : t;
  }
  let last = n - 1;
  while (last >= 0 && w[last] === 0) last--;
  const first = carry ? 1 : (w[0] as number);
  const e = base10Exponent(first, carry ? hi + 1 : hi);
  if (!finaliseKeeps(e, first, carry + last + 1, pr)) return undefined;
  const d: number[] = carry ? [1] : [];
  for (let i = 0; i <= last; i++) d.push(w[i] as number);
  return make(s, e, d);
}

/** decimal.js's minus of two finite values of sign s (x.s === s, y taken with sign s): x - y. */
function subtractMagnitudes(
  x: DecimalParts,
  y: DecimalParts,
  xd: readonly number[],
  yd: readonly number[],
  s: number,
): DecimalJs | undefined {
  if (!xd[0] || !yd[0]) {
    if (yd[0]) return copyOf(-s, y.e, yd); // 0 - y: y negated
    if (xd[0]) return copyOf(s, x.e, xd); // x - 0: x
    return new Decimal(Decimal.rounding === 3 ? -0 : 0); // 0 - 0, not finalised
  }
  const pr = Decimal.precision;
  const kx = wordExponent(x.e);
  const ky = wordExponent(y.e);
  const reach = wordReach(pr);
  if (Math.abs(kx - ky) > reach) return undefined;
  const xL = xd.length;
  const yL = yd.length;
  // which magnitude is smaller: decimal.js's test (word exponents, then words, then lengths)
  let xLTy: boolean;
  if (kx !== ky) {
    xLTy = kx < ky;
  } else {
    const m = xL < yL ? xL : yL;
    let i = 0;
    while (i < m && xd[i] === yd[i]) i++;
    xLTy = i < m ? (xd[i] as number) < (yd[i] as number) : xL < yL;
  }
  const sign = xLTy ? -s : s;
  if (kx === ky && xL === 1 && yL === 1) {
    // one word each at the same place (decimal.js keeps y's word exponent): one word or zero
    const t = xLTy ? (yd[0] as number) - (xd[0] as number) : (xd[0] as number) - (yd[0] as number);
    if (t === 0) return new Decimal(Decimal.rounding === 3 ? -0 : 0);
    const e = base10Exponent(t, ky);
    return finaliseKeeps(e, t, 1, pr) ? make(sign, e, [t]) : undefined;
  }
  const big = xLTy ? yd : xd;
  const small = xLTy ? xd : yd;
  const hi = xLTy || kx === ky ? ky : kx; // the larger's word exponent, y's when equal, as decimal.js
  const os = xLTy ? ky - kx : kx - ky;
  const bL = big.length;
  const sL = small.length;
  const n = bL > os + sL ? bL : os + sL;
  if (n > reach + 1) return undefined; // a shortcut only: see SPAN
  const w = work;
  for (let i = 0; i < n; i++) w[i] = i < bL ? (big[i] as number) : 0;
  for (let i = 0; i < sL; i++) w[os + i] = (w[os + i] as number) - (small[i] as number);
  let borrow = 0;
  for (let i = n; i--;) {
    const t = (w[i] as number) - borrow;
    borrow = t < 0 ? 1 : 0;
    w[i] = borrow ? t + BASE : t;
  }
  let last = n - 1;
  while (last >= 0 && w[last] === 0) last--;
  if (last < 0) return new Decimal(Decimal.rounding === 3 ? -0 : 0); // cancelled to zero, not finalised
  let start = 0;
  while (w[start] === 0) start++;
  const first = w[start] as number;
  const e = base10Exponent(first, start ? hi - start : hi);
  if (!finaliseKeeps(e, first, last - start + 1, pr)) return undefined;
  const d: number[] = [];
  for (let i = start; i <= last; i++) d.push(w[i] as number);
  return make(sign, e, d);
}

/** x + y or x - y (negate) for a finite Decimal y within [minE, maxE], else undefined. */
function addOrSubtract(x: DecimalParts, y: DecimalJs.Value, negate: boolean): DecimalJs | undefined {
  if (!isProjectDecimal(y)) return undefined;
  const v = y;
  const xd = x.d;
  const yd = v.d;
  if (!xd || !yd) return undefined;
  const maxE = Decimal.maxE;
  const minE = Decimal.minE;
  if (v.e > maxE || v.e < minE || x.e > maxE || x.e < minE) return undefined;
  // plus with signs differing is minus of -y, minus with signs differing is plus of -y (decimal.js)
  return (x.s === v.s) !== negate ? addMagnitudes(x, v, xd, yd, x.s) : subtractMagnitudes(x, v, xd, yd, x.s);
}

function plus(this: DecimalJs, y: DecimalJs.Value): DecimalJs {
  return addOrSubtract(this as unknown as DecimalParts, y, false) ?? decimalJsPlus.call(this, y);
}

function minus(this: DecimalJs, y: DecimalJs.Value): DecimalJs {
  return addOrSubtract(this as unknown as DecimalParts, y, true) ?? decimalJsMinus.call(this, y);
}

/** decimal.js's product of two finite non-zero values (word loop as decimal.js's), undefined when finalise would change it. */
function multiply(xd: readonly number[], yd: readonly number[], xe: number, ye: number, s: number): DecimalJs | undefined {
  let e = Math.floor(xe / LOG_BASE) + Math.floor(ye / LOG_BASE);
  const pr = Decimal.precision;
  let a = xd;
  let b = yd;
  let aL = xd.length;
  let bL = yd.length;
  if (aL === 1 && bL === 1) {
    // one word each: the product (< 1e14, exact) is one or two words
    const t = (a[0] as number) * (b[0] as number);
    const high = Math.floor(t / BASE);
    if (high === 0) {
      e = base10Exponent(t, e);
      return finaliseKeeps(e, t, 1, pr) ? make(s, e, [t]) : undefined;
    }
    const low = t - high * BASE;
    e = base10Exponent(high, e + 1);
    return finaliseKeeps(e, high, low ? 2 : 1, pr) ? make(s, e, low ? [high, low] : [high]) : undefined;
  }
  if (aL + bL > Math.ceil(pr / LOG_BASE) + 2) return undefined; // a shortcut only: see SPAN
  if (aL < bL) {
    a = yd;
    b = xd;
    aL = yd.length;
    bL = xd.length;
  }
  const r: number[] = [];
  let rL = aL + bL;
  for (let i = rL; i--;) r.push(0);
  let carry = 0;
  for (let i = bL; --i >= 0;) {
    carry = 0;
    let k = aL + i;
    for (; k > i;) {
      const t = (r[k] as number) + (b[i] as number) * (a[k - i - 1] as number) + carry;
      r[k--] = (t % BASE) | 0;
      carry = (t / BASE) | 0;
    }
    r[k] = (((r[k] as number) + carry) % BASE) | 0;
  }
  for (; !r[--rL];) r.pop();
  if (carry) ++e;
  else r.shift();
  const first = r[0] as number;
  e = base10Exponent(first, e);
  return finaliseKeeps(e, first, r.length, pr) ? make(s, e, r) : undefined;
}

function times(this: DecimalJs, y: DecimalJs.Value): DecimalJs {
  if (isProjectDecimal(y)) {
    const x = this as unknown as DecimalParts;
    const v = y;
    const xd = x.d;
    const yd = v.d;
    if (xd && yd && v.e <= Decimal.maxE && v.e >= Decimal.minE) {
      const s = x.s * v.s;
      if (!xd[0] || !yd[0]) return new Decimal(s * 0); // ±0, as decimal.js (not finalised)
      const product = multiply(xd, yd, x.e, v.e, s);
      if (product !== undefined) return product;
    }
  }
  return decimalJsTimes.call(this, y);
}

const ownPrototype = Object.create(DecimalJs.prototype) as DecimalJs;
Object.defineProperties(ownPrototype, {
  comparedTo: { value: comparedTo, writable: true, configurable: true },
  cmp: { value: comparedTo, writable: true, configurable: true },
  plus: { value: plus, writable: true, configurable: true },
  add: { value: plus, writable: true, configurable: true },
  minus: { value: minus, writable: true, configurable: true },
  sub: { value: minus, writable: true, configurable: true },
  times: { value: times, writable: true, configurable: true },
  mul: { value: times, writable: true, configurable: true },
});
DecimalResult.prototype = ownPrototype;
(Decimal as unknown as { prototype: DecimalJs }).prototype = ownPrototype;

const POW10_WORD: readonly number[] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7];

/**
 * What `x.toDecimalPlaces(places, up ? ROUND_CEIL : ROUND_FLOOR)` gives for a positive finite x with more than
 * `places` decimals, computed on its words (decimal.js's finalise, for the two directed roundings: cut the
 * digits after `places`, add one unit there when rounding up, carry, drop trailing zero words; the exponent
 * grows by one when the carry lengthens the first word, and is the unit's own when the cut took every digit).
 * Undefined (the caller takes decimal.js's path) when the cut falls before the first word or the result is zero.
 */
export function cutAtPlaces(x: DecimalParts, places: number, up: boolean): DecimalJs | undefined {
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
