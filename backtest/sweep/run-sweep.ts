/**
 * Runs a parameter sweep: expands the grid over the base params, runs every combination through the
 * injected runner with at most `concurrency` runs in flight, and writes the results under `out`:
 *   runs/<id>/report.json, run.json, report.html   (written by the runner as `tradebot backtest` does; error.txt for a failed run)
 *   ranking.csv, ranking.html             (ranked by `rankBy`)
 *   sweep.json                            (what was swept and every run's status)
 * A run that throws is recorded as failed and the sweep goes on.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspect } from 'node:util';
import { describeError, isTradebotError, TradebotError } from '../../src/errors.ts';
import { toCsv } from './csv.ts';
import { expandGrid, mergeParams } from './expand.ts';
import type { Grid } from './grid.ts';
import { silentProgress, type SweepProgress } from './progress.ts';
import { renderRankingHtml } from './ranking-html.ts';
import { rankingTable, rankRuns, type RankedRun } from './ranking.ts';
import type { ParamSet, RunFailure, RunOutcome, SweepJob, SweepRunner } from './types.ts';

export interface SweepOptions {
  readonly strategy: string;
  readonly data: string;
  readonly config?: string;
  readonly grid: Grid;
  readonly baseParams?: ParamSet;
  readonly out: string;
  readonly runner: SweepRunner;
  /** Runs in flight at once (the worker count). */
  readonly concurrency: number;
  /** Dotted report.json path to rank by (default `pnl.total`: PnL net of fees, meaningful for any length of data). */
  readonly rankBy?: string;
  readonly ascending?: boolean;
  /** Replace the runs of an earlier sweep in `out` instead of refusing. */
  readonly overwrite?: boolean;
  readonly maxRuns?: number;
  readonly progress?: SweepProgress;
  /** Milliseconds clock for run durations (default `performance.now`). */
  readonly now?: () => number;
}

export interface SweepSummary {
  readonly runs: number;
  readonly ok: number;
  readonly failed: number;
  readonly ranking: readonly RankedRun[];
  readonly files: { readonly csv: string; readonly html: string; readonly json: string };
}

function failureOf(error: unknown): RunFailure {
  if (isTradebotError(error)) return { code: error.code, message: error.message };
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (error instanceof Error && typeof code === 'string') return { code, message: error.message };
  return {
    code: 'SWEEP_RUN_FAILED',
    message: error instanceof Error ? describeError(error) : inspect(error, { depth: 4, breakLength: Infinity }),
  };
}

async function prepareOut(out: string, overwrite: boolean): Promise<string> {
  const runsDir = path.join(out, 'runs');
  if (existsSync(runsDir) && readdirSync(runsDir).length > 0) {
    if (!overwrite)
      throw new TradebotError(
        'SWEEP_OUT_NOT_EMPTY',
        `${runsDir} holds runs of an earlier sweep: choose another --out, delete it, or pass --force to replace them`,
        { kind: 'config' },
      );
    await rm(runsDir, { recursive: true, force: true });
  }
  await mkdir(runsDir, { recursive: true });
  return runsDir;
}

function jobsFor(options: SweepOptions, runsDir: string): SweepJob[] {
  const combos = expandGrid(options.grid, options.maxRuns);
  const width = String(combos.length).length;
  return combos.map((combo, i) => {
    const id = String(i + 1).padStart(Math.max(3, width), '0');
    return {
      run: i + 1,
      id,
      dir: path.join(runsDir, id),
      strategy: options.strategy,
      data: options.data,
      ...(options.config === undefined ? {} : { config: options.config }),
      combo,
      params: mergeParams(options.baseParams ?? {}, combo),
    };
  });
}

async function runOne(job: SweepJob, runner: SweepRunner, now: () => number): Promise<RunOutcome> {
  const started = now();
  await mkdir(job.dir, { recursive: true });
  try {
    const { report } = await runner(job);
    if (typeof report !== 'object' || report === null) throw new TradebotError('SWEEP_NO_REPORT', 'the run returned no report object');
    return { job, ok: true, report, durationMs: now() - started };
  } catch (error) {
    const failure = failureOf(error);
    const detail = error instanceof Error && error.stack !== undefined ? `\n\n${error.stack}` : '';
    await writeFile(path.join(job.dir, 'error.txt'), `${failure.code}: ${failure.message}${detail}\n`, 'utf8');
    return { job, ok: false, error: failure, durationMs: now() - started };
  }
}

/** Runs `jobs` with at most `concurrency` in flight; results in job order. */
async function runAll(jobs: readonly SweepJob[], options: SweepOptions, progress: SweepProgress, now: () => number): Promise<RunOutcome[]> {
  const outcomes: RunOutcome[] = new Array<RunOutcome>(jobs.length);
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < jobs.length; i = next++) {
      const job = jobs[i];
      if (job === undefined) continue;
      const outcome = await runOne(job, options.runner, now);
      outcomes[i] = outcome;
      progress.runDone(outcome, ++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, jobs.length)) }, lane));
  return outcomes;
}

function gridSummary(grid: Grid): string {
  return Object.entries(grid)
    .map(([name, values]) => `${name}: ${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`)
    .join(' · ');
}

export async function runSweep(options: SweepOptions): Promise<SweepSummary> {
  const rankBy = options.rankBy ?? 'pnl.total';
  const now = options.now ?? (() => performance.now());
  const progress = options.progress ?? silentProgress;
  const runsDir = await prepareOut(options.out, options.overwrite === true);
  const jobs = jobsFor(options, runsDir);

  progress.start(jobs.length, Math.max(1, Math.min(options.concurrency, jobs.length)));
  let outcomes: RunOutcome[];
  try {
    outcomes = await runAll(jobs, options, progress, now);
  } finally {
    progress.stop();
  }

  const ranking = rankRuns(outcomes, { rankBy, ascending: options.ascending === true });
  const table = rankingTable(ranking, Object.keys(options.grid), rankBy);
  const failed = outcomes.filter((o) => !o.ok).length;
  const files = {
    csv: path.join(options.out, 'ranking.csv'),
    html: path.join(options.out, 'ranking.html'),
    json: path.join(options.out, 'sweep.json'),
  };
  await writeFile(files.csv, toCsv(table.columns, table.rows), 'utf8');
  await writeFile(
    files.html,
    renderRankingHtml({
      strategy: options.strategy,
      data: options.data,
      rankBy,
      ascending: options.ascending === true,
      runs: jobs.length,
      failed,
      gridSummary: gridSummary(options.grid),
      table,
    }),
    'utf8',
  );
  const sweep = {
    strategy: options.strategy,
    data: options.data,
    config: options.config ?? null,
    grid: options.grid,
    baseParams: options.baseParams ?? {},
    rankBy,
    ascending: options.ascending === true,
    runs: ranking.map(({ rank, metric, outcome }) => ({
      run: outcome.job.id,
      rank,
      status: outcome.ok ? 'ok' : 'error',
      metric,
      params: outcome.job.params,
      ...(outcome.ok ? {} : { error: outcome.error }),
    })),
  };
  await writeFile(files.json, `${JSON.stringify(sweep, null, 2)}\n`, 'utf8');
  return { runs: jobs.length, ok: jobs.length - failed, failed, ranking, files };
}
