/**
 * Walk-forward validation of a parameter grid: the tape is cut into consecutive windows (spec.ts); the whole
 * grid runs on each window's training stretch (in sample) and is ranked there; the best combination then runs
 * on the test stretch that follows (out of sample); the out-of-sample runs are stitched into one result. All
 * runs go through the sweep's executor, on this machine or a queue's workers alike. Out folder:
 *   windows/<nn>/runs/<id>/…, ranking.csv, ranking.html, sweep.json   each window's in-sample sweep
 *   windows/<nn>/out-of-sample/report.json, run.json, report.html, series.json   its best combination, out of sample
 *   out-of-sample/report.json, report.html   the stitched out-of-sample result
 *   walk-forward.json, walk-forward.csv, walk-forward.html   per window: best params, in-sample and out-of-sample metric, gap
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { TradebotError } from '../../src/errors.ts';
import { readPath } from '../report/read-path.ts';
import type { BacktestSeries } from '../report/backtest-result.ts';
import { SERIES_JSON } from '../sweep/backtest-job.ts';
import { DEFAULT_MAX_RUNS, gridSize } from '../sweep/expand.ts';
import type { Grid } from '../sweep/grid.ts';
import { sweepJobs } from '../sweep/jobs.ts';
import { metricValue } from '../sweep/metric.ts';
import { silentProgress, type SweepProgress } from '../sweep/progress.ts';
import type { RankedRun } from '../sweep/ranking.ts';
import { writeSweepFiles, type SweepFilesOptions } from '../sweep/sweep-files.ts';
import type { ParamSet, RunOutcome, SweepExecutor, SweepJob } from '../sweep/types.ts';
import { readTradeHeader } from './slice.ts';
import { walkForwardWindows, type WalkForwardSpec, type WalkForwardWindow } from './spec.ts';
import { stitchOutOfSample, writeStitched, type OutOfSampleSegment } from './stitch.ts';
import { gapOf, writeWalkForwardFiles, type WindowRow } from './summary-files.ts';

export interface WalkForwardOptions {
  readonly strategy: string;
  readonly data: string;
  readonly config?: string;
  readonly grid: Grid;
  readonly baseParams?: ParamSet;
  readonly out: string;
  readonly spec: WalkForwardSpec;
  readonly executor: SweepExecutor;
  readonly rankBy?: string;
  readonly ascending?: boolean;
  /** What to do with an earlier walk-forward's results in `out` (a resumed queued one keeps them). */
  readonly existing?: 'refuse' | 'replace' | 'keep';
  readonly maxRuns?: number;
  readonly progress?: SweepProgress;
  /** Extra fields of each window's sweep.json. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface WalkForwardSummary {
  readonly windows: readonly WindowRow[];
  readonly runs: number;
  readonly failed: number;
  readonly outOfSample: { readonly report: string; readonly html: string; readonly figures: Readonly<Record<string, unknown>> } | null;
  readonly files: { readonly json: string; readonly csv: string; readonly html: string };
}

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (ms: number) => new Date(ms).toISOString();
const rel = (out: string, file: string) => path.relative(out, file).split(path.sep).join('/');

async function prepare(out: string, existing: 'refuse' | 'replace' | 'keep'): Promise<void> {
  const dirs = ['windows', 'out-of-sample'].map((d) => path.join(out, d));
  if (existing !== 'keep' && dirs.some((d) => existsSync(d) && readdirSync(d).length > 0)) {
    if (existing === 'refuse')
      throw new TradebotError(
        'SWEEP_OUT_NOT_EMPTY',
        `${out} holds an earlier walk-forward: choose another --out, delete it, or pass --force to replace it`,
        { kind: 'config' },
      );
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
  await mkdir(out, { recursive: true });
}

/** Runs `jobs` through the executor between progress start and stop. */
async function runPhase(executor: SweepExecutor, jobs: readonly SweepJob[], progress: SweepProgress, what: string): Promise<RunOutcome[]> {
  progress.note(what);
  progress.start(jobs.length, executor.where(jobs.length));
  try {
    return await executor.runJobs(jobs, progress);
  } finally {
    progress.stop();
  }
}

