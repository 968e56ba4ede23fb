/**
 * Reads the ranking metric from a report by dotted path (`sharpe`, `pnl.total`, `refusals.RISK_MAX_POSITION`):
 * decimal strings and numbers become numbers for ordering; anything else (missing, null, text) is no value.
 */

/** The value at a dotted path, or undefined. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The metric as a finite number, or null when the report has none there. */
export function metricValue(report: unknown, path: string): number | null {
  const raw = readPath(report, path);
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
