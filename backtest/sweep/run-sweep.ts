/**
 * Runs a parameter sweep: expands the grid over the base params, runs every combination through an
 * executor (the injected runner with at most `concurrency` runs in flight on this machine, or a queue's
 * workers), and writes the results under `out`:
 *   runs/<id>/report.json, run.json, report.html   (written as `tradebot backtest` does; error.txt for a failed run)
 *   ranking.csv, ranking.html             (ranked by `rankBy`)
 *   sweep.json                            (what was swept and every run's status)
 * A run that throws is recorded as failed and the sweep goes on.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { TradebotError } from '../../src/errors.ts';
import type { Grid } from './grid.ts';
import { sweepJobs } from './jobs.ts';
import { createLocalExecutor } from './local-executor.ts';
import { silentProgress, type SweepProgress } from './progress.ts';
import type { RankedRun } from './ranking.ts';
import { writeSweepFiles, type SweepFiles } from './sweep-files.ts';
import type { ParamSet, SweepExecutor, SweepRunner } from './types.ts';

export interface SweepOptions {
  readonly strategy: string;
  readonly data: string;
  readonly config?: string;
  readonly grid: Grid;
  readonly baseParams?: ParamSet;
  readonly out: string;
  /** Runs one job on this machine (ignored with `executor`). */
  readonly runner?: SweepRunner;
  /** Runs in flight at once (the worker count; ignored with `executor`). */
  readonly concurrency?: number;
  /** Who runs the jobs instead of `runner` on this machine (a queue's coordinator). */
  readonly executor?: SweepExecutor;
  /** Dotted report.json path to rank by (default `pnl.total`: PnL net of fees, meaningful for any length of data). */
  readonly rankBy?: string;
  readonly ascending?: boolean;
  /** Replace the runs of an earlier sweep in `out` instead of refusing. */
  readonly overwrite?: boolean;
  /** Keep the runs already in `out` (a resumed queued sweep: its executor skips the finished ones). */
  readonly keepRuns?: boolean;
  readonly maxRuns?: number;
  readonly progress?: SweepProgress;
  /** Milliseconds clock for run durations (default `performance.now`). */
  readonly now?: () => number;
  /** Extra fields of sweep.json. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface SweepSummary {
  readonly runs: number;
  readonly ok: number;
  readonly failed: number;
  readonly ranking: readonly RankedRun[];
  readonly files: SweepFiles;
}

/** `<out>/runs`, created; an earlier sweep's runs refused, replaced or kept. */
export async function prepareOut(out: string, existing: 'refuse' | 'replace' | 'keep'): Promise<string> {
  const runsDir = path.join(out, 'runs');
  if (existing !== 'keep' && existsSync(runsDir) && readdirSync(runsDir).length > 0) {
    if (existing === 'refuse')
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

function executorOf(options: SweepOptions): { executor: SweepExecutor; close(): Promise<void> } {
  if (options.executor !== undefined) return { executor: options.executor, close: async () => {} };
  if (options.runner === undefined) throw new TradebotError('SWEEP_NO_RUNNER', 'runSweep needs a runner or an executor');
  const local = createLocalExecutor({
    runner: options.runner,
    concurrency: options.concurrency ?? 1,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { executor: local, close: () => local.close() };
}

export async function runSweep(options: SweepOptions): Promise<SweepSummary> {
  const rankBy = options.rankBy ?? 'pnl.total';
  const progress = options.progress ?? silentProgress;
  const runsDir = await prepareOut(options.out, options.keepRuns === true ? 'keep' : options.overwrite === true ? 'replace' : 'refuse');
  const jobs = sweepJobs(options, runsDir);
  const { executor, close } = executorOf(options);
  let outcomes;
  try {
    progress.start(jobs.length, executor.where(jobs.length));
    try {
      outcomes = await executor.runJobs(jobs, progress);
    } finally {
      progress.stop();
    }
  } finally {
    await close();
  }
  const { ranking, files, failed } = await writeSweepFiles(
    {
      out: options.out,
      strategy: options.strategy,
      data: options.data,
      ...(options.config === undefined ? {} : { config: options.config }),
      grid: options.grid,
      ...(options.baseParams === undefined ? {} : { baseParams: options.baseParams }),
      rankBy,
      ascending: options.ascending === true,
      ...(options.extra === undefined ? {} : { extra: options.extra }),
    },
    outcomes,
  );
  return { runs: jobs.length, ok: jobs.length - failed, failed, ranking, files };
}
