/**
 * Metrics for one live run, as the runner uses them: `startRunMetrics(bot.metrics, logger)` starts the
 * endpoint (or returns undefined when `bot.metrics` is absent) and logs its URL; the runner passes
 * `observe` to the pipeline's `record` hook, `bind`s the running pipeline's counters and portfolio once
 * they exist, and `close`s the endpoint when the run ends.
 */
import type { Logger } from 'pino';
import type { BotConfig } from '../config.ts';
import { BotMetrics, type ObservedEvent, type RunMetricsSource } from './bot-metrics.ts';
import { startMetricsServer } from './server.ts';

export interface RunMetrics {
  readonly url: string;
  readonly observe: (observed: ObservedEvent) => void;
  bind(source: RunMetricsSource): void;
  close(): Promise<void>;
}

export async function startRunMetrics(settings: BotConfig['metrics'], logger: Logger): Promise<RunMetrics | undefined> {
  if (settings === undefined) return undefined;
  const metrics = new BotMetrics();
  const server = await startMetricsServer({ metrics, port: settings.port });
  logger.info({ url: server.url }, `Prometheus metrics at ${server.url}`);
  return {
    url: server.url,
    observe: metrics.observe,
    bind: (source) => metrics.bind(source),
    close: () => server.close(),
  };
}
