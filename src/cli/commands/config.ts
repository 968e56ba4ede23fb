/**
 * `tradebot config check <file>`: validates a config file and lists every problem with its path, so an
 * operator can fix a file before starting the bot: the schema, whether the bot's venue and stream transports
 * fit the exchange section, and the strategy: `bot.strategy` loads (a path is relative to the file's folder)
 * and `bot.params` pass its params schema, as `tradebot run` checks at start. The work is in
 * ../actions/config-check.ts, loaded when the command runs.
 */
import type { Command } from 'commander';

export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('Work with tradebot config files');
  config
    .command('check')
    .description('Validate a YAML config file and its strategy params; prints every problem with its path (exit 2) or "ok" (exit 0)')
    .argument('<file>', 'config file, e.g. config/sim.yaml')
    .action(async (file: string) => (await import('../actions/config-check.ts')).configCheckCommand(file));
}
