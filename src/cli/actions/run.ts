/**
 * The body of `tradebot run` (registered in ../commands/run.ts, loaded only when the command runs): loads the
 * config (and a --params file), starts the live runner with signal handling and prints the `run.summary` line.
 */
import { loadConfig } from '../../config/index.ts';
import { createLogger, type LogLevel } from '../../logging/logger.ts';
import { runLive } from '../../bot/live/run-live.ts';
import { TradebotError } from '../../errors.ts';
import { openRecorder } from '../../../backtest/recording/recorder.ts';
import { readParamsFile } from '../params-file.ts';
import { configFileOf, LOG_LEVELS } from '../options.ts';

export interface RunCommandOptions {
  config: string;
  strategy?: string;
  params?: string;
  duration?: number;
  logLevel?: string;
  record?: string;
}

export async function runCommand(options: RunCommandOptions): Promise<void> {
  if (options.logLevel !== undefined && !LOG_LEVELS.includes(options.logLevel)) {
    throw new TradebotError('CLI_INVALID_LOG_LEVEL', `--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${options.logLevel}"`, {
      kind: 'config',
    });
  }
  const configFile = configFileOf(options.config);
  const loaded = loadConfig(configFile);
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
      configFile,
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
}
