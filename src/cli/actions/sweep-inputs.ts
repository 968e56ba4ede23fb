/**
 * What `tradebot sweep` checks and settles before any run starts: the files it reads, the grid, the strategy,
 * the base params (as `tradebot backtest` chooses a run's params) and every combination against the
 * strategy's schema, so a bad grid fails in a second instead of in every run.
 */
import { existsSync } from 'node:fs';
import { loadBacktestConfig } from '../../../backtest/config.ts';
import { checkSweepParams } from '../../../backtest/sweep/check-params.ts';
import { expandGrid, mergeParams } from '../../../backtest/sweep/expand.ts';
import { loadGrid, type Grid } from '../../../backtest/sweep/grid.ts';
import type { ParamSet } from '../../../backtest/sweep/types.ts';
import { TapeReader } from '../../../backtest/tape/tape-reader.ts';
import { ConfigError } from '../../config/index.ts';
import type { AnyStrategy } from '../../engine/strategy/define-strategy.ts';
import { loadStrategy, resolveStrategyPath, validateParams } from '../../engine/strategy/loader.ts';
import { TradebotError } from '../../errors.ts';
import { configFileOf } from '../options.ts';
import { readParamsFile } from '../params-file.ts';

export interface SweepInputs {
  readonly configFile: string;
  readonly grid: Grid;
  readonly definition: AnyStrategy;
  readonly base: ParamSet;
  /** The number of combinations. */
  readonly runs: number;
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

export async function sweepInputs(options: {
  strategy: string;
  data: string;
  grid: string;
  config: string;
  params?: string;
}): Promise<SweepInputs> {
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
  checkSweepParams(
    definition,
    grid,
    combos.map((combo) => mergeParams(base, combo)),
    options.grid,
  );
  return { configFile, grid, definition, base, runs: combos.length };
}
