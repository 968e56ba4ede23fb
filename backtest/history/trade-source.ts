/**
 * Where `history fetch` gets trades: one page of the exchange's trade search at a time, through the real
 * clients (gateway `search_trades`, or family A `POST /v1/report/trades/search`), each trade as the client
 * decoded it with its instrument's scales; `wire` re-encodes one to the wire JSON of that family with the
 * same codec the client decoded it with (the canonical form of what the exchange sent: full-format lines).
 * Paging is by the exchange's own tokens, which is what makes a fetch resumable.
 * Trade search takes one symbol: several symbols are searched together (no symbol filter) and the others
 * dropped here. `settlements` reads the instrument state and `stats.settlementPx` of the contracts that expire
 * by the window's end from the exchange's market data (gateway: a snapshot-only market data subscription;
 * family A: GET /v1/orderbook/{symbol}), for the header (format.ts).
 */
import { ZERO } from '../../src/domain/decimal.ts';
import { familyA, gateway, scalesOf, type Instrument, type InstrumentScales, type OrderBook, type Trade } from '../../src/domain/index.ts';
import type { FamilyAClient } from '../../src/exchange/familya/index.ts';
import type { GatewayClient } from '../../src/exchange/gateway/index.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { isOver, type HistorySource, type RecordedSettlement } from './format.ts';

export interface PageRequest {
  readonly symbols: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly pageSize: number;
  readonly pageToken: string;
}

/** A trade of the search and its instrument's scales. */
export interface SourcedTrade {
  readonly trade: Trade;
  readonly scales: InstrumentScales;
}

export interface TradePage {
  /** The trades in the requested symbols, in the exchange's order. */
  readonly trades: readonly SourcedTrade[];
  /** Trades of other symbols the page carried (dropped). */
  readonly skipped: number;
  /** Of `trades`, how many are TRADE_STATE_BUSTED (kept). */
  readonly busted: number;
  /** '' on the last page. */
  readonly nextPageToken: string;
  /** Transact time of the page's last trade (progress through the window). */
  readonly lastTime: number | undefined;
}

export interface TradePageSource {
  readonly source: HistorySource;
  /** Reference data of the requested symbols (for the header); loads their scales for `page`, so it comes first. */
  instruments(symbols: readonly string[]): Promise<readonly Instrument[]>;
  page(request: PageRequest): Promise<TradePage>;
  /** The state and settlement price the exchange's market data shows for `symbols` (only those that are over). */
  settlements(symbols: readonly string[]): Promise<readonly RecordedSettlement[]>;
  /** A trade's wire JSON in this source's family naming (what a full-format line carries). */
  wire(trade: Trade, scales: InstrumentScales): Record<string, unknown>;
  close(): Promise<void>;
}

function toPage(trades: readonly Trade[], next: string, request: PageRequest, scales: ReadonlyMap<string, InstrumentScales>): TradePage {
  const out: SourcedTrade[] = [];
  let skipped = 0;
  let busted = 0;
  let lastTime: number | undefined;
  for (const trade of trades) {
    lastTime = trade.aggressor.transactTime ?? lastTime;
    const symbol = trade.aggressor.order.symbol;
    if (!request.symbols.includes(symbol)) {
      skipped++;
      continue;
    }
    const s = scales.get(symbol);
    // never counted as skipped: that would quietly leave a requested symbol's trades out of the file
    if (s === undefined)
      throw backtestError(
        BacktestErrorCode.UNKNOWN_SYMBOL,
        `a trade in ${symbol} came before its instrument's scales were loaded: call instruments() first`,
      );
    if (trade.state === 'TRADE_STATE_BUSTED') busted++;
    out.push({ trade, scales: s });
  }
  return { trades: out, skipped, busted, nextPageToken: next, lastTime };
}

/** The books of instruments that are over, as header settlements, in the order of `symbols`. */
function settlementsOf(symbols: readonly string[], books: ReadonlyMap<string, OrderBook>): RecordedSettlement[] {
  return symbols.flatMap((symbol) => {
    const book = books.get(symbol);
    if (book === undefined || book.state === undefined || !isOver(book.state)) return [];
    return [{ symbol, state: book.state, settlementPx: book.stats?.settlementPx ?? ZERO }];
  });
}

const searchInput = (r: PageRequest) => ({
  startTime: r.from,
  endTime: r.to,
  symbol: r.symbols.length === 1 ? (r.symbols[0] as string) : '',
  pageSize: r.pageSize,
  pageToken: r.pageToken,
});

/** Trade search through the gateway client (snake_case lines). */
export function gatewaySource(client: GatewayClient, instruments: readonly Instrument[], close: () => Promise<void>): TradePageSource {
  const scales = new Map(instruments.map((i) => [i.symbol, scalesOf(i)]));
  return {
    source: 'gateway',
    instruments: async (symbols) => instruments.filter((i) => symbols.includes(i.symbol)),
    page: async (request) => {
      const response = await client.searchTrades(searchInput(request));
      return toPage(response.trades, response.nextPageToken, request, scales);
    },
    settlements: async (symbols) =>
      symbols.length === 0 ? [] : settlementsOf(symbols, await client.marketDataSnapshot({ symbols: [...symbols], depth: 1 })),
    wire: (trade, s) => gateway.trade.encode(trade, s),
    close,
  };
}

/** Trade search through the family A client (camelCase lines). */
export function familyASource(client: FamilyAClient, close: () => Promise<void>): TradePageSource {
  const scales = new Map<string, InstrumentScales>();
  return {
    source: 'familyA',
    instruments: async (symbols) => {
      const loaded = await client.loadInstruments(symbols);
      for (const i of loaded) scales.set(i.symbol, scalesOf(i));
      return loaded.filter((i) => symbols.includes(i.symbol));
    },
    page: async (request) => {
      const response = await client.searchTrades(searchInput(request));
      return toPage(response.trades, response.nextPageToken, request, scales);
    },
    settlements: async (symbols) => {
      const books = new Map<string, OrderBook>();
      for (const symbol of symbols) books.set(symbol, await client.orderbook(symbol, 1));
      return settlementsOf(symbols, books);
    },
    wire: (trade, s) => familyA.trade.encode(trade, s),
    close,
  };
}
