/**
 * Reads report.json fields by dotted path (`sharpe`, `pnl.total`, `refusals.RISK_MAX_POSITION`), and narrows
 * a field to a key figure. Shared by the HTML report's header and the sweep's ranking.
 */
import type { Figure } from './backtest-result.ts';

/** The value at a dotted path (own properties only), or undefined. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A decimal string or a number at `path`; null for anything else (missing, null, an object). */
export function figureAt(report: unknown, path: string): Figure {
  const value = readPath(report, path);
  return typeof value === 'string' || typeof value === 'number' ? value : null;
}
