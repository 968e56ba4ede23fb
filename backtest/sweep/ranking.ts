/**
 * Ranks a sweep's runs by a report metric (highest first, or lowest with `ascending`), ties broken by run
 * number. Runs without a value for the metric follow the ranked ones (a sortino left null because no interval
 * lost money counts as +Infinity when the run made money: metric.ts); failed runs come last, unranked,
 * with their error. `rankingTable` lays the result out as the columns of ranking.csv and ranking.html:
 * rank, run, status, the metric, the swept params, the other key figures, error, report link.
 */
import { readPath } from '../report/read-path.ts';
import { metricValue } from './metric.ts';
import type { RunOutcome } from './types.ts';

export interface RankedRun {
  /** 1-based; null for failed runs. */
  readonly rank: number | null;
  readonly metric: number | null;
  readonly outcome: RunOutcome;
}

export interface RankOptions {
  readonly rankBy: string;
  readonly ascending?: boolean;
}

export function rankRuns(outcomes: readonly RunOutcome[], options: RankOptions): RankedRun[] {
  const sign = options.ascending === true ? 1 : -1;
  const withMetric = outcomes.map((outcome) => ({ outcome, metric: outcome.ok ? metricValue(outcome.report, options.rankBy) : null }));
  const order = (a: (typeof withMetric)[number], b: (typeof withMetric)[number]): number => {
    const group = (x: typeof a) => (!x.outcome.ok ? 2 : x.metric === null ? 1 : 0);
    return (
      group(a) - group(b) ||
      (a.metric !== null && b.metric !== null ? sign * (a.metric - b.metric) : 0) ||
      a.outcome.job.run - b.outcome.job.run
    );
  };
  let rank = 0;
  return [...withMetric].sort(order).map(({ outcome, metric }) => ({ outcome, metric, rank: outcome.ok ? ++rank : null }));
}

/** Report fields every ranking shows, after the ranking metric. */
export const FIGURE_COLUMNS = [
  'pnl.total',
  'pnl.realized',
  'pnl.unrealized',
  'fees',
  'maxDrawdown',
  'sharpe',
  'sortino',
  'turnover',
  'fills',
  'orders',
  'refusals',
  'events',
] as const;

export interface RankingTable {
  readonly columns: readonly string[];
  /** Cells as text, one array per ranked run, in `columns` order. */
  readonly rows: readonly (readonly string[])[];
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

function figureText(report: unknown, column: string): string {
  const value = readPath(report, column);
  // a sortino the report leaves null for a run without a losing interval ranks as +Infinity: say so
  if (value === null && metricValue(report, column) === Number.POSITIVE_INFINITY) return 'Infinity';
  // Refusals are counted by code in report.json; the table shows their total.
  if (column === 'refusals' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return String(Object.values(value as Record<string, unknown>).reduce<number>((sum, n) => sum + (typeof n === 'number' ? n : 0), 0));
  }
  return cellText(value);
}

export function rankingTable(ranked: readonly RankedRun[], paramNames: readonly string[], rankBy: string): RankingTable {
  const figures = [rankBy, ...FIGURE_COLUMNS.filter((c) => c !== rankBy)];
  // The metric, then the swept params beside it (what a reader compares), then the other figures.
  const columns = ['rank', 'run', 'status', rankBy, ...paramNames.map((p) => `param.${p}`), ...figures.slice(1), 'error', 'report'];
  const rows = ranked.map(({ rank, outcome }) => {
    const report = outcome.ok ? outcome.report : undefined;
    return [
      rank === null ? '' : String(rank),
      outcome.job.id,
      outcome.ok ? 'ok' : 'error',
      figureText(report, rankBy),
      ...paramNames.map((p) => cellText(outcome.job.combo[p])),
      ...figures.slice(1).map((c) => figureText(report, c)),
      outcome.ok ? '' : `${outcome.error.code}: ${outcome.error.message}`,
      outcome.ok ? `runs/${outcome.job.id}/report.html` : '',
    ];
  });
  return { columns, rows };
}
