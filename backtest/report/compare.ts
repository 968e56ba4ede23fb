/**
 * `tradebot report compare`: the key figures of several backtest runs side by side (one column a run), and
 * what differs between them: the params (flattened to dotted names) and the backtest config (latency,
 * commissions, fill model...), each row only when the runs do not all agree. Pure: from report.json objects
 * to text cells; the terminal table and the HTML page (compare-html.ts) lay the same rows out.
 */
import { periodText } from '../metrics/ratio-period.ts';
import { queueModelText } from '../results/summary.ts';
import type { BacktestReport } from './backtest-result.ts';
import { readPath } from './read-path.ts';

export interface ComparedRun {
  /** A short name for the column (the folder's name, made unique). */
  readonly name: string;
  /** The folder holding report.json. */
  readonly dir: string;
  readonly report: BacktestReport;
}

export interface ComparisonRow {
  readonly label: string;
  /** One cell per run, in the runs' order ('' when the run has no value). */
  readonly values: readonly string[];
}

export interface Comparison {
  readonly runs: readonly string[];
  readonly figures: readonly ComparisonRow[];
  /** Params whose values differ between the runs (or that only some runs have). */
  readonly params: readonly ComparisonRow[];
  /** Backtest config keys whose values differ. */
  readonly config: readonly ComparisonRow[];
}

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

function refusalTotal(report: BacktestReport): string {
  const refusals = readPath(report, 'refusals');
  if (typeof refusals !== 'object' || refusals === null) return '';
  return String(Object.values(refusals as Record<string, unknown>).reduce<number>((n, v) => n + (typeof v === 'number' ? v : 0), 0));
}

function ratioBasis(report: BacktestReport): string {
  const periodMs = readPath(report, 'returns.periodMs');
  if (typeof periodMs !== 'number') return '';
  const annualised = readPath(report, 'returns.annualised') === true ? 'annualised' : 'not annualised';
  return `${text(readPath(report, 'returns.count'))} returns of ${periodText(periodMs)}, ${annualised}`;
}

function settlements(report: BacktestReport): string {
  const settled = readPath(report, 'settlements');
  const open = readPath(report, 'unsettled');
  const parts = [
    ...(Array.isArray(settled) ? (settled as Record<string, unknown>[]) : []).map(
      (s) => `${text(s['symbol'])} ${text(s['price'])} (${text(s['source'])})`,
    ),
    ...(Array.isArray(open) ? (open as Record<string, unknown>[]) : []).map((u) => `${text(u['symbol'])} unsettled`),
  ];
  return parts.join('; ');
}

/** The key figures compared, each a label and how to read it from a report. */
const FIGURES: readonly (readonly [string, (r: BacktestReport) => string])[] = [
  ['strategy', (r) => text(readPath(r, 'strategy'))],
  ['data', (r) => text(readPath(r, 'data.file'))],
  ['from', (r) => text(readPath(r, 'data.from'))],
  ['to', (r) => text(readPath(r, 'data.to'))],
  ['PnL total', (r) => text(readPath(r, 'pnl.total'))],
  ['realized', (r) => text(readPath(r, 'pnl.realized'))],
  ['unrealized', (r) => text(readPath(r, 'pnl.unrealized'))],
  ['fees', (r) => text(readPath(r, 'fees'))],
  ['max drawdown', (r) => text(readPath(r, 'maxDrawdown'))],
  ['max drawdown fraction', (r) => text(readPath(r, 'maxDrawdownFraction'))],
  ['sharpe', (r) => text(readPath(r, 'sharpe'))],
  ['sortino', (r) => text(readPath(r, 'sortino'))],
  ['ratios from', ratioBasis],
  ['fills', (r) => text(readPath(r, 'fills'))],
  ['orders', (r) => text(readPath(r, 'orders'))],
  ['turnover', (r) => text(readPath(r, 'turnover'))],
  ['refusals', refusalTotal],
  ['settlements', settlements],
  ['trade-through', (r) => text(readPath(r, 'realism.fillModel.tradeThrough') ?? readPath(r, 'config.tradeThrough'))],
  ['queue ahead', (r) => queueModelText(readPath(r, 'config.queueAheadModel'))],
  ['book updates', (r) => text(readPath(r, 'realism.bookUpdates') ?? readPath(r, 'bookEvents'))],
  ['events', (r) => text(readPath(r, 'events'))],
];

/** Leaves of a JSON value as dotted names (arrays are one leaf, as JSON text). */
function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>))
      flatten(child, prefix === '' ? key : `${prefix}.${key}`, out);
    return;
  }
  if (prefix !== '') out.set(prefix, text(value));
}

/** Rows of the dotted names whose values are not the same in every run (missing counts as different). */
function differences(objects: readonly unknown[]): ComparisonRow[] {
  const flat = objects.map((o) => {
    const map = new Map<string, string>();
    flatten(o, '', map);
    return map;
  });
  const names = [...new Set(flat.flatMap((m) => [...m.keys()]))].sort();
  return names
    .map((label) => ({ label, values: flat.map((m) => m.get(label) ?? '') }))
    .filter((row) => flat.some((m) => !m.has(row.label)) || new Set(row.values).size > 1);
}

/** Column names from the folders' names, suffixed `#2`, `#3` when two are the same. */
export function runNames(dirs: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return dirs.map((dir) => {
    const base =
      dir
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .at(-1) || dir;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} #${n}`;
  });
}

export function compareRuns(runs: readonly ComparedRun[]): Comparison {
  return {
    runs: runs.map((r) => r.name),
    figures: FIGURES.map(([label, read]) => ({ label, values: runs.map((r) => read(r.report)) })),
    params: differences(runs.map((r) => readPath(r.report, 'params') ?? {})),
    config: differences(runs.map((r) => readPath(r.report, 'config') ?? {})),
  };
}

/** Lays rows out as aligned text columns (labels left, values right), a header of the run names. */
function textTable(runs: readonly string[], rows: readonly ComparisonRow[]): string[] {
  const widths = [
    Math.max(...rows.map((r) => r.label.length), 0),
    ...runs.map((name, i) => Math.max(name.length, ...rows.map((r) => (r.values[i] ?? '').length || 1))),
  ];
  const line = (label: string, cells: readonly string[]) =>
    [label.padEnd(widths[0] ?? 0), ...cells.map((c, i) => (c === '' ? '-' : c).padStart(widths[i + 1] ?? 0))].join('  ').trimEnd();
  return [line('', runs), ...rows.map((r) => line(r.label, r.values))];
}

/** The comparison for a terminal: the figures, then the params and config that differ (or a line saying none do). */
export function formatComparison(comparison: Comparison): string {
  const section = (title: string, rows: readonly ComparisonRow[], none: string) =>
    rows.length === 0 ? [`${title}: ${none}`] : [`${title}:`, ...textTable(comparison.runs, rows)];
  return `${[
    ...textTable(comparison.runs, comparison.figures),
    '',
    ...section('params that differ', comparison.params, 'none (the same params)'),
    '',
    ...section('config that differs', comparison.config, 'none (the same backtest config)'),
  ].join('\n')}\n`;
}
