/**
 * The body of `tradebot run` (registered in ../commands/run.ts, loaded only when the command runs): loads the
 * config (and a --params file), starts the live runner with signal handling and prints the `run.summary` line.
 */
import { loadConfig } from '../../config/index.ts';
import { createLogger, type LogLevel } from '../../logging/logger.ts';
import { runLive } from '../../bot/live/run-live.ts';
import { terminalStatus } from '../../bot/live/terminal-status.ts';
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
  // on a terminal, logs and the status line share stderr: log lines scroll above the status line
  const terminal = process.stderr.isTTY ? terminalStatus(process.stderr) : undefined;
  const logger = createLogger({
    level: (options.logLevel ?? config.logging.level) as LogLevel,
    pretty: config.logging.pretty,
    ...(terminal === undefined ? {} : { destination: terminal.logStream }),
  });
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
      ...(terminal === undefined ? {} : { statusStream: terminal.statusStream }),
      stopSignal,
      onOperatorToggle: (toggle) => {
        onSigusr2 = toggle;
        process.on('SIGUSR2', toggle);
      },
      ...(record === undefined ? {} : { recorder: (run) => openRecorder(record, run) }),
      // a machine-readable line for whoever started the bot (the token is in it: stdout, never the log)
      onConsoleReady: (url) => process.stdout.write(`${JSON.stringify({ event: 'console.ready', url })}\n`),
    });
  } finally {
    // in-process callers (tests) get their signals back
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    if (onSigusr2 !== undefined) process.off('SIGUSR2', onSigusr2);
  }
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
