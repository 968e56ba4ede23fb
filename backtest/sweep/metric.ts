/**
 * Reads the ranking metric from a report by dotted path (`sharpe`, `pnl.total`, `refusals.RISK_MAX_POSITION`):
 * decimal strings and numbers become numbers for ordering; anything else (missing, null, text) is no value.
 */
import { readPath } from '../report/read-path.ts';

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
