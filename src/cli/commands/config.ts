/**
 * `tradebot config check <file>`: validates a config file and lists every problem with its path, so an
 * operator can fix a file before starting the bot.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.ts';

export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('Work with tradebot config files');
  config
    .command('check')
    .description('Validate a YAML config file; prints every problem with its path (exit 2) or "ok" (exit 0)')
    .argument('<file>', 'config file, e.g. config/sim.yaml')
    .action((file: string) => {
      loadConfig(file);
      process.stdout.write(`${file}: ok\n`);
    });
}
