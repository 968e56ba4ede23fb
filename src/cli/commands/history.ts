/**
 * `tradebot history fetch`: pulls the exchange's trade search into a history file (JSON lines, header
 * first; see backtest/history/format.ts), page by page, resumable (`<out>.state.json`), rate-limited,
 * busted trades kept, in the compact format (default) or the exchange's full records (`--format full`; see
 * backtest/history/format.ts). With the default config (a `sim` section, no `exchange`) it runs the embedded
 * exchange's market activity over the window in virtual time and fetches from it. The API family (gateway
 * `search_trades` or family A `/v1/report/trades/search`) is the config's `bot.venue`, or `--source`.
 * Progress on stderr (a bar in a terminal, log lines otherwise); one `history.fetched` JSON line on stdout.
 * SIGINT stops between pages; running the same command again resumes.
 */
import type { Command } from 'commander';
import type { HistoryFormat, HistorySource } from '../../../backtest/history/format.ts';
import { tryParseTimestamp } from '../../domain/time.ts';
import type { LogLevel } from '../../logging/logger.ts';
import { TradebotError } from '../../errors.ts';
import { configFileOf, DEFAULT_CONFIG } from '../options.ts';

interface FetchOptions {
  symbol: string[];
  from: number;
  to: number;
  out: string;
  config: string;
  source?: HistorySource;
  format?: HistoryFormat;
  pageSize: number;
  pauseMs: number;
  force?: boolean;
  logLevel?: string;
}

const invalid = (message: string) => new TradebotError('CLI_INVALID_OPTION', message, { kind: 'config' });

function parseTime(option: string) {
  return (text: string): number => {
    const ms = tryParseTimestamp(text);
    if (ms === undefined) throw invalid(`${option} expects an ISO 8601 time such as 2026-11-30T14:00:00Z, got "${text}"`);
    return ms;
  };
}

function parseCount(option: string, min: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw invalid(`${option} expects a whole number of at least ${min}, got "${text}"`);
    return n;
  };
}

function parseFormat(text: string): HistoryFormat {
  if (text !== 'compact' && text !== 'full') throw invalid(`--format must be compact or full, got "${text}"`);
  return text;
}

function parseSource(text: string): HistorySource {
  if (text !== 'familyA' && text !== 'gateway') throw invalid(`--source must be familyA or gateway, got "${text}"`);
  return text;
}

export function registerHistoryCommand(program: Command): void {
  const history = program.command('history').description('Historical trades for backtests');
  history
    .command('fetch')
    .description('Fetch the exchange trade search into a history file (resumable, busted trades kept)')
    .requiredOption('--symbol <symbol>', 'a symbol to fetch (repeat for several)', (value: string, previous: string[] = []) => [
      ...previous,
      value,
    ])
    .requiredOption('--from <iso>', 'start of the window (inclusive)', parseTime('--from'))
    .requiredOption('--to <iso>', 'end of the window (exclusive)', parseTime('--to'))
    .requiredOption('--out <file>', 'history file to write (JSON lines); <file>.state.json tracks progress')
    .option('-c, --config <file>', 'config: a sim section (embedded exchange) or an exchange section', DEFAULT_CONFIG)
    .option(
      '--source <family>',
      "familyA or gateway: the trade search fetched from (and the naming of the lines); default: the config's bot.venue",
      parseSource,
    )
    .option(
      '--format <format>',
      "compact (what replay needs, ~150 bytes a trade) or full (the exchange's whole records, ~1.7 KB a trade); " +
        'default compact, or the format an interrupted fetch was started in',
      parseFormat,
    )
    .option('--page-size <n>', 'trades per page', parseCount('--page-size', 1), 500)
    .option('--pause-ms <ms>', 'pause between pages', parseCount('--pause-ms', 0), 100)
    .option('--force', 'overwrite an existing file / start over')
    .option('--log-level <level>', 'trace, debug, info, warn or error (overrides logging.level)')
    .action(async (options: FetchOptions) => {
      if (options.to <= options.from) throw invalid('--to must be after --from');
      // loaded here, not at start, so that `tradebot --help` stays fast
      const { loadBacktestConfig } = await import('../../../backtest/config.ts');
      const { connectTradeSource } = await import('../../../backtest/history/connect-source.ts');
      const { fetchHistory } = await import('../../../backtest/history/fetch-history.ts');
      const { createProgress } = await import('../../../backtest/progress.ts');
      const { createLogger } = await import('../../logging/logger.ts');
      const config = loadBacktestConfig(configFileOf(options.config));
      const logger = createLogger({ level: (options.logLevel ?? config.logging.level) as LogLevel, pretty: config.logging.pretty });
      const symbols = [...new Set(options.symbol)];
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.once('SIGINT', onSigint);
      const source = await connectTradeSource(config, {
        symbols,
        from: options.from,
        to: options.to,
        logger,
        ...(options.source === undefined ? {} : { source: options.source }),
      });
      const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;
      const progress = createProgress({ label: 'history', total: options.to - options.from, unit: minutes });
      try {
        const result = await fetchHistory({
          source,
          symbols,
          from: options.from,
          to: options.to,
          out: options.out,
          ...(options.format === undefined ? {} : { format: options.format }),
          pageSize: options.pageSize,
          pauseMs: options.pauseMs,
          ...(options.force === true ? { force: true } : {}),
          signal: abort.signal,
          onPage: (state, last) =>
            progress.update((last ?? options.from) - options.from, { pages: state.pages, trades: state.trades, busted: state.busted }),
        });
        progress.update(options.to - options.from, { pages: result.state.pages, trades: result.state.trades, busted: result.state.busted });
        progress.stop();
        const { pages, trades, skipped, busted, bytes } = result.state;
        const summary = {
          event: 'history.fetched',
          out: options.out,
          source: source.source,
          format: result.state.request.format ?? 'full',
          symbols,
          pages,
          trades,
          skipped,
          busted,
          bytes,
          resumed: result.resumed,
        };
        process.stdout.write(`${JSON.stringify(summary)}\n`);
      } finally {
        progress.stop();
        process.removeListener('SIGINT', onSigint);
        await source.close();
      }
    });
}
