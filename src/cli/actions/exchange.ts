/**
 * The body of `tradebot exchange <view>` (declared in ../commands/exchange.ts): logs in to the configured
 * exchange's gateway, reads one view through its lookups (open orders or an order search, the trade search,
 * positions, balances) for the user's accounts, and prints it as a table or one JSON document (`--json`).
 * Amounts are the exchange's decimals as strings; nothing is computed. Lookups are paged by the client and
 * stop at `--limit` rows (default 100).
 */
import { loadConfig } from '../../config/index.ts';
import type { Balance, Order, Position, Trade } from '../../domain/index.ts';
import { formatTimestamp } from '../../domain/time.ts';
import { createLogger, type LogLevel } from '../../logging/logger.ts';
import { openGatewaySession } from '../../bot/live/connection.ts';
import { TradebotError } from '../../errors.ts';
import { configFileOf, LOG_LEVELS } from '../options.ts';

export type ExchangeView = 'orders' | 'trades' | 'positions' | 'balances';

export interface ExchangeQuery {
  config: string;
  account?: string[];
  symbol?: string;
  json?: boolean;
  logLevel?: string;
  from?: number;
  to?: number;
  limit?: number;
  all?: boolean;
}

type Row = Record<string, string>;

const time = (ms: number | undefined): string => (ms === undefined ? '' : formatTimestamp(ms));
const short = (enumValue: string, prefix: string): string => (enumValue.startsWith(prefix) ? enumValue.slice(prefix.length) : enumValue);

export function orderRow(o: Order): Row {
  return {
    orderId: o.id,
    clordId: o.clordId,
    account: o.account,
    symbol: o.symbol,
    side: short(o.side, 'SIDE_'),
    type: short(o.type, 'ORDER_TYPE_'),
    price: o.price.toString(),
    qty: o.orderQty.toString(),
    filled: o.cumQty.toString(),
    leaves: o.leavesQty.toString(),
    state: short(o.state, 'ORDER_STATE_'),
  };
}

/** One row per side of the trade that is one of `accounts` (a trade between two of them gives two rows). */
export function tradeRows(t: Trade, accounts: ReadonlySet<string>): Row[] {
  return [t.aggressor, t.passive]
    .filter((e) => accounts.has(e.order.account))
    .map((e) => ({
      tradeId: t.id,
      time: time(e.transactTime),
      account: e.order.account,
      symbol: e.order.symbol,
      side: short(e.order.side, 'SIDE_'),
      qty: e.lastShares.toString(),
      price: e.lastPx.toString(),
      liquidity: e === t.aggressor ? 'taker' : 'maker',
      orderId: e.order.id,
      state: short(t.state, 'TRADE_STATE_'),
    }));
}

export function positionRow(p: Position): Row {
  return {
    account: p.account,
    symbol: p.symbol,
    net: p.netPosition.toString(),
    openBuy: p.openBuyQty.toString(),
    openSell: p.openSellQty.toString(),
    avgEntryPx: p.avgEntryPx.toString(),
    realizedPnl: p.realizedPnl.toString(),
  };
}

export function balanceRow(b: Balance): Row {
  return {
    account: b.account,
    currency: b.currency,
    balance: b.balance.toString(),
    buyingPower: b.buyingPower.toString(),
    openOrders: b.openOrders.toString(),
    unsettled: b.unsettledFunds.toString(),
    withdrawable: b.availableToWithdraw.toString(),
  };
}

/** Rows as aligned columns (numbers right-aligned), a header first; "(none)" for no rows. */
export function formatTable(rows: readonly Row[]): string {
  const first = rows[0];
  if (first === undefined) return '(none)\n';
  const keys = Object.keys(first);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => (r[k] ?? '').length)));
  const numeric = keys.map((k) => rows.every((r) => /^-?[0-9.]*$/.test(r[k] ?? '')));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(keys), ...rows.map((r) => line(keys.map((k) => r[k] ?? '')))].join('\n')}\n`;
}

async function take<T>(items: AsyncIterable<T>, limit: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

export async function exchangeCommand(view: ExchangeView, query: ExchangeQuery): Promise<void> {
  if (query.logLevel !== undefined && !LOG_LEVELS.includes(query.logLevel))
    throw new TradebotError('CLI_INVALID_LOG_LEVEL', `--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${query.logLevel}"`, {
      kind: 'config',
    });
  const configFile = configFileOf(query.config);
  const config = loadConfig(configFile);
  const logger = createLogger({ level: (query.logLevel ?? 'warn') as LogLevel, pretty: config.logging.pretty });
  const session = await openGatewaySession(config, logger, { configFile });
  try {
    const unknown = (query.account ?? []).filter((a) => !session.accounts.includes(a));
    if (unknown.length > 0)
      throw new TradebotError(
        'CLI_UNKNOWN_ACCOUNT',
        `not an account of this user: ${unknown.join(', ')} (theirs: ${session.accounts.join(', ')})`,
        {
          kind: 'config',
        },
      );
    const accounts = query.account ?? [...session.accounts];
    const rows = await readView(view, query, session.gateway, accounts);
    process.stdout.write(query.json === true ? `${JSON.stringify({ event: `exchange.${view}`, rows })}\n` : formatTable(rows));
  } finally {
    await session.close();
  }
}

type Gateway = Awaited<ReturnType<typeof openGatewaySession>>['gateway'];

async function readView(view: ExchangeView, query: ExchangeQuery, gateway: Gateway, accounts: readonly string[]): Promise<Row[]> {
  const limit = query.limit ?? 100;
  const symbol = query.symbol ?? '';
  const window = { startTime: query.from, endTime: query.to };
  switch (view) {
    case 'orders': {
      if (query.all === true) return (await take(gateway.iterateOrders({ accounts, symbol, ...window }), limit)).map(orderRow);
      const open = await gateway.getOpenOrders({ accounts, symbols: symbol === '' ? [] : [symbol] });
      return open.slice(0, limit).map(orderRow);
    }
    case 'trades': {
      const mine = new Set(accounts);
      return (await take(gateway.iterateTrades({ accounts, symbol, ...window }), limit)).flatMap((t) => tradeRows(t, mine));
    }
    case 'positions': {
      const rows: Row[] = [];
      for (const name of accounts) {
        const answer = await gateway.listAccountPositions({ name, ...(symbol === '' ? {} : { symbol }) });
        rows.push(...answer.positions.map(positionRow));
      }
      return rows;
    }
    case 'balances': {
      const rows: Row[] = [];
      for (const name of accounts) rows.push(balanceRow(await gateway.getAccountBalance({ name })));
      return rows;
    }
  }
}
