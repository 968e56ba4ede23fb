/**
 * The sweep's default job, run inside a worker thread: one backtest with the job's params through the
 * replay engine's `runBacktest` (config loaded from the job's config file, or parsed from the text a queue
 * job carries as if read from that file; once per thread each), then the run's folder written by the same
 * writer as `tradebot backtest` (results/write-results.ts): report.json (byte-identical to a single backtest
 * with the same params), run.json (wall-clock figures, the run's id and params) and report.html. A job that
 * asks for its series (walk-forward's out-of-sample runs) also gets series.json, with every equity sample
 * (no decimation: the stitched report's ratios are computed from them). Only the report object goes back to
 * the main thread; the series stay on disk.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseConfigText } from '../../src/config/loader.ts';
import { TradebotError } from '../../src/errors.ts';
import { backtestConfigSchema, loadBacktestConfig, type BacktestConfig } from '../config.ts';
import { stableStringify } from '../results/stable-json.ts';
import { writeResults } from '../results/write-results.ts';
import { runBacktest } from '../run-backtest.ts';
import type { SweepJob, SweepJobResult } from './types.ts';

const configs = new Map<string, BacktestConfig>();

function configFor(file: string, text: string | undefined): BacktestConfig {
  const key = text === undefined ? file : `${file}\u0000${text}`;
  let config = configs.get(key);
  if (config === undefined) {
    config = text === undefined ? loadBacktestConfig(file) : parseConfigText(text, backtestConfigSchema, { file });
    configs.set(key, config);
  }
  return config;
}

/** With every sample kept: the series of a run long enough to be decimated otherwise. */
function undecimated(config: BacktestConfig): BacktestConfig {
  return { ...config, backtest: { ...config.backtest, maxSeriesPoints: Number.MAX_SAFE_INTEGER } };
}

export async function runSweepJob(job: SweepJob): Promise<SweepJobResult> {
  if (job.config === undefined)
    throw new TradebotError('SWEEP_NO_CONFIG', 'a sweep job needs a backtest config file (job.config)', { kind: 'config' });
  const config = configFor(job.config, job.configText);
  const result = await runBacktest({
    data: job.data,
    config: job.series === true ? undecimated(config) : config,
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
  if (job.series === true) await writeFile(path.join(job.dir, SERIES_JSON), stableStringify(result.series), 'utf8');
  return { report: result.report };
}

/** The series file of a job that asks for it. */
export const SERIES_JSON = 'series.json';
