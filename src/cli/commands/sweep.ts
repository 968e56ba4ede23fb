/**
 * `tradebot sweep`: backtests every combination of a parameter grid (YAML: param -> list of values, merged
 * over the base params) on worker threads, one per core by default, and ranks the runs by a report metric.
 * Writes `<out>/runs/<n>/report.json + run.json + report.html` (what `tradebot backtest` writes), `<out>/ranking.csv`, `<out>/ranking.html` and
 * `<out>/sweep.json`; progress goes to stderr (a bar in a terminal, log lines otherwise) and one
 * `sweep.summary` JSON line to stdout. Exits 1 when any run failed (the ranking still lists it).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Option, type Command } from 'commander';
import { DEFAULT_BACKTEST_CONFIG, loadBacktestConfig } from '../../../backtest/config.ts';
import { checkSweepParams } from '../../../backtest/sweep/check-params.ts';
import { expandGrid, mergeParams } from '../../../backtest/sweep/expand.ts';
import { loadGrid } from '../../../backtest/sweep/grid.ts';
import { createWorkerRunner } from '../../../backtest/sweep/pool.ts';
import { createSweepProgress } from '../../../backtest/sweep/progress.ts';
import { runSweep } from '../../../backtest/sweep/run-sweep.ts';
import { TapeReader } from '../../../backtest/tape/tape-reader.ts';
import type { ParamSet } from '../../../backtest/sweep/types.ts';
import { loadStrategy, resolveStrategyPath } from '../../engine/strategy/loader.ts';
import type { AnyStrategy } from '../../engine/strategy/define-strategy.ts';
import { TradebotError } from '../../errors.ts';

interface SweepCommandOptions {
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
}

function parseWorkers(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new TradebotError('CLI_INVALID_WORKERS', `--workers expects a whole number of at least 1, got "${text}"`, { kind: 'config' });
  return n;
}

function requireFile(file: string, option: string): void {
  if (!existsSync(file)) throw new TradebotError('CLI_FILE_NOT_FOUND', `${option}: no file at ${file}`, { kind: 'config' });
}

/**
 * The base params, chosen as `tradebot backtest` chooses a run's params (backtest/strategy-params.ts): the
 * config's bot.params when its bot.strategy is the swept strategy; otherwise the strategy's defaults, with
 * `symbols` set to the data's symbols when its schema takes them (with the grid's first combination).
 * Loading checks the whole config once, before any run.
 */
async function baseParams(strategy: string, definition: AnyStrategy, configFile: string, data: string, firstCombo: ParamSet): Promise<ParamSet> {
  const { bot } = loadBacktestConfig(configFile);
  if (resolveStrategyPath(bot.strategy) === resolveStrategyPath(strategy)) return bot.params;
  const tape = await TapeReader.open(data, { thread: 'main' });
  await tape.close();
  const withSymbols = { symbols: [...tape.header.symbols] };
  return definition.params.safeParse(mergeParams(withSymbols, firstCombo)).success ? withSymbols : {};
}

export function registerSweepCommand(program: Command): void {
  const cores = availableParallelism();
  program
    .command('sweep')
    .description('Backtest every combination of a parameter grid on all cores and rank the runs (ranking.csv, ranking.html)')
    .requiredOption('-s, --strategy <name|path>', 'strategy from strategies/ or a path to a plugin file')
    .requiredOption('-d, --data <file>', 'history to replay (JSON lines)')
    .requiredOption('-g, --grid <yaml>', 'grid file: each param name with the list of values to try')
    .requiredOption('-o, --out <dir>', 'output folder: runs/<n>/, ranking.csv, ranking.html, sweep.json')
    .option('-c, --config <file>', "backtest config; its bot.params are the base params when its bot.strategy is the swept one (else the strategy's defaults on the data's symbols)", DEFAULT_BACKTEST_CONFIG)
    .option('-w, --workers <n>', 'worker threads (default: one per core)', parseWorkers, cores)
    .option('--rank-by <metric>', 'report.json field to rank by, dotted: sharpe, sortino, pnl.total, maxDrawdown, ...', 'sharpe')
    .option('--ascending', 'rank the lowest value first (e.g. --rank-by maxDrawdown)')
    .option('--force', 'replace the runs of an earlier sweep in --out')
    .addOption(new Option('--job-module <file>', 'module exporting runSweepJob(job), instead of the backtest (tests)').hideHelp())
    .action(async (options: SweepCommandOptions) => {
      requireFile(options.data, '--data');
      requireFile(options.config, '--config');
      const grid = loadGrid(options.grid);
      const definition = await loadStrategy(options.strategy);
      const combos = expandGrid(grid);
      const base = await baseParams(options.strategy, definition, options.config, options.data, combos[0] ?? {});
      const runs = combos.map((combo) => mergeParams(base, combo));
      checkSweepParams(definition, grid, runs, options.grid);

      const workers = Math.min(options.workers, runs.length);
      const runner = createWorkerRunner({ workers, ...(options.jobModule === undefined ? {} : { jobModule: pathToFileURL(path.resolve(options.jobModule)).href }) });
      const ascending = options.ascending === true;
      let summary;
      try {
        summary = await runSweep({
          strategy: options.strategy,
          data: options.data,
          config: options.config,
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
          best: best?.outcome.ok === true ? { run: best.outcome.job.id, [options.rankBy]: best.metric === null || Number.isFinite(best.metric) ? best.metric : String(best.metric), params: best.outcome.job.combo } : null,
          ranking: { csv: summary.files.csv, html: summary.files.html },
        })}\n`,
      );
      if (summary.failed > 0) {
        throw new TradebotError('SWEEP_RUNS_FAILED', `${summary.failed} of ${summary.runs} runs failed; their errors are in ${summary.files.csv} and runs/<n>/error.txt`);
      }
    });
}
