/**
 * `tradebot backtest`: one strategy over a history file through the same pipeline as live, with a
 * simulated venue and virtual time (backtest/run-backtest.ts). Writes `<out>/report.json` (deterministic),
 * `<out>/run.json` (wall-clock figures) and `<out>/report.html`; a progress bar by bytes read on stderr
 * (log lines when stderr is not a terminal) and a one-screen summary on stdout at the end.
 * Flags override single values of the config's `backtest` section. Params: --params, else the config's
 * bot.params when its bot.strategy is the strategy run, else the strategy's defaults (backtest/strategy-params.ts),
 * as `tradebot sweep` chooses its base params.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_BACKTEST_CONFIG, loadBacktestConfig, type BacktestConfig } from '../../../backtest/config.ts';
import { createProgress } from '../../../backtest/progress.ts';
import { formatSummary } from '../../../backtest/results/summary.ts';
import { writeResults } from '../../../backtest/results/write-results.ts';
import { runBacktest } from '../../../backtest/run-backtest.ts';
import { ConfigError } from '../../config/index.ts';
import { parseYaml } from '../../config/yaml.ts';
import type { ConfigProblem } from '../../config/index.ts';
import { Decimal } from '../../domain/decimal.ts';
import { createLogger, type LogLevel } from '../../logging/logger.ts';
import { TradebotError } from '../../errors.ts';

interface BacktestCommandOptions {
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

const invalid = (message: string) => new TradebotError('CLI_INVALID_OPTION', message, { kind: 'config' });

function parseMs(option: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw invalid(`${option} expects whole milliseconds >= 0, got "${text}"`);
    return n;
  };
}

function parseBps(option: string) {
  return (text: string): string => {
    if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text)) throw invalid(`${option} expects basis points such as "10" or "2.5", got "${text}"`);
    return text;
  };
}

/** Params from a YAML file: a mapping of params, or a file whose `params` key holds them. */
function readParams(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TradebotError('CLI_FILE_NOT_FOUND', `--params: cannot read ${file}: ${(error as Error).message}`, { kind: 'config' });
  }
  const problems: ConfigProblem[] = [];
  const tree = parseYaml(text, problems);
  if (problems.length > 0) throw new ConfigError(problems, file);
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) throw invalid(`--params: ${file} must hold a mapping of strategy params`);
  const record = tree as Record<string, unknown>;
  const inner = record['params'];
  return Object.keys(record).length === 1 && typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : record;
}

function withOverrides(config: BacktestConfig, o: BacktestCommandOptions): BacktestConfig {
  const section = config.backtest;
  const queue = o.queueModel;
  if (queue !== undefined && queue !== 'volume' && queue !== 'level' && queue !== 'none') throw invalid(`--queue-model must be volume, level or none, got "${queue}"`);
  const base = section.commissions ?? config.bot.fees;
  return {
    ...config,
    backtest: {
      ...section,
      latency: { ...section.latency, ...(o.insertLatencyMs === undefined ? {} : { insertMs: o.insertLatencyMs }), ...(o.cancelLatencyMs === undefined ? {} : { cancelMs: o.cancelLatencyMs, replaceMs: o.cancelLatencyMs }) },
      commissions: { takerBps: o.takerBps === undefined ? base.takerBps : new Decimal(o.takerBps), makerBps: o.makerBps === undefined ? base.makerBps : new Decimal(o.makerBps) },
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

export function registerBacktestCommand(program: Command): void {
  program
    .command('backtest')
    .description('Replay a history file through the live pipeline with simulated fills; writes report.json and report.html')
    .option('-s, --strategy <name|path>', 'strategy from strategies/ or a path (default: bot.strategy of the config)')
    .requiredOption('--data <file>', 'history file (tradebot history fetch) or recording (tradebot run --record)')
    .option('--params <yaml>', "strategy params (YAML mapping; default: the config's bot.params when its bot.strategy is the one run, else the strategy's defaults on the data's symbols)")
    .option('-c, --config <file>', 'backtest config (bot, risk and backtest sections)', DEFAULT_BACKTEST_CONFIG)
    .requiredOption('--out <dir>', 'folder for report.json, run.json and report.html')
    .option('--insert-latency-ms <ms>', 'virtual ms until an insert reaches the exchange', parseMs('--insert-latency-ms'))
    .option('--cancel-latency-ms <ms>', 'virtual ms until a cancel or replace reaches the exchange', parseMs('--cancel-latency-ms'))
    .option('--taker-bps <bps>', 'taker commission in basis points', parseBps('--taker-bps'))
    .option('--maker-bps <bps>', 'maker commission in basis points', parseBps('--maker-bps'))
    .option('--queue-model <model>', 'queue ahead of resting orders: volume, level or none')
    .option('--log-level <level>', 'trace, debug, info, warn or error (overrides logging.level)')
    .action(async (options: BacktestCommandOptions) => {
      const config = withOverrides(loadBacktestConfig(options.config), options);
      const logger = createLogger({ level: (options.logLevel ?? config.logging.level) as LogLevel, pretty: config.logging.pretty });
      const params = options.params === undefined ? undefined : readParams(options.params);
      const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
      let progress: ReturnType<typeof createProgress> | undefined;
      const result = await runBacktest({
        data: options.data,
        config,
        logger,
        ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
        ...(params === undefined ? {} : { params }),
        onProgress: (p) => {
          progress ??= createProgress({ label: 'backtest', total: p.totalBytes, unit: mb });
          progress.update(p.bytesRead, { events: p.events });
        },
      });
      progress?.stop();
      const written = await writeResults(options.out, result, { command: 'backtest', data: options.data, config: options.config, finishedAt: new Date().toISOString() });
      if (written.htmlSkipped !== undefined) logger.warn(`report.html not written: ${written.htmlSkipped}`);
      process.stdout.write(formatSummary(result.report, result.wall));
      process.stdout.write(`  output     ${written.reportJson}${written.reportHtml === undefined ? '' : `, ${written.reportHtml}`}, ${written.runJson}\n`);
    });
}