function outOfSampleJob(options: WalkForwardOptions, window: WalkForwardWindow, best: RankedRun): SweepJob {
  return {
    run: 1,
    id: 'out-of-sample',
    label: `w${pad(window.index)}/out-of-sample`,
    dir: path.join(options.out, 'windows', pad(window.index), 'out-of-sample'),
    strategy: options.strategy,
    data: options.data,
    ...(options.config === undefined ? {} : { config: options.config }),
    window: window.test,
    series: true,
    combo: best.outcome.job.combo,
    params: best.outcome.job.params,
  };
}

interface Context {
  readonly options: WalkForwardOptions;
  readonly rankBy: string;
  readonly ascending: boolean;
  readonly progress: SweepProgress;
  readonly common: Pick<SweepFilesOptions, 'strategy' | 'data' | 'config' | 'grid' | 'baseParams'>;
}

interface RankedWindow {
  readonly window: WalkForwardWindow;
  readonly best: RankedRun | undefined;
  /** The window's ranking.html. */
  readonly ranking: string;
}

/** The windows of the tape, refused beyond the run limit. */
async function windowsOf(options: WalkForwardOptions): Promise<WalkForwardWindow[]> {
  const header = await readTradeHeader(options.data);
  const windows = walkForwardWindows(options.spec, header.from, header.to);
  const combos = gridSize(options.grid);
  const total = windows.length * (combos + 1);
  const maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
  if (total > maxRuns)
    throw new TradebotError(
      'SWEEP_GRID_TOO_LARGE',
      `${windows.length} windows × (${combos} combinations + 1) make ${total} runs, more than the limit of ${maxRuns}: ` +
        'trim the grid or lengthen the step',
      { kind: 'config' },
    );
  return windows;
}

/** In sample: the whole grid on every training window, all queued at once; each window ranked in its own folder. */
async function inSamplePhase(
  ctx: Context,
  windows: readonly WalkForwardWindow[],
): Promise<{ ranked: RankedWindow[]; outcomes: RunOutcome[] }> {
  const { options } = ctx;
  const perWindow = windows.map((w) => {
    const dir = path.join(options.out, 'windows', pad(w.index));
    return { window: w, dir, jobs: sweepJobs({ ...ctx.common, window: w.train, labelPrefix: `w${pad(w.index)}` }, path.join(dir, 'runs')) };
  });
  const what = `walk-forward ${options.spec.text}: ${windows.length} windows; in sample, ${gridSize(options.grid)} combinations each`;
  const outcomes = await runPhase(
    options.executor,
    perWindow.flatMap((w) => w.jobs),
    ctx.progress,
    what,
  );
  let at = 0;
  const ranked: RankedWindow[] = [];
  for (const w of perWindow) {
    const mine = outcomes.slice(at, (at += w.jobs.length));
    const extra = options.extra === undefined ? {} : { extra: options.extra };
    const files = { ...ctx.common, out: w.dir, rankBy: ctx.rankBy, ascending: ctx.ascending, window: w.window.train, ...extra };
    const { ranking, files: written } = await writeSweepFiles(files, mine);
    ranked.push({ window: w.window, best: ranking[0]?.outcome.ok === true ? ranking[0] : undefined, ranking: written.html });
  }
  return { ranked, outcomes };
}

/** Out of sample: each window's best combination on the test window after it; outcomes by window index. */
async function outOfSamplePhase(ctx: Context, ranked: readonly RankedWindow[]): Promise<Map<number, RunOutcome>> {
  const withBest = ranked.filter((w) => w.best !== undefined);
  const jobs = withBest.map((w) => outOfSampleJob(ctx.options, w.window, w.best as RankedRun));
  if (jobs.length === 0) return new Map();
  const outcomes = await runPhase(ctx.options.executor, jobs, ctx.progress, `walk-forward: out of sample, ${jobs.length} windows`);
  return new Map(withBest.map((w, i) => [w.window.index, outcomes[i] as RunOutcome]));
}

