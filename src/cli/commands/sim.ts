/**
 * `tradebot sim [--config config/sim.yaml]`: runs the embedded exchange on 127.0.0.1 until SIGINT/SIGTERM.
 * Its first stdout line is the `sim.ready` JSON (family A base, token server base, gateway base, gRPC
 * address), which other tools read; logs go to stderr.
 */
import type { Command } from 'commander';
import { TradebotError } from '../../errors.ts';
import { configFileOf, DEFAULT_CONFIG } from '../options.ts';

function parseSeconds(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new TradebotError('CLI_INVALID_DURATION', `--duration expects a number of seconds greater than 0, got "${text}"`, {
      kind: 'config',
    });
  }
  return value;
}

export function registerSimCommand(program: Command): void {
  program
    .command('sim')
    .description('Run the embedded exchange simulator on 127.0.0.1; prints one sim.ready JSON line first')
    .option('-c, --config <file>', 'config file with a sim section', DEFAULT_CONFIG)
    .option('--log-level <level>', 'trace, debug, info, warn or error (overrides logging.level)')
    .option('--duration <seconds>', 'stop by itself after this many seconds (default: run until SIGINT/SIGTERM)', parseSeconds)
    .action(async (options: { config: string; logLevel?: string; duration?: number }) => {
      // loaded here, not at start, so that `tradebot --help` stays fast
      const { loadConfig } = await import('../../config/index.ts');
      const { createLogger } = await import('../../logging/logger.ts');
      const { startSim } = await import('../../sim/simulator.ts');
      const config = loadConfig(configFileOf(options.config));
      if (config.sim === undefined) {
        throw new TradebotError('CONFIG_NO_SIM', `${options.config} has no sim section; use config/sim.yaml or add one`, {
          kind: 'config',
        });
      }
      const level = (options.logLevel ?? config.logging.level) as 'info';
      const logger = createLogger({ level, pretty: config.logging.pretty, name: 'tradebot-sim' });
      const sim = await startSim(config.sim, { logger });
      process.stdout.write(`${JSON.stringify(sim.ready)}\n`);
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info({ signal }, 'stopping simulator');
          resolve();
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
        if (options.duration !== undefined) setTimeout(() => stop('duration'), options.duration * 1000).unref();
      });
      await sim.close();
      logger.info('simulator stopped');
    });
}
