/**
 * Exact average price. An order keeps its cumulative notional (sum of raw price x raw qty over its fills)
 * as a safe integer; the average price is the rational notional / cum_qty in raw price units. This module
 * renders that rational as a decimal string with a fixed number of decimals, rounding half up, using
 * BigInt so no float ever touches it. It runs only when a consumer reads `avgPx`, never on the hot path.
 */

/** Decimals of the avgPx strings the engine exposes (raw price units, e.g. "55.333333" with scale 100). */
export const AVG_PX_DECIMALS = 6;

/** notional / qty rounded half up to `decimals` decimals; "0" when qty is 0. Inputs are non-negative integers. */
export function formatAvgPx(notional: number, qty: number, decimals: number = AVG_PX_DECIMALS): string {
  if (qty === 0) return '0';
  const scale = 10n ** BigInt(decimals);
  const num = BigInt(notional) * scale;
  const den = BigInt(qty);
  let q = num / den;
  if ((num % den) * 2n >= den) q += 1n;
  if (decimals === 0) return q.toString();
  const digits = q.toString().padStart(decimals + 1, '0');
  const cut = digits.length - decimals;
  return `${digits.slice(0, cut)}.${digits.slice(cut)}`;
}
