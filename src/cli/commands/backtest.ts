/**
 * `tradebot backtest`: one strategy over a history file through the same pipeline as live, with a
 * simulated venue and virtual time (backtest/run-backtest.ts). Writes `<out>/report.json` (deterministic),
 * `<out>/run.json` (wall-clock figures) and `<out>/report.html`; a progress bar by bytes read on stderr
 * (log lines when stderr is not a terminal) and a one-screen summary on stdout at the end.
 * Flags override single values of the config's `backtest` section. Params: --params, else the config's
 * bot.params when its bot.strategy is the strategy run, else the strategy's defaults (backtest/strategy-params.ts),
 * as `tradebot sweep` chooses its base params.
 */
import type { Command } from 'commander';
import { DEFAULT_BACKTEST_CONFIG, invalidOption as invalid } from '../options.ts';
import type { BacktestCommandOptions } from '../actions/backtest.ts';

function parseMs(option: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw invalid(`${option} expects whole milliseconds >= 0, got "${text}"`);
    return n;
  };
}

function parseBps(option: string) {
  return (text: string): string => {
    if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text)) throw invalid(`${option} expects basis points such as "10" or "2.5", got "${text}"`);
    return text;
  };
}

export function registerBacktestCommand(program: Command): void {
  program
    .command('backtest')
    .description('Replay a history file through the live pipeline with simulated fills; writes report.json and report.html')
    .option('-s, --strategy <name|path>', 'strategy from strategies/ or a path (default: bot.strategy of the config)')
    .requiredOption('--data <file>', 'history file (tradebot history fetch) or recording (tradebot run --record)')
    .option(
      '--params <yaml>',
      "strategy params (YAML mapping; default: the config's bot.params when its bot.strategy is the one run, " +
        "else the strategy's defaults on the data's symbols)",
    )
    .option('-c, --config <file>', 'backtest config (bot, risk and backtest sections)', DEFAULT_BACKTEST_CONFIG)
    .requiredOption('--out <dir>', 'folder for report.json, run.json and report.html')
    .option('--insert-latency-ms <ms>', 'virtual ms until an insert reaches the exchange', parseMs('--insert-latency-ms'))
    .option('--cancel-latency-ms <ms>', 'virtual ms until a cancel or replace reaches the exchange', parseMs('--cancel-latency-ms'))
    .option('--taker-bps <bps>', 'taker commission in basis points', parseBps('--taker-bps'))
    .option('--maker-bps <bps>', 'maker commission in basis points', parseBps('--maker-bps'))
    .option('--queue-model <model>', 'queue ahead of resting orders: volume, level or none')
    .option('--log-level <level>', 'trace, debug, info, warn or error (overrides logging.level)')
    .action(async (options: BacktestCommandOptions) => (await import('../actions/backtest.ts')).backtestCommand(options));
}
