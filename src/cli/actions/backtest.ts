/**
 * The body of `tradebot backtest` (declared in ../commands/backtest.ts, loaded only when the command runs):
 * the config with the flags' overrides, the params file, the replay with its progress bar, the output folder
 * and the one-screen summary.
 */
import path from 'node:path';
import { loadBacktestConfig, type BacktestConfig } from '../../../backtest/config.ts';
import { createProgress } from '../../../backtest/progress.ts';
import { formatSummary } from '../../../backtest/results/summary.ts';
import { writeResults } from '../../../backtest/results/write-results.ts';
import { runBacktest } from '../../../backtest/run-backtest.ts';
import { Decimal } from '../../domain/decimal.ts';
import { createLogger, type LogLevel } from '../../logging/logger.ts';
import { configFileOf, invalidOption as invalid } from '../options.ts';
import { readParamsFile } from '../params-file.ts';

export interface BacktestCommandOptions {
  strategy?: string;
  data: string;
  params?: string;
  config: string;
  out: string;
  insertLatencyMs?: number;
  cancelLatencyMs?: number;
  takerBps?: string;
  makerBps?: string;
  queueModel?: string;
  logLevel?: string;
}

function withOverrides(config: BacktestConfig, o: BacktestCommandOptions): BacktestConfig {
  const section = config.backtest;
  const queue = o.queueModel;
  if (queue !== undefined && queue !== 'volume' && queue !== 'level' && queue !== 'none')
    throw invalid(`--queue-model must be volume, level or none, got "${queue}"`);
  const base = section.commissions ?? config.bot.fees;
  return {
    ...config,
    backtest: {
      ...section,
      latency: {
        ...section.latency,
        ...(o.insertLatencyMs === undefined ? {} : { insertMs: o.insertLatencyMs }),
        ...(o.cancelLatencyMs === undefined ? {} : { cancelMs: o.cancelLatencyMs, replaceMs: o.cancelLatencyMs }),
      },
      commissions: {
        takerBps: o.takerBps === undefined ? base.takerBps : new Decimal(o.takerBps),
        makerBps: o.makerBps === undefined ? base.makerBps : new Decimal(o.makerBps),
      },
      queueAheadModel:
        queue === undefined || queue === section.queueAheadModel.model
          ? section.queueAheadModel
          : queue === 'volume'
            ? { model: 'volume', windowMs: 30_000 }
            : queue === 'level'
              ? { model: 'level', fraction: new Decimal('0.5') }
              : { model: 'none' },
    },
  };
}

export async function backtestCommand(options: BacktestCommandOptions): Promise<void> {
  const configFile = configFileOf(options.config);
  const config = withOverrides(loadBacktestConfig(configFile), options);
  // log lines carry the replayed market time (the wall clock until the data's start is known), so a refusal matches the tape
  let marketNow: (() => number) | undefined;
  const logger = createLogger({
    level: (options.logLevel ?? config.logging.level) as LogLevel,
    pretty: config.logging.pretty,
    now: () => (marketNow === undefined ? Date.now() : marketNow()),
  });
  const params = options.params === undefined ? undefined : readParamsFile(options.params);
  const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
  let progress: ReturnType<typeof createProgress> | undefined;
  const result = await runBacktest({
    data: options.data,
    config,
    logger,
    ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
    configFile,
    tablesDir: options.out,
    onClock: (clock) => {
      marketNow = () => clock.now();
    },
    ...(params === undefined || options.params === undefined ? {} : { params, paramsFile: options.params }),
    onProgress: (p) => {
      progress ??= createProgress({ label: 'backtest', total: p.totalBytes, unit: mb });
      progress.update(p.bytesRead, { events: p.events });
    },
  });
  progress?.stop();
  const written = await writeResults(options.out, result, {
    command: 'backtest',
    data: options.data,
    config: configFile,
    finishedAt: new Date().toISOString(),
  });
  if (written.htmlSkipped !== undefined) logger.warn(`report.html not written: ${written.htmlSkipped}`);
  process.stdout.write(formatSummary(result.report, result.wall));
  process.stdout.write(
    `  output     ${written.reportJson}${written.reportHtml === undefined ? '' : `, ${written.reportHtml}`}, ${written.runJson}\n`,
  );
  process.stdout.write(`  tables     ${['fills.csv', 'orders.csv', 'equity.csv'].map((f) => path.join(options.out, f)).join(', ')}\n`);
}
