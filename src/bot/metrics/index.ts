/**
 * Optional Prometheus metrics of a run (`bot.metrics: { port }`): BotMetrics (bot-metrics.ts) holds the
 * registry and its counters, gauges and the feed-latency histogram; startMetricsServer (server.ts) serves
 * them on 127.0.0.1:<port>/metrics.
 */
export { BotMetrics, DEFAULT_LATENCY_BUCKETS, type BotMetricsOptions, type ObservedEvent, type RunMetricsSource } from './bot-metrics.ts';
export { startMetricsServer, METRICS_PATH, type MetricsServer, type MetricsServerOptions } from './server.ts';
