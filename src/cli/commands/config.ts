/**
 * `tradebot config check <file>`: validates a config file and lists every problem with its path, so an
 * operator can fix a file before starting the bot: the schema, then whether the bot's venue and stream
 * transports fit the exchange section (src/engine/live/run-plan.ts), as `tradebot run` checks at start.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.ts';
import { assertRunPlan } from '../../engine/live/run-plan.ts';

export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('Work with tradebot config files');
  config
    .command('check')
    .description('Validate a YAML config file; prints every problem with its path (exit 2) or "ok" (exit 0)')
    .argument('<file>', 'config file, e.g. config/sim.yaml')
    .action((file: string) => {
      assertRunPlan(loadConfig(file), file);
      process.stdout.write(`${file}: ok\n`);
    });
}
