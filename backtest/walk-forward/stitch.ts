/**
 * The stitched out-of-sample result of a walk-forward: one report.json and report.html for the test windows
 * run one after the other, each with the combination its training window ranked best. Money, counts and
 * refusals are the windows' sums; equity, drawdown, sharpe and sortino come from the joined equity curve
 * (stitch-series.ts); `windows` lists each window's span, params and figures. Deterministic: the same windows
 * give the same bytes wherever they ran (no wall-clock value).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Decimal, ZERO } from '../../src/domain/decimal.ts';
import { choosePeriod, enough, MIN_RETURNS, ratioReasons, scaleOf, sharpe, sortino } from '../metrics/index.ts';
import { readPath } from '../report/read-path.ts';
import type { BacktestReport, BacktestSeries } from '../report/backtest-result.ts';
import { writeHtmlReport } from '../report/write-report.ts';
import { stableStringify } from '../results/stable-json.ts';
import { metricValue } from '../sweep/metric.ts';
import type { ParamSet, TapeWindow } from '../sweep/types.ts';
import { stitchCurves } from './stitch-series.ts';

export interface OutOfSampleSegment {
  readonly window: number;
  readonly test: TapeWindow;
  readonly combo: ParamSet;
  /** The window's run folder, relative to the walk-forward's out folder. */
  readonly run: string;
  readonly report: BacktestReport;
  readonly series: BacktestSeries;
}

export interface StitchOptions {
  readonly spec: string;
  readonly data: string;
  readonly rankBy: string;
  readonly maxPoints?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const decimalAt = (report: BacktestReport, at: string): Decimal => {
  const value = readPath(report, at);
  return typeof value === 'string' || typeof value === 'number' ? new Decimal(value) : ZERO;
};
const numberAt = (report: BacktestReport, at: string): number => {
  const value = readPath(report, at);
  return typeof value === 'number' ? value : 0;
};
const sum = (segments: readonly OutOfSampleSegment[], at: string) => segments.reduce((s, x) => s.plus(decimalAt(x.report, at)), ZERO);
const count = (segments: readonly OutOfSampleSegment[], at: string) => segments.reduce((s, x) => s + numberAt(x.report, at), 0);
const fixed = (d: Decimal | undefined, places: number): string | null => (d === undefined ? null : d.toDecimalPlaces(places).toString());

/** Counts by key (refusals by code, requests by kind), summed over the windows. */
function sumCounts(segments: readonly OutOfSampleSegment[], at: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of segments) {
    const value = readPath(s.report, at);
    if (typeof value !== 'object' || value === null) continue;
    for (const [k, n] of Object.entries(value as Record<string, unknown>)) if (typeof n === 'number') out[k] = (out[k] ?? 0) + n;
  }
  return out;
}

/** A metric for JSON: a number, or its text when JSON has none for it (a sortino of +Infinity). */
export function jsonMetric(value: number | null): number | string | null {
  return value === null || Number.isFinite(value) ? value : String(value);
}

export function stitchOutOfSample(
  segments: readonly OutOfSampleSegment[],
  options: StitchOptions,
): { report: BacktestReport; series: BacktestSeries } {
  const first = segments[0];
  const last = segments.at(-1);
  if (first === undefined || last === undefined) throw new Error('stitchOutOfSample needs at least one window');
  const startingCash = decimalAt(first.report, 'equity.start');
  const intervalMs = numberAt(first.report, 'returns.intervalMs');
  // ratios over a period fitted to the joined span, as a backtest of that span would choose (ratio-period.ts)
  const period = choosePeriod(last.test.to - first.test.from, intervalMs);
  const curve = stitchCurves(
    segments.map((s) => ({ from: s.test.from, series: s.series })),
    startingCash,
    { intervalMs, periodMs: period.periodMs },
    options.maxPoints ?? 5000,
  );
  const ratios = {
    sharpe: enough(curve.returns, sharpe(curve.returns, scaleOf(period))),
    sortino: enough(curve.returns, sortino(curve.returns, scaleOf(period))),
  };
  const turnover = sum(segments, 'turnover');
  const events = count(segments, 'events');
  const marketSeconds = count(segments, 'marketSeconds');
  const report = {
    kind: 'walk-forward out-of-sample',
    walkForward: options.spec,
    rankBy: options.rankBy,
    strategy: first.report['strategy'],
    params: Object.fromEntries(segments.map((s) => [`window ${s.window} (${iso(s.test.from)} .. ${iso(s.test.to)})`, s.combo])),
    windows: segments.map((s) => ({
      window: s.window,
      from: iso(s.test.from),
      to: iso(s.test.to),
      params: s.combo,
      run: s.run,
      pnl: readPath(s.report, 'pnl.total') ?? null,
      [options.rankBy]: jsonMetric(metricValue(s.report, options.rankBy)),
    })),
    data: {
      file: path.basename(options.data),
      symbols: readPath(first.report, 'data.symbols') ?? [],
      from: iso(first.test.from),
      to: iso(last.test.to),
      windows: segments.length,
    },
    config: first.report['config'],
    pnl: {
      total: sum(segments, 'pnl.total').toString(),
      realized: sum(segments, 'pnl.realized').toString(),
      unrealized: sum(segments, 'pnl.unrealized').toString(),
    },
    equity: { start: startingCash.toString(), end: curve.end.toString() },
    fees: sum(segments, 'fees').toString(),
    turnover: turnover.toString(),
    turnoverRatio: startingCash.gt(0) ? fixed(turnover.div(startingCash), 6) : null,
    fills: count(segments, 'fills'),
    orders: count(segments, 'orders'),
    intents: count(segments, 'intents'),
    requests: sumCounts(segments, 'requests'),
    refusals: sumCounts(segments, 'refusals'),
    strategyErrors: count(segments, 'strategyErrors'),
    positions: last.report['positions'] ?? {},
    settlements: segments.flatMap((s) => (Array.isArray(s.report['settlements']) ? (s.report['settlements'] as unknown[]) : [])),
    maxDrawdown: curve.drawdown.maxAmount.toString(),
    maxDrawdownFraction: fixed(curve.drawdown.maxFraction, 6),
    sharpe: fixed(ratios.sharpe, 4),
    sortino: fixed(ratios.sortino, 4),
    returns: {
      period: period.period,
      periodMs: period.periodMs,
      annualised: period.annualised,
      periodsPerYear: period.periodsPerYear,
      count: curve.returns.count,
      losing: curve.returns.losing,
      minimum: MIN_RETURNS,
      intervalMs,
      whyNull: ratioReasons(curve.returns, period, ratios),
    },
    events,
    bookEvents: count(segments, 'bookEvents'),
    marketSeconds,
    eventsPerSecond: marketSeconds > 0 ? Math.round((events / marketSeconds) * 1000) / 1000 : null,
  };
  return { report, series: curve.series };
}

/** Writes `<dir>/report.json` (keys sorted) and `<dir>/report.html`. */
export async function writeStitched(
  dir: string,
  stitched: { report: BacktestReport; series: BacktestSeries },
): Promise<{ json: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'report.json');
  await writeFile(json, stableStringify(stitched.report), 'utf8');
  const html = await writeHtmlReport(dir, stitched);
  return { json, html };
}
