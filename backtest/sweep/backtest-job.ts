/**
 * The sweep's default job, run inside a worker thread: one backtest with the job's params through the
 * replay engine's `runBacktest` (config loaded from the job's config file, once per thread), then the run's
 * folder written by the same writer as `tradebot backtest` (results/write-results.ts): report.json
 * (byte-identical to a single backtest with the same params), run.json (wall-clock figures, the run's id and
 * params) and report.html. Only the report object goes back to the main thread; the series stay on disk.
 */
import { TradebotError } from '../../src/errors.ts';
import { loadBacktestConfig, type BacktestConfig } from '../config.ts';
import { writeResults } from '../results/write-results.ts';
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

export async function runSweepJob(job: SweepJob): Promise<SweepJobResult> {
  if (job.config === undefined)
    throw new TradebotError('SWEEP_NO_CONFIG', 'a sweep job needs a backtest config file (job.config)', { kind: 'config' });
  const result = await runBacktest({
    data: job.data,
    config: configFor(job.config),
    strategy: job.strategy,
    params: job.params,
    tablesDir: job.dir, // fills.csv and orders.csv, as tradebot backtest writes them
  });
  // as `tradebot backtest`: without the HTML writer (a stripped install) report.html is skipped, the rest written
  await writeResults(job.dir, result, {
    command: 'sweep',
    run: job.id,
    strategy: job.strategy,
    data: job.data,
    config: job.config,
    combo: job.combo,
    finishedAt: new Date().toISOString(),
  });
  return { report: result.report };
}
