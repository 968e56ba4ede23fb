/**
 * decimal.js's representation, as the in-place methods of this folder read and build it: `d` the digits in
 * base-1e7 words (most significant first, no trailing zero word; null for NaN and ±Infinity), `e` the base-10
 * exponent, `s` the sign; an instance's own properties are constructor, s, e, d in that order. self-check.ts
 * checks at load that decimal.js still works this way before anything here is used on the project's values.
 * Also: the word arithmetic helpers, and the project's prototype object (its methods are defined by index.ts)
 * with the function that makes instances of it without the constructor's checks.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import { Decimal } from '../decimal-config.ts';

export interface DecimalParts {
  readonly d: readonly number[] | null;
  readonly e: number;
  readonly s: number;
}
interface MutableParts {
  constructor: unknown;
  s: number;
  e: number;
  d: number[] | null;
}
export const BASE = 1e7;
export const LOG_BASE = 7;

/**
 * The project's Decimal prototype: it inherits every method of decimal.js's; index.ts defines the in-place
 * ones on it and makes it the prototype of the project's Decimal when the self-check passes.
 */
export const ownPrototype = Object.create(DecimalJs.prototype) as DecimalJs;

/**
 * An instance of the project's Decimal (its prototype is the project's own): decimal.js's `new Decimal(y)`
 * copies its s, e and d. Cheaper than `instanceof` (~10 ns each on the constructor functions).
 */
export function isProjectDecimal(y: unknown): y is DecimalParts {
  return typeof y === 'object' && y !== null && Object.getPrototypeOf(y) === ownPrototype;
}

/** Number of decimal digits of a base-1e7 word, 1 for 0 (what decimal.js's digit-counting loops give). */
export function wordDigits(w: number): number {
  return w < 1e4 ? (w < 100 ? (w < 10 ? 1 : 2) : w < 1e3 ? 3 : 4) : w < 1e5 ? 5 : w < 1e6 ? 6 : 7;
}

/**
 * decimal.js's getBase10Exponent: the word exponent times 7, plus one per digit of the first word after its
 * first (written as decimal.js computes it, so a word exponent of -0 stays -0 as it does there).
 */
export function base10Exponent(first: number, wordExponent: number): number {
  const e = wordExponent * LOG_BASE;
  return first < 10 ? e : e + wordDigits(first) - 1;
}

/** The word exponent of a value of exponent e: word i of its digits is worth d[i] × 1e7^(k - i). */
export function wordExponent(e: number): number {
  return Math.floor(e / LOG_BASE);
}

/** How many word places apart two operands may be for a result within `pr` digits to be computed (see SPAN in arithmetic.ts). */
export function wordReach(pr: number): number {
  return Math.ceil(pr / LOG_BASE) + 1;
}

/** True when decimal.js's finalise(x, precision, rounding) leaves x (exponent e, first word, length words) unchanged. */
export function finaliseKeeps(e: number, first: number, length: number, pr: number): boolean {
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
export function make(s: number, e: number, d: number[]): DecimalJs {
  return new DecimalResult(s, e, d);
}
DecimalResult.prototype = ownPrototype;
