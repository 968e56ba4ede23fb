/**
 * `tradebot exchange orders|trades|positions|balances`: the exchange's own view, read through the gateway's
 * lookups for any configured environment (or the embedded exchange of config/sim.yaml), so an operator can
 * check what the exchange holds against what the bot says without writing HTTP calls. A table by default,
 * `--json` for one JSON document. The work is in ../actions/exchange.ts, loaded when the command runs.
 */
import type { Command } from 'commander';
import { tryParseTimestamp } from '../../domain/time.ts';
import { DEFAULT_CONFIG, LOG_LEVELS, invalidOption } from '../options.ts';
import type { ExchangeQuery, ExchangeView } from '../actions/exchange.ts';

function parseTime(option: string) {
  return (text: string): number => {
    const ms = tryParseTimestamp(text);
    if (ms === undefined) throw invalidOption(`${option} expects an ISO 8601 time such as 2026-11-30T14:00:00Z, got "${text}"`);
    return ms;
  };
}

function parseLimit(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw invalidOption(`--limit expects a whole number from 1 to 100000, got "${text}"`);
  return n;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerExchangeCommand(program: Command): void {
  const exchange = program
    .command('exchange')
    .description("The exchange's own view (orders, trades, positions, balances) of the configured environment");
  const view = (name: ExchangeView, description: string, filters: { time?: boolean; all?: boolean } = {}) => {
    const command = exchange
      .command(name)
      .description(description)
      .option('-c, --config <file>', 'config file naming the environment (config/sim.yaml: the embedded exchange)', DEFAULT_CONFIG)
      .option('--account <name>', 'only this account (repeatable; default: every account of the user)', collect)
      .option('--symbol <symbol>', 'only this symbol')
      .option('--json', 'one JSON document instead of a table')
      .option('--log-level <level>', `one of ${LOG_LEVELS.join(', ')} (default warn)`);
    if (filters.time === true) {
      command
        .option('--from <time>', 'from this time (ISO 8601)', parseTime('--from'))
        .option('--to <time>', 'until this time (ISO 8601)', parseTime('--to'))
        .option('--limit <n>', 'at most this many rows (default 100)', parseLimit);
    }
    if (filters.all === true) command.option('--all', 'search every order (any state), not only the open ones');
    command.action(async (options: ExchangeQuery) => (await import('../actions/exchange.ts')).exchangeCommand(name, options));
  };
  view('orders', 'Open orders (--all: an order search, any state, with --from/--to/--limit)', { time: true, all: true });
  view('trades', 'Trades of your accounts (trade search with --symbol, --from, --to, --limit)', { time: true });
  view('positions', 'Positions per account and symbol');
  view('balances', 'Balances per account');
}
