/**
 * `tradebot run`: the live bot. With the default config it starts the embedded exchange in-process on
 * 127.0.0.1 and trades against it through the real clients; with an environment config it connects to
 * that environment. Prints one `run.summary` JSON line on exit; logs go to stderr.
 */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { loadConfig, ConfigError, type ConfigProblem } from '../../config/index.ts';
import { parseYaml } from '../../config/yaml.ts';
import { interpolateEnv } from '../../config/env.ts';
import { createLogger, type LogLevel } from '../../logging/logger.ts';
import { runLive } from '../../engine/live/run-live.ts';
import { TradebotError } from '../../errors.ts';
import { DEFAULT_CONFIG } from './sim.ts';
import { openRecorder } from '../../../backtest/recording/recorder.ts';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'];

function parseSeconds(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new TradebotError('CLI_INVALID_DURATION', `--duration expects seconds greater than 0, got "${text}"`, { kind: 'config' });
  return value;
}

/** Strategy params from a YAML file (validated later by the plugin's schema, with paths). */
export function readParamsFile(file: string): Record<string, unknown> {
  const problems: ConfigProblem[] = [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([{ path: '', message: `cannot read ${file}: ${(error as Error).message}` }], file, 'CONFIG_UNREADABLE');
  }
  const tree = interpolateEnv(parseYaml(text, problems), process.env, problems);
  if (problems.length > 0) throw new ConfigError(problems, file);
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) throw new ConfigError([{ path: '', message: 'expected a mapping of param names to values' }], file);
  return tree as Record<string, unknown>;
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run the bot: a strategy against the embedded exchange (default config) or an environment')
    .option('-c, --config <file>', 'config file (config/sim.yaml starts the embedded exchange)', DEFAULT_CONFIG)
    .option('-s, --strategy <name|path>', 'strategy from strategies/ or a path (overrides bot.strategy)')
    .option('-p, --params <yaml>', 'YAML file with the strategy params (replaces bot.params)')
    .option('-d, --duration <seconds>', 'stop after this many seconds (overrides bot.durationSeconds)', parseSeconds)
    .option('--log-level <level>', `one of ${LEVELS.join(', ')} (overrides logging.level)`)
    .option('--record <file>', 'record the market and order events the bot receives (JSON lines; replay with tradebot backtest --data)')
    .action(async (options: { config: string; strategy?: string; params?: string; duration?: number; logLevel?: string; record?: string }) => {
      if (options.logLevel !== undefined && !LEVELS.includes(options.logLevel)) {
        throw new TradebotError('CLI_INVALID_LOG_LEVEL', `--log-level must be one of ${LEVELS.join(', ')}, got "${options.logLevel}"`, { kind: 'config' });
      }
      const loaded = loadConfig(options.config);
      const config = options.params === undefined ? loaded : { ...loaded, bot: { ...loaded.bot, params: readParamsFile(options.params) } };
      const logger = createLogger({ level: (options.logLevel ?? config.logging.level) as LogLevel, pretty: config.logging.pretty });
      const record = options.record;
      let stop: (reason: string) => void = () => undefined;
      const stopSignal = new Promise<string>((resolve) => (stop = resolve));
      const onSigint = () => stop('SIGINT');
      const onSigterm = () => stop('SIGTERM');
      let onSigusr2: (() => void) | undefined;
      process.once('SIGINT', onSigint);
      process.once('SIGTERM', onSigterm);
      let summary;
      try {
        summary = await runLive({
          config,
          configFile: options.config,
          ...(options.params === undefined ? {} : { paramsFile: options.params }),
          logger,
          ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
          ...(options.duration === undefined ? {} : { durationSeconds: options.duration }),
          ...(process.stderr.isTTY ? { statusStream: process.stderr } : {}),
          stopSignal,
          onOperatorToggle: (toggle) => {
            onSigusr2 = toggle;
            process.on('SIGUSR2', toggle);
          },
          ...(record === undefined ? {} : { recorder: (run) => openRecorder(record, run) }),
        });
      } finally {
        // in-process callers (tests) get their signals back
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigterm);
        if (onSigusr2 !== undefined) process.off('SIGUSR2', onSigusr2);
      }
      process.stdout.write(`${JSON.stringify(summary)}\n`);
    });
}
