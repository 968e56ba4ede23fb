/**
 * The body of `tradebot sweep` (declared in ../commands/sweep.ts, loaded only when the command runs): the
 * grid and base params checked before any run, the worker pool, the ranking and the `sweep.summary` line.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadBacktestConfig } from '../../../backtest/config.ts';
import { checkSweepParams } from '../../../backtest/sweep/check-params.ts';
import { expandGrid, mergeParams } from '../../../backtest/sweep/expand.ts';
import { loadGrid } from '../../../backtest/sweep/grid.ts';
import { createWorkerRunner } from '../../../backtest/sweep/pool.ts';
import { createSweepProgress } from '../../../backtest/sweep/progress.ts';
import { runSweep } from '../../../backtest/sweep/run-sweep.ts';
import { TapeReader } from '../../../backtest/tape/tape-reader.ts';
import type { ParamSet } from '../../../backtest/sweep/types.ts';
import type { Grid } from '../../../backtest/sweep/grid.ts';
import { ConfigError } from '../../config/index.ts';
import { loadStrategy, resolveStrategyPath, validateParams } from '../../engine/strategy/loader.ts';
import type { AnyStrategy } from '../../engine/strategy/define-strategy.ts';
import { TradebotError } from '../../errors.ts';
import { configFileOf } from '../options.ts';
import { readParamsFile } from '../params-file.ts';

export interface SweepCommandOptions {
  strategy: string;
  data: string;
  grid: string;
  out: string;
  config: string;
  workers: number;
  rankBy: string;
  ascending?: boolean;
  force?: boolean;
  jobModule?: string;
  params?: string;
}

function requireFile(file: string, option: string): void {
  if (!existsSync(file)) throw new TradebotError('CLI_FILE_NOT_FOUND', `${option}: no file at ${file}`, { kind: 'config' });
}

/**
 * The base params without --params, chosen as `tradebot backtest` chooses a run's params (backtest/strategy-params.ts): the
 * config's bot.params when its bot.strategy is the swept strategy; otherwise the strategy's defaults, with
 * `symbols` set to the data's symbols when its schema takes them (with the grid's first combination).
 * Loading checks the whole config once, before any run.
 */
async function baseParams(
  strategy: string,
  definition: AnyStrategy,
  configFile: string,
  data: string,
  firstCombo: ParamSet,
): Promise<ParamSet> {
  const { bot } = loadBacktestConfig(configFile);
  if (resolveStrategyPath(bot.strategy) === resolveStrategyPath(strategy)) return bot.params;
  const tape = await TapeReader.open(data, { thread: 'main' });
  await tape.close();
  const withSymbols = { symbols: [...tape.header.symbols] };
  return definition.params.safeParse(mergeParams(withSymbols, firstCombo)).success ? withSymbols : {};
}

/**
 * The base params of --params, checked with the grid's first combination over them (a param the grid
 * supplies may be missing from the file), so that their problems name the file and its keys at once; the
 * grid's own keys are left to checkSweepParams, which names the run they fail in.
 */
function givenBase(definition: AnyStrategy, file: string, grid: Grid, firstCombo: ParamSet): ParamSet {
  const params = readParamsFile(file);
  try {
    validateParams(definition, mergeParams(params, firstCombo), { file, path: '' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const fromFile = error.problems.filter((problem) => !Object.hasOwn(grid, problem.path.split('.')[0] ?? ''));
    if (fromFile.length > 0) throw new ConfigError(fromFile, `${file} (params of strategy ${definition.name})`);
  }
  return params;
}

export async function sweepCommand(options: SweepCommandOptions): Promise<void> {
  const configFile = configFileOf(options.config);
  requireFile(options.data, '--data');
  requireFile(configFile, '--config');
  const grid = loadGrid(options.grid);
  const definition = await loadStrategy(options.strategy);
  const combos = expandGrid(grid);
  const base =
    options.params === undefined
      ? await baseParams(options.strategy, definition, configFile, options.data, combos[0] ?? {})
      : givenBase(definition, options.params, grid, combos[0] ?? {});
  const runs = combos.map((combo) => mergeParams(base, combo));
  checkSweepParams(definition, grid, runs, options.grid);

  const workers = Math.min(options.workers, runs.length);
  const runner = createWorkerRunner({
    workers,
    ...(options.jobModule === undefined ? {} : { jobModule: pathToFileURL(path.resolve(options.jobModule)).href }),
  });
  const ascending = options.ascending === true;
  let summary;
  try {
    summary = await runSweep({
      strategy: options.strategy,
      data: options.data,
      config: configFile,
      grid,
      baseParams: base,
      out: options.out,
      runner: runner.run,
      concurrency: workers,
      rankBy: options.rankBy,
      ascending,
      overwrite: options.force === true,
      progress: createSweepProgress({ stream: process.stderr, tty: process.stderr.isTTY === true, rankBy: options.rankBy, ascending }),
    });
  } finally {
    await runner.close();
  }
  const best = summary.ranking[0];
  process.stdout.write(
    `${JSON.stringify({
      event: 'sweep.summary',
      runs: summary.runs,
      ok: summary.ok,
      failed: summary.failed,
      workers,
      rankBy: options.rankBy,
      best:
        best?.outcome.ok === true
          ? {
              run: best.outcome.job.id,
              [options.rankBy]: best.metric === null || Number.isFinite(best.metric) ? best.metric : String(best.metric),
              params: best.outcome.job.combo,
            }
          : null,
      ranking: { csv: summary.files.csv, html: summary.files.html },
    })}\n`,
  );
  if (summary.failed > 0) {
    throw new TradebotError(
      'SWEEP_RUNS_FAILED',
      `${summary.failed} of ${summary.runs} runs failed; their errors are in ${summary.files.csv} and runs/<n>/error.txt`,
    );
  }
}
