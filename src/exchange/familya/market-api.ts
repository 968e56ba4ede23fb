/**
 * Family A market data and reports: order book, best bid/offer, trade search (one page, or every page as
 * an async iterator), trade statistics, and health. Prices come back as Decimals via the instrument scales.
 */
import { DomainErrorCode, ORDERBOOK_DEPTH_MAX, domainError, familyA } from '../../domain/index.ts';
import type { BestBidOffer, OrderBook, SearchTradesResponse, Trade, TradeStatsResult } from '../../domain/index.ts';
import type { RequestOptions } from './call.ts';
import { decodeBody } from './call.ts';
import { decodeWithScales, pages } from './context.ts';
import type { ApiContext } from './context.ts';
import { invalidRequest } from './errors.ts';
import { familyAExtra } from './extra-resources.ts';
import type { HealthStatus } from './extra-resources.ts';
import { searchTradesRequest, tradeStatsRequest } from './inputs.ts';
import type { SearchTradesInput, TradeStatsInput } from './inputs.ts';

function checkSymbol(operation: string, symbol: string): void {
  if (symbol === '') throw invalidRequest(operation, 'symbol is required');
}

/** GET /v1/orderbook/{symbol}; depth 1..10, the server's default (3) when omitted. */
export async function orderbook(ctx: ApiContext, symbol: string, depth?: number, options?: RequestOptions): Promise<OrderBook> {
  checkSymbol('orderbook', symbol);
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 1 || depth > ORDERBOOK_DEPTH_MAX)) {
    throw invalidRequest('orderbook', `depth must be a whole number from 1 to ${ORDERBOOK_DEPTH_MAX}, got ${depth}`);
  }
  await ctx.instruments.ensure([symbol]);
  const body = await ctx.caller.call('orderbook', {
    params: { symbol },
    ...(depth === undefined ? {} : { query: { depth } }),
    ...(options === undefined ? {} : { options }),
  });
  return decodeWithScales(ctx, 'orderbook', familyA.orderBook, body);
}

/** GET /v1/orderbook/{symbol}/bbo; an empty side is undefined. */
export async function bbo(ctx: ApiContext, symbol: string, options?: RequestOptions): Promise<BestBidOffer> {
  checkSymbol('bbo', symbol);
  await ctx.instruments.ensure([symbol]);
  const body = await ctx.caller.call('bbo', { params: { symbol }, ...(options === undefined ? {} : { options }) });
  return decodeWithScales(ctx, 'bbo', familyA.bestBidOffer, body);
}

/** POST /v1/report/trades/search: one page. */
export async function searchTrades(
  ctx: ApiContext,
  input: SearchTradesInput = {},
  options?: RequestOptions,
): Promise<SearchTradesResponse> {
  const request = searchTradesRequest(input);
  if (request.states.includes('TRADE_STATE_UNDEFINED'))
    throw invalidRequest('searchTrades', 'states: TRADE_STATE_UNDEFINED is not searchable');
  const body = await ctx.caller.call('searchTrades', {
    body: familyA.searchTradesRequest.encode(request),
    ...(options === undefined ? {} : { options }),
  });
  return decodeWithScales(ctx, 'searchTrades', familyA.searchTradesResponse, body);
}

/** Every page of a trade search, starting at `input.pageToken` (default: the first page). */
export function searchTradePages(
  ctx: ApiContext,
  input: SearchTradesInput = {},
  options?: RequestOptions,
): AsyncGenerator<SearchTradesResponse, void, undefined> {
  return pages('searchTrades', input.pageToken ?? '', (pageToken) => searchTrades(ctx, { ...input, pageToken }, options));
}

/** Every trade matching the search, page after page. */
export async function* allTrades(
  ctx: ApiContext,
  input: SearchTradesInput = {},
  options?: RequestOptions,
): AsyncGenerator<Trade, void, undefined> {
  for await (const page of searchTradePages(ctx, input, options)) yield* page.trades;
}

/** POST /v1/report/trades/stats for one symbol (its scales price the answer). */
export async function tradeStats(ctx: ApiContext, input: TradeStatsInput, options?: RequestOptions): Promise<TradeStatsResult> {
  const request = tradeStatsRequest(input);
  checkSymbol('tradeStats', request.symbol);
  await ctx.instruments.ensure([request.symbol]);
  const scales = ctx.instruments.catalog.scalesOf(request.symbol);
  if (scales === undefined) {
    throw domainError(
      DomainErrorCode.SCALE_UNKNOWN_SYMBOL,
      `tradeStats: no instrument scales for symbol "${request.symbol}" (load reference data first)`,
      {
        symbol: request.symbol,
      },
    );
  }
  const body = await ctx.caller.call('tradeStats', {
    body: familyA.tradeStatsRequest.encode(request),
    ...(options === undefined ? {} : { options }),
  });
  return decodeBody('tradeStats', () => familyA.tradeStatsResult.decode(body, scales));
}

/** GET /v1/health (no token). */
export async function health(ctx: ApiContext, options?: RequestOptions): Promise<HealthStatus> {
  const body = await ctx.caller.call('health', options === undefined ? {} : { options });
  return decodeBody('health', () => familyAExtra.health.decode(body));
}
