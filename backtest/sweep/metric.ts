/**
 * Reads the ranking metric from a report by dotted path (`sharpe`, `pnl.total`, `refusals.RISK_MAX_POSITION`):
 * decimal strings and numbers become numbers for ordering; anything else (missing, null, text) is no value.
 */
import { readPath } from '../report/read-path.ts';

/**
 * The metric as a number, or null when the report has none there. Sortino, which report.json leaves null
 * when no period lost money, is +Infinity for a run that made money without a losing period over enough
 * returns (`returns.minimum`; the best a sortino can be), so ranking by it puts that run first, not among the
 * runs without a value.
 */
export function metricValue(report: unknown, path: string): number | null {
  const raw = readPath(report, path);
  if (
    path === 'sortino' &&
    raw === null &&
    readPath(report, 'returns.losing') === 0 &&
    Number(readPath(report, 'returns.count')) >= Number(readPath(report, 'returns.minimum') ?? 2) &&
    Number(readPath(report, 'pnl.total')) > 0
  )
    return Number.POSITIVE_INFINITY;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
