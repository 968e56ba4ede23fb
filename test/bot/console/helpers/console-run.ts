/**
 * A live run of a config file (the embedded exchange) with its web console on 127.0.0.1 port 0, for the
 * console suites: `url` resolves with the console.ready URL (or rejects when the run ends before it), `stop`
 * ends the run as an operator's signal would, `run` resolves with its run.summary.
 */
import type { Logger } from 'pino';
import { loadConfig } from '../../../../src/config/index.ts';
import { runLive, type RunSummary } from '../../../../src/bot/live/run-live.ts';

export interface ConsoleRun {
  readonly url: Promise<string>;
  readonly run: Promise<RunSummary>;
  stop(reason: string): void;
}

export function startConsoleRun(configFile: string, options: { logger: Logger; durationSeconds?: number }): ConsoleRun {
  const base = loadConfig(configFile, { env: {} });
  const config = { ...base, bot: { ...base.bot, durationSeconds: undefined, control: { host: '127.0.0.1', port: 0, console: true } } };
  let stop: (reason: string) => void = () => undefined;
  let announce: (url: string) => void = () => undefined;
  const announced = new Promise<string>((resolve) => (announce = resolve));
  const run = runLive({
    config,
    logger: options.logger,
    stopSignal: new Promise<string>((resolve) => (stop = resolve)),
    ...(options.durationSeconds === undefined ? {} : { durationSeconds: options.durationSeconds }),
    onConsoleReady: (url) => announce(url),
  });
  const url = Promise.race([announced, run.then(() => Promise.reject(new Error('the run ended before its console was ready')))]);
  url.catch(() => undefined); // observed by the test's await; never an unhandled rejection when the test fails first
  return { url, run, stop: (reason) => stop(reason) };
}
