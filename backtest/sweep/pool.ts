/**
 * The production SweepRunner: a piscina pool of worker threads, one backtest per thread at a time, so a
 * sweep uses every core. Workers start from worker.mjs (registers tsx) and run `jobModule`'s
 * `runSweepJob` (default backtest-job.ts). A failed run comes back as an error with its code.
 */
import { Piscina } from 'piscina';
import { TradebotError } from '../../src/errors.ts';
import { COMPILED, packageModule } from '../../src/package/paths.ts';
import type { SweepRunner } from './types.ts';
import type { WorkerReply, WorkerTask } from './worker.ts';

/** Compiled: worker.js itself; from the sources: worker.mjs, which registers tsx in the worker thread first. */
export const WORKER_ENTRY = (COMPILED ? packageModule('backtest/sweep/worker.ts') : new URL('./worker.mjs', import.meta.url)).href;
export const DEFAULT_JOB_MODULE = packageModule('backtest/sweep/backtest-job.ts').href;

export interface WorkerRunnerOptions {
  /** Worker threads (at least 1). */
  readonly workers: number;
  /** file: URL of the module exporting `runSweepJob` (default backtest-job.ts). */
  readonly jobModule?: string;
}

export interface WorkerRunner {
  readonly run: SweepRunner;
  readonly threads: number;
  /** Thread ids that replied (for tests and diagnostics). */
  readonly threadIds: ReadonlySet<number>;
  close(): Promise<void>;
}

export function createWorkerRunner(options: WorkerRunnerOptions): WorkerRunner {
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new TradebotError('SWEEP_INVALID_WORKERS', `workers must be a whole number of at least 1, got ${options.workers}`, {
      kind: 'config',
    });
  }
  const jobModule = options.jobModule ?? DEFAULT_JOB_MODULE;
  const pool = new Piscina<WorkerTask, WorkerReply>({
    filename: WORKER_ENTRY,
    minThreads: options.workers,
    maxThreads: options.workers,
    idleTimeout: 30_000,
  });
  const threadIds = new Set<number>();
  return {
    threads: options.workers,
    threadIds,
    async run(job) {
      const reply = await pool.run({ job, jobModule });
      threadIds.add(reply.threadId);
      if (!reply.ok) throw new TradebotError(reply.error.code, reply.error.message);
      return { report: reply.report };
    },
    close: () => pool.destroy(),
  };
}
