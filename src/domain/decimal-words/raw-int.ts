/**
 * Between Decimal and scaled safe integers on the value's base-1e7 words, both ways:
 * - Decimal -> scaled safe integer, the shortcut of decimalToRawInt (scales.ts, the matching engine's inputs);
 * - scaled non-negative safe integer -> Decimal, the shortcut of decimalFromRawInt (scales.ts: every price,
 *   size and statistic a market data update carries), the words built by arithmetic instead of a string
 *   written and parsed.
 * The fallbacks give undefined every time, so scales.ts takes its general path (decimal.js's public API).
 */
import type { Decimal } from '../decimal-config.ts';
import { make, wordDigits, type DecimalParts } from './parts.ts';

/** value × 10^digits as a safe integer when that is exact, else undefined (the caller takes the Decimal path). */
export type RawIntShortcut = (value: Decimal, digits: number) => number | undefined;

const POW10_NUMBERS: readonly number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * The words of `d` are aligned on the decimal point: word i is worth d[i] × 1e7^(floor(e / 7) - i), so word i
 * contributes d[i] × 10^(7 (floor(e / 7) - i) + digits). Every term and partial sum is an integer below 2^53
 * (checked), so the float arithmetic is exact; a negative power divides off digits that must be zeros
 * (checked by the remainder), else the value has more places than `digits` and the slow path reports it.
 */
export const rawIntOnWords: RawIntShortcut = (value, digits) => {
  const { d, e, s } = value as unknown as DecimalParts;
  if (d === null || d.length > 3 || digits > 15) return undefined;
  const top = Math.floor(e / 7);
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    const word = d[i] as number;
    if (word === 0) continue;
    const p = 7 * (top - i) + digits;
    let term: number;
    if (p >= 0) {
      if (p > 15) return undefined;
      term = word * (POW10_NUMBERS[p] as number);
    } else {
      if (p < -7) return undefined;
      const divisor = POW10_NUMBERS[-p] as number;
      if (word % divisor !== 0) return undefined;
      term = word / divisor;
    }
    sum += term;
    if (!Number.isSafeInteger(term) || !Number.isSafeInteger(sum)) return undefined;
  }
  return sum === 0 ? 0 : s < 0 ? -sum : sum;
};

/** The fallback: no shortcut. */
export const rawIntPublic: RawIntShortcut = () => undefined;

/** raw × 10^-digits as a Decimal (raw a non-negative safe integer, digits 0-15), or undefined (the general path). */
export type FromRawIntShortcut = (raw: number, digits: number) => Decimal | undefined;

/**
 * The words of raw × 10^-digits: raw × 10^shift, with shift = 7m - digits for the m fraction words, puts the
 * decimal point on a word boundary; its base-1e7 words (at most 4: raw < 2^53 < 1e16, shift ≤ 6, every
 * product and carry below 2^53, so exact) without the zero words at either end are d, and the first kept
 * word's place gives e, as decimal.js's parser leaves them.
 */
export const fromRawIntOnWords: FromRawIntShortcut = (raw, digits) => {
  if (!Number.isSafeInteger(raw) || raw <= 0 || !Number.isInteger(digits) || digits < 0 || digits > 15) return undefined;
  const fraction = Math.ceil(digits / 7);
  const scale = POW10_NUMBERS[7 * fraction - digits] as number;
  const low = raw % 1e7;
  const high = (raw - low) / 1e7;
  const mid = high % 1e7;
  let w0 = low * scale;
  let w1 = mid * scale;
  let w2 = ((high - mid) / 1e7) * scale;
  let carry = Math.floor(w0 / 1e7);
  w0 -= carry * 1e7;
  w1 += carry;
  carry = Math.floor(w1 / 1e7);
  w1 -= carry * 1e7;
  w2 += carry;
  carry = Math.floor(w2 / 1e7);
  w2 -= carry * 1e7;
  const words = [w0, w1, w2, carry];
  let top = 3;
  while (words[top] === 0) top -= 1;
  let bottom = 0;
  while (words[bottom] === 0) bottom += 1;
  const d: number[] = [];
  for (let i = top; i >= bottom; i--) d.push(words[i] as number);
  const first = words[top] as number;
  return make(1, (top - fraction) * 7 + wordDigits(first) - 1, d) as unknown as Decimal;
};

/** The fallback: no shortcut. */
export const fromRawIntPublic: FromRawIntShortcut = () => undefined;
