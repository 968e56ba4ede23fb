/**
 * `tradebot run`: the live bot. With the default config it starts the embedded exchange in-process on
 * 127.0.0.1 and trades against it through the real clients; with an environment config it connects to
 * that environment. Prints one `run.summary` JSON line on exit; logs go to stderr. The work is in
 * ../actions/run.ts, loaded when the command runs.
 */
import type { Command } from 'commander';
import { DEFAULT_CONFIG, LOG_LEVELS, parseSeconds } from '../options.ts';
import type { RunCommandOptions } from '../actions/run.ts';

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run the bot: a strategy against the embedded exchange (default config) or an environment')
    .option('-c, --config <file>', 'config file (config/sim.yaml starts the embedded exchange)', DEFAULT_CONFIG)
    .option('-s, --strategy <name|path>', 'strategy from strategies/ or a path (overrides bot.strategy)')
    .option('-p, --params <yaml>', 'YAML file with the strategy params (replaces bot.params)')
    .option('-d, --duration <seconds>', 'stop after this many seconds (overrides bot.durationSeconds)', parseSeconds)
    .option('--log-level <level>', `one of ${LOG_LEVELS.join(', ')} (overrides logging.level)`)
    .option('--record <file>', 'record the market and order events the bot receives (JSON lines; replay with tradebot backtest --data)')
    .action(async (options: RunCommandOptions) => (await import('../actions/run.ts')).runCommand(options));
}
