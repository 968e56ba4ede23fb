/**
 * The project prototype's `comparedTo` / `cmp`: decimal.js's comparison computed in place on a Decimal argument.
 */
import { Decimal as DecimalJs } from 'decimal.js';
import { Decimal } from '../decimal-config.ts';
import type { DecimalParts } from './parts.ts';

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
const decimalJsCmp = DecimalJs.prototype.comparedTo;
export function comparedTo(this: DecimalJs, y: DecimalJs.Value): number {
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
