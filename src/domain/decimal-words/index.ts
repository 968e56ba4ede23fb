/**
 * The one place that knows decimal.js's internals (#23, point 5). The project's Decimal (decimal-config.ts)
 * gets a prototype of its own whose comparison and plus / minus / times compute in place on decimal.js's
 * base-1e7 digit words instead of on a copy of the argument (same results, no allocation), and the tick
 * rounding (decimal.ts) and the raw-integer conversion (scales.ts) have shortcuts on the same words.
 *
 * At load, `decideFastPaths` (self-check.ts) checks that the installed decimal.js stores a few known values
 * as these assume and that the in-place methods agree with decimal.js's own on a handful of operands. When it
 * passes, the prototype is installed and the word shortcuts are used; when it fails, the project's Decimal
 * keeps decimal.js's own prototype (its plain methods), the tick rounding uses toDecimalPlaces, the raw
 * conversion its general path, and a process warning (TRADEBOT_DECIMAL_FAST_PATHS_OFF) says why: slower,
 * never wrong. test/domain/decimal-words/pin.test.ts fails on any decimal.js but the version package.json
 * pins: a new version is taken by re-running the decimal-words property tests, then moving the pin.
 *
 * Modules:
 * - parts.ts       the representation, word helpers, the project prototype object and its instances
 * - compare.ts     comparedTo / cmp in place
 * - arithmetic.ts  plus / minus / times in place
 * - tick.ts        rounding to a tick of 10^-k: on the words, or by toDecimalPlaces (fallback)
 * - raw-int.ts     Decimal <-> scaled safe integer on the words (no shortcut in the fallback)
 * - self-check.ts  the install decision
 */
import { Decimal as DecimalJs } from 'decimal.js';
import { Decimal } from '../decimal-config.ts';
import { minus, plus, times } from './arithmetic.ts';
import { comparedTo } from './compare.ts';
import { ownPrototype } from './parts.ts';
import {
  fromRawIntOnWords,
  fromRawIntPublic,
  rawIntOnWords,
  rawIntPublic,
  type FromRawIntShortcut,
  type RawIntShortcut,
} from './raw-int.ts';
import { decideFastPaths, type FastPathDecision } from './self-check.ts';
import { roundToTenthOnWords, roundToTenthPublic, type TenthTickRounding } from './tick.ts';

export type { DecimalJsProbe, FastPathDecision } from './self-check.ts';
export type { FromRawIntShortcut, RawIntShortcut } from './raw-int.ts';
export type { TenthTickRounding } from './tick.ts';
export { decideFastPaths };

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

/** The shortcuts decimal.ts and scales.ts call: on the words, or the public-API fallback. */
export interface DecimalShortcuts {
  readonly roundToTenthTick: TenthTickRounding;
  readonly rawInt: RawIntShortcut;
  readonly fromRawInt: FromRawIntShortcut;
}

const ON_WORDS: DecimalShortcuts = { roundToTenthTick: roundToTenthOnWords, rawInt: rawIntOnWords, fromRawInt: fromRawIntOnWords };
const PUBLIC: DecimalShortcuts = { roundToTenthTick: roundToTenthPublic, rawInt: rawIntPublic, fromRawInt: fromRawIntPublic };

/**
 * Gives `target` (the project's Decimal constructor) the in-place prototype when `decision` says so, and
 * returns the shortcuts to use with it; otherwise leaves `target` alone and returns the fallback's.
 */
export function installFastPaths(target: { prototype: DecimalJs }, decision: FastPathDecision): DecimalShortcuts {
  if (!decision.install) return PUBLIC;
  target.prototype = ownPrototype;
  return ON_WORDS;
}

/** The decision taken at load on the installed decimal.js. */
export const fastPaths: FastPathDecision = decideFastPaths({
  build: (text) => new Decimal(text),
  own: {
    comparedTo: DecimalJs.prototype.comparedTo as (this: unknown, y: unknown) => unknown,
    plus: DecimalJs.prototype.plus as (this: unknown, y: unknown) => unknown,
    minus: DecimalJs.prototype.minus as (this: unknown, y: unknown) => unknown,
    times: DecimalJs.prototype.times as (this: unknown, y: unknown) => unknown,
  },
});
if (!fastPaths.install) {
  process.emitWarning(`decimal.js is not stored as the in-place Decimal methods assume (${fastPaths.problem}); using its plain methods`, {
    code: 'TRADEBOT_DECIMAL_FAST_PATHS_OFF',
  });
}

const shortcuts = installFastPaths(Decimal as unknown as { prototype: DecimalJs }, fastPaths);
/** Rounding to a tick of 10^-k towards -/+ infinity, or undefined (roundToTick's general path); see tick.ts. */
export const roundToTenthTick: TenthTickRounding = shortcuts.roundToTenthTick;
/** value × 10^digits as a safe integer when exact, or undefined (decimalToRawInt's general path); see raw-int.ts. */
export const rawIntShortcut: RawIntShortcut = shortcuts.rawInt;
/** raw × 10^-digits as a Decimal built on the words, or undefined (decimalFromRawInt's general path); see raw-int.ts. */
export const fromRawIntShortcut: FromRawIntShortcut = shortcuts.fromRawInt;
