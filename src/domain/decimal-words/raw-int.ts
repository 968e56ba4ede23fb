/**
 * Decimal -> scaled safe integer read from the value's base-1e7 words, the shortcut of decimalToRawInt
 * (scales.ts, the matching engine's inputs). The fallback gives undefined every time, so decimalToRawInt takes
 * its general path (decimal.js's public API).
 */
import type { Decimal } from '../decimal-config.ts';
import type { DecimalParts } from './parts.ts';

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
