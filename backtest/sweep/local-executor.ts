/**
 * Runs a batch of sweep jobs on this machine: at most `concurrency` in flight through the injected runner
 * (the worker-thread pool in production), results in job order. A job with a walk-forward window replays
 * the window's slice of the tape, cut once into `slices` (a temporary folder by default, deleted by
 * `close`). A run that throws is recorded as failed, with error.txt in its folder, and the batch goes on.
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TradebotError } from '../../src/errors.ts';
import { SliceCache } from '../walk-forward/slice-cache.ts';
import { errorText, failureOf } from './failure.ts';
import type { SweepProgress } from './progress.ts';
import type { RunOutcome, SweepExecutor, SweepJob, SweepRunner } from './types.ts';

export interface LocalExecutorOptions {
  readonly runner: SweepRunner;
  /** Runs in flight at once (the worker count). */
  readonly concurrency: number;
  /** Milliseconds clock for run durations (default `performance.now`). */
  readonly now?: () => number;
}

export interface LocalExecutor extends SweepExecutor {
  close(): Promise<void>;
}

async function runOne(job: SweepJob, runner: SweepRunner, now: () => number, slices: () => SliceCache): Promise<RunOutcome> {
  const started = now();
  await mkdir(job.dir, { recursive: true });
  const slice = job.window === undefined ? undefined : await slices().acquire(job.data, job.window);
  try {
    const { report } = await runner(slice === undefined ? job : { ...job, data: slice.file });
    if (typeof report !== 'object' || report === null) throw new TradebotError('SWEEP_NO_REPORT', 'the run returned no report object');
    return { job, ok: true, report, durationMs: now() - started };
  } catch (error) {
    const failure = failureOf(error);
    await writeFile(path.join(job.dir, 'error.txt'), errorText(failure, error instanceof Error ? error.stack : undefined), 'utf8');
    return { job, ok: false, error: failure, durationMs: now() - started };
  } finally {
    slice?.release();
  }
}

export function createLocalExecutor(options: LocalExecutorOptions): LocalExecutor {
  const now = options.now ?? (() => performance.now());
  let cache: SliceCache | undefined;
  const slices = () => (cache ??= new SliceCache(mkdtempSync(path.join(tmpdir(), 'tradebot-slices-'))));
  const lanes = (jobs: number) => Math.max(1, Math.min(options.concurrency, jobs));
  return {
    where: (jobs) => `${lanes(jobs)} worker${lanes(jobs) === 1 ? '' : 's'}`,
    async runJobs(jobs, progress: SweepProgress) {
      const outcomes: RunOutcome[] = new Array<RunOutcome>(jobs.length);
      let next = 0;
      let done = 0;
      let running = 0;
      const lane = async (): Promise<void> => {
        for (let i = next++; i < jobs.length; i = next++) {
          const job = jobs[i];
          if (job === undefined) continue;
          progress.active(++running);
          const outcome = await runOne(job, options.runner, now, slices);
          progress.active(--running);
          outcomes[i] = outcome;
          progress.runDone(outcome, ++done, jobs.length);
        }
      };
      await Promise.all(Array.from({ length: lanes(jobs.length) }, lane));
      return outcomes;
    },
    close: async () => cache?.close(),
  };
}
