/**
 * The sweep's default job, run inside a worker thread: one backtest with the job's params through
 * `runBacktest` (backtest/run-backtest.ts), then its report.json and self-contained report.html in the
 * run's folder. Only the report object goes back to the main thread; the series stay on disk.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TradebotError } from '../../src/errors.ts';
import type { BacktestResult } from '../report/backtest-result.ts';
import { writeHtmlReport } from '../report/write-report.ts';
import type { SweepJob, SweepJobResult } from './types.ts';

/** The part of runBacktest's options a sweep sets. */
export interface SweepBacktestOptions {
  readonly strategy: string;
  readonly data: string;
  readonly config?: string;
  readonly params: Readonly<Record<string, unknown>>;
}

type RunBacktest = (options: SweepBacktestOptions) => Promise<BacktestResult>;

// Resolved at run time: the replay engine is built in parallel and lands in backtest/run-backtest.ts.
const RUN_BACKTEST_MODULE = new URL('../run-backtest.ts', import.meta.url).href;

async function loadRunBacktest(): Promise<RunBacktest> {
  let module: { runBacktest?: unknown };
  try {
    module = (await import(RUN_BACKTEST_MODULE)) as { runBacktest?: unknown };
  } catch (error) {
    throw new TradebotError('SWEEP_NO_BACKTEST', `cannot load runBacktest from backtest/run-backtest.ts: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof module.runBacktest !== 'function') throw new TradebotError('SWEEP_NO_BACKTEST', 'backtest/run-backtest.ts does not export a runBacktest function');
  return module.runBacktest as RunBacktest;
}

export async function writeReportJson(dir: string, report: BacktestResult['report']): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'report.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  return file;
}

export async function runSweepJob(job: SweepJob): Promise<SweepJobResult> {
  const runBacktest = await loadRunBacktest();
  const result = await runBacktest({ strategy: job.strategy, data: job.data, ...(job.config === undefined ? {} : { config: job.config }), params: job.params });
  await writeReportJson(job.dir, result.report);
  await writeHtmlReport(job.dir, result);
  return { report: result.report };
}
