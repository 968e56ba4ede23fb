/**
 * Left for one user only, src/engine/pipeline.ts (its split into src/engine/pipeline/ drops the import):
 * delete this file then. The project's Decimal compares in place already (src/domain/decimal-words.ts installs
 * an allocation-free `cmp` on its prototype), so new code calls `a.cmp(b)` / `a.lte(b)` / ... directly.
 */
import type { Decimal } from '../domain/decimal.ts';

/** -1, 0 or 1 as `a` is below, equal to or above `b`: `a.cmp(b)`. */
export function compare(a: Decimal, b: Decimal): number {
  return a.cmp(b);
}
