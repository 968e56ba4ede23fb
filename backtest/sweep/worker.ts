/**
 * The sweep's worker-thread task (run by piscina through worker.mjs, which registers tsx first): loads the
 * job module named by the task (default backtest-job.ts: runBacktest + report files), runs one job, and
 * replies with the report as plain JSON (as report.json holds it), or with the error's stable code and message
 * (a thrown error would lose its
 * code crossing the thread boundary).
 */
import { inspect } from 'node:util';
import { threadId } from 'node:worker_threads';
import { isTradebotError } from '../../src/errors.ts';
import type { BacktestReport } from '../report/backtest-result.ts';
import type { RunFailure, SweepJob, SweepJobResult } from './types.ts';

export interface WorkerTask {
  readonly job: SweepJob;
  /** file: URL of a module exporting `runSweepJob(job)`. */
  readonly jobModule: string;
}

export type WorkerReply =
  | { readonly ok: true; readonly report: BacktestReport; readonly threadId: number }
  | { readonly ok: false; readonly error: RunFailure; readonly threadId: number };

export interface JobModule {
  runSweepJob(job: SweepJob): Promise<SweepJobResult>;
}

export async function loadJobModule(url: string): Promise<JobModule> {
  const module = (await import(url)) as Partial<JobModule>;
  if (typeof module.runSweepJob !== 'function') throw new Error(`${url} must export async function runSweepJob(job)`);
  return module as JobModule;
}

export default async function runTask(task: WorkerTask): Promise<WorkerReply> {
  try {
    const { runSweepJob } = await loadJobModule(task.jobModule);
    const { report } = await runSweepJob(task.job);
    // Exactly what report.json holds: plain JSON, which crosses the thread boundary (a Decimal does not).
    return { ok: true, report: JSON.parse(JSON.stringify(report)) as BacktestReport, threadId };
  } catch (error) {
    const code = isTradebotError(error) ? error.code : 'SWEEP_RUN_FAILED';
    // Not every thrown value is an Error: inspect shows a plain object's fields instead of "[object Object]".
    const message = isTradebotError(error)
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : inspect(error, { depth: 4, breakLength: Infinity });
    return { ok: false, error: { code, message }, threadId };
  }
}