function rowOf(ctx: Context, w: RankedWindow, outcome: RunOutcome | undefined): WindowRow {
  const inMetric = w.best?.metric ?? null;
  const outMetric = outcome?.ok === true ? metricValue(outcome.report, ctx.rankBy) : null;
  const error =
    w.best === undefined
      ? 'every in-sample run failed'
      : outcome?.ok === false
        ? `${outcome.error.code}: ${outcome.error.message.split('\n')[0] ?? ''}`
        : undefined;
  return {
    window: w.window.index,
    train: { from: iso(w.window.train.from), to: iso(w.window.train.to) },
    test: { from: iso(w.window.test.from), to: iso(w.window.test.to) },
    best: w.best?.outcome.job.id ?? null,
    params: w.best === undefined ? null : { ...w.best.outcome.job.combo },
    inSample: inMetric,
    outOfSample: outMetric,
    gap: gapOf(inMetric, outMetric, ctx.ascending),
    inSamplePnl: w.best?.outcome.ok === true ? textOf(readPath(w.best.outcome.report, 'pnl.total')) : null,
    outOfSamplePnl: outcome?.ok === true ? textOf(readPath(outcome.report, 'pnl.total')) : null,
    ranking: rel(ctx.options.out, w.ranking),
    report: outcome?.ok === true ? rel(ctx.options.out, path.join(outcome.job.dir, 'report.html')) : null,
    ...(error === undefined ? {} : { error }),
  };
}

/** The out-of-sample runs stitched into `<out>/out-of-sample/`, or null when no window has one. */
async function stitchPhase(
  ctx: Context,
  ranked: readonly RankedWindow[],
  oos: ReadonlyMap<number, RunOutcome>,
): Promise<WalkForwardSummary['outOfSample']> {
  const segments: OutOfSampleSegment[] = [];
  for (const w of ranked) {
    const outcome = oos.get(w.window.index);
    if (outcome?.ok !== true) continue;
    const series = JSON.parse(await readFile(path.join(outcome.job.dir, SERIES_JSON), 'utf8')) as BacktestSeries;
    const run = rel(ctx.options.out, outcome.job.dir);
    segments.push({ window: w.window.index, test: w.window.test, combo: outcome.job.combo, run, report: outcome.report, series });
  }
  if (segments.length === 0) return null;
  const stitched = stitchOutOfSample(segments, { spec: ctx.options.spec.text, data: ctx.options.data, rankBy: ctx.rankBy });
  const written = await writeStitched(path.join(ctx.options.out, 'out-of-sample'), stitched);
  const figures = Object.fromEntries(STITCHED_FIGURES.map((k) => [k, readPath(stitched.report, k) ?? null]));
  return { report: written.json, html: written.html, figures };
}

/** The stitched report's figures in the summary line and walk-forward.json. */
const STITCHED_FIGURES = ['pnl.total', 'sharpe', 'sortino', 'maxDrawdown', 'fills'];

export async function runWalkForward(options: WalkForwardOptions): Promise<WalkForwardSummary> {
  const ctx: Context = {
    options,
    rankBy: options.rankBy ?? 'pnl.total',
    ascending: options.ascending === true,
    progress: options.progress ?? silentProgress,
    common: {
      strategy: options.strategy,
      data: options.data,
      ...(options.config === undefined ? {} : { config: options.config }),
      grid: options.grid,
      ...(options.baseParams === undefined ? {} : { baseParams: options.baseParams }),
    },
  };
  const windows = await windowsOf(options);
  await prepare(options.out, options.existing ?? 'refuse');
  const { ranked, outcomes } = await inSamplePhase(ctx, windows);
  const oos = await outOfSamplePhase(ctx, ranked);
  const rows = ranked.map((w) => rowOf(ctx, w, oos.get(w.window.index)));
  const outOfSample = await stitchPhase(ctx, ranked, oos);
  const stitched = outOfSample === null ? null : { report: rel(options.out, outOfSample.html), figures: outOfSample.figures };
  const files = await writeWalkForwardFiles(
    {
      out: options.out,
      strategy: options.strategy,
      data: options.data,
      spec: options.spec.text,
      rankBy: ctx.rankBy,
      ascending: ctx.ascending,
      stitched,
    },
    rows,
  );
  const all = [...outcomes, ...oos.values()];
  return { windows: rows, runs: all.length, failed: all.filter((o) => !o.ok).length, outOfSample, files };
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}
