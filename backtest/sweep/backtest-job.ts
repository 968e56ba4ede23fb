/**
 * The sweep's default job, run inside a worker thread: one backtest with the job's params through the
 * replay engine's `runBacktest` (config loaded from the job's config file, once per thread), then its
 * report.json and self-contained report.html in the run's folder. Only the report object goes back to
 * the main thread; the series stay on disk.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TradebotError } from '../../src/errors.ts';
import type { BacktestReport } from '../report/backtest-result.ts';
import { writeHtmlReport } from '../report/write-report.ts';
import { loadBacktestConfig, type BacktestConfig } from '../config.ts';
import { runBacktest } from '../run-backtest.ts';
import type { SweepJob, SweepJobResult } from './types.ts';

const configs = new Map<string, BacktestConfig>();

function configFor(file: string): BacktestConfig {
  let config = configs.get(file);
  if (config === undefined) {
    config = loadBacktestConfig(file);
    configs.set(file, config);
  }
  return config;
}

export async function writeReportJson(dir: string, report: BacktestReport): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'report.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  return file;
}

export async function runSweepJob(job: SweepJob): Promise<SweepJobResult> {
  if (job.config === undefined) throw new TradebotError('SWEEP_NO_CONFIG', 'a sweep job needs a backtest config file (job.config)', { kind: 'config' });
  const result = await runBacktest({ data: job.data, config: configFor(job.config), strategy: job.strategy, params: job.params });
  await writeReportJson(job.dir, result.report);
  await writeHtmlReport(job.dir, result);
  return { report: result.report };
}
