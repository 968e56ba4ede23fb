/**
 * `tradebot sweep`: backtests every combination of a parameter grid (YAML: param -> list of values, merged
 * over the base params) on worker threads, one per core by default, or with `--queue redis://host:port/db` on
 * any number of `tradebot worker` processes through Redis (BullMQ), and ranks the runs by a report metric.
 * Writes `<out>/runs/<n>/report.json + run.json + report.html` (what `tradebot backtest` writes),
 * `<out>/ranking.csv`, `<out>/ranking.html` and `<out>/sweep.json`; with
 * `--walk-forward <train>/<test>[/<step>]`, a grid per training window, its best combination out of sample and
 * the stitched out-of-sample report instead. Progress goes to stderr (a bar in a terminal, log lines otherwise)
 * and one summary JSON line to stdout. Exits 1 when any run failed (the
 * ranking still lists it).
 */
import { Option, type Command } from 'commander';
import { TradebotError } from '../../errors.ts';
import { DEFAULT_BACKTEST_CONFIG } from '../options.ts';
import type { SweepCommandOptions } from '../actions/sweep.ts';

function parseWorkers(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new TradebotError('CLI_INVALID_WORKERS', `--workers expects a whole number of at least 1, got "${text}"`, { kind: 'config' });
  return n;
}

function parseTimeout(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new TradebotError('CLI_INVALID_OPTION', `--queue-timeout expects seconds greater than 0, got "${text}"`, { kind: 'config' });
  return n;
}

export function registerSweepCommand(program: Command): void {
  program
    .command('sweep')
    .description(
      'Backtest every combination of a parameter grid on all cores (or queue workers) and rank the runs (ranking.csv, ranking.html)',
    )
    .requiredOption('-s, --strategy <name|path>', 'strategy from strategies/ or a path to a plugin file')
    .requiredOption('-d, --data <file>', 'history to replay (JSON lines)')
    .requiredOption('-g, --grid <yaml>', 'grid file: each param name with the list of values to try')
    .requiredOption('-o, --out <dir>', 'output folder: runs/<n>/, ranking.csv, ranking.html, sweep.json')
    .option(
      '-c, --config <file>',
      'backtest config; its bot.params are the base params when its bot.strategy is the swept one ' +
        "(else the strategy's defaults on the data's symbols)",
      DEFAULT_BACKTEST_CONFIG,
    )
    .option('-p, --params <yaml>', "base params (YAML mapping, as backtest --params); the grid's values are merged over them")
    .option('-w, --workers <n>', 'worker threads on this machine (default: one per core)', parseWorkers)
    .option(
      '--rank-by <metric>',
      'report.json field to rank by, dotted: pnl.total (PnL net of fees, meaningful for any length of data), ' +
        'sharpe, sortino, maxDrawdown, ...',
      'pnl.total',
    )
    .option('--ascending', 'rank the lowest value first (e.g. --rank-by maxDrawdown)')
    .option('--force', 'replace the runs of an earlier sweep in --out')
    .option(
      '--queue <url>',
      'run the combinations on `tradebot worker` processes through Redis, e.g. redis://127.0.0.1:6379/0 ' +
        '(started again with the same --out, it resumes)',
    )
    .option('--queue-timeout <seconds>', 'with --queue: fail when Redis stays unreachable this long', parseTimeout, 30)
    .option(
      '--walk-forward <train/test[/step]>',
      'walk-forward validation: rank the grid on each training window, run the best on the test window after it, ' +
        'stitch those (e.g. 6h/2h, 0.5/0.25)',
    )
    .addOption(new Option('--job-module <file>', 'module exporting runSweepJob(job), instead of the backtest (tests)').hideHelp())
    .action(async (options: SweepCommandOptions) => (await import('../actions/sweep.ts')).sweepCommand(options));
}
