/**
 * The gateway's lookups (`/api/v1beta1`): get_open_orders, search_orders and search_trades (paged, with
 * async iterators that walk every page), list_account_positions, get_account_balance and get_who_am_i.
 * All are idempotent, so the retry wrapper may repeat them. The venue says lookups are for recovery after a
 * reconnect, never for regular polling: use the streams for live state.
 *
 * Paging: a request's `pageToken` '' asks for the first page; a response's `nextPageToken` '' means the last.
 * The iterators stop with GATEWAY_BAD_RESPONSE if the gateway hands back a token it already gave (a loop).
 */
import { gateway } from '../../domain/index.ts';
import type { Balance, Order, PositionsResponse, SearchOrdersResponse, SearchTradesResponse, Trade, WhoAmI } from '../../domain/index.ts';
import type { AuthedCaller } from './authed-caller.ts';
import { decodeResponse } from './call.ts';
import type { RequestOptions } from './call.ts';
import { type InstrumentCatalog, scaleSourceOf } from './catalog.ts';
import { badResponse } from './errors.ts';
import {
  type OpenOrdersInput,
  type SearchOrdersInput,
  type SearchTradesInput,
  toSearchOrdersRequest,
  toSearchTradesRequest,
} from './order-inputs.ts';

export interface PositionsInput {
  /** `firms/<firm_id>/accounts/<account_id>` */
  readonly name: string;
  /** Only this symbol; all when absent. */
  readonly symbol?: string;
}

export interface BalanceInput {
  /** `firms/<firm_id>/accounts/<account_id>` */
  readonly name: string;
  /** e.g. "USD"; the account's currency when absent. */
  readonly currency?: string;
}

/** Walks pages: `fetch(token)` returns the items of a page and the next token ('' = last page). */
export async function* walkPages<T>(
  operation: string,
  firstToken: string,
  fetch: (pageToken: string) => Promise<{ items: readonly T[]; next: string }>,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>([firstToken]);
  let token = firstToken;
  for (;;) {
    const page = await fetch(token);
    yield* page.items;
    if (page.next === '') return;
    if (seen.has(page.next)) throw badResponse(operation, new Error(`the gateway repeated page token "${page.next}"`));
    seen.add(page.next);
    token = page.next;
  }
}

export class GatewayLookupsApi {
  constructor(
    private readonly caller: AuthedCaller,
    private readonly catalog: InstrumentCatalog,
  ) {}

  /** Working orders of the caller's accounts (all of them when `accounts` is empty), optionally by symbol. */
  async getOpenOrders(input: OpenOrdersInput = {}, options: RequestOptions = {}): Promise<readonly Order[]> {
    const body = gateway.openOrdersRequest.encode({ accounts: input.accounts ?? [], symbols: input.symbols ?? [] });
    const json = await this.caller.call('get_open_orders', body, { ...options, idempotent: true });
    return decodeResponse('get_open_orders', () => gateway.openOrdersResponse.decode(json, this.scales()).orders);
  }

  /** One page of orders. */
  async searchOrders(input: SearchOrdersInput = {}, options: RequestOptions = {}): Promise<SearchOrdersResponse> {
    const body = gateway.searchOrdersRequest.encode(toSearchOrdersRequest(input));
    const json = await this.caller.call('search_orders', body, { ...options, idempotent: true });
    return decodeResponse('search_orders', () => gateway.searchOrdersResponse.decode(json, this.scales()));
  }

  /** Every order matching `input`, page after page (`pageSize` sets the page length). */
  iterateOrders(input: SearchOrdersInput = {}, options: RequestOptions = {}): AsyncGenerator<Order, void, undefined> {
    return walkPages('search_orders', input.pageToken ?? '', async (pageToken) => {
      const page = await this.searchOrders({ ...input, pageToken }, options);
      return { items: page.orders, next: page.nextPageToken };
    });
  }

  /** One page of trades. */
  async searchTrades(input: SearchTradesInput = {}, options: RequestOptions = {}): Promise<SearchTradesResponse> {
    const body = gateway.searchTradesRequest.encode(toSearchTradesRequest(input));
    const json = await this.caller.call('search_trades', body, { ...options, idempotent: true });
    return decodeResponse('search_trades', () => gateway.searchTradesResponse.decode(json, this.scales()));
  }

  /** Every trade matching `input`, page after page (`pageSize` sets the page length). */
  iterateTrades(input: SearchTradesInput = {}, options: RequestOptions = {}): AsyncGenerator<Trade, void, undefined> {
    return walkPages('search_trades', input.pageToken ?? '', async (pageToken) => {
      const page = await this.searchTrades({ ...input, pageToken }, options);
      return { items: page.trades, next: page.nextPageToken };
    });
  }

  async listAccountPositions(input: PositionsInput, options: RequestOptions = {}): Promise<PositionsResponse> {
    const body = gateway.positionsRequest.encode({ name: input.name, symbol: input.symbol ?? '' });
    const json = await this.caller.call('list_account_positions', body, { ...options, idempotent: true });
    return decodeResponse('list_account_positions', () => gateway.positionsResponse.decode(json, this.scales()));
  }

  async getAccountBalance(input: BalanceInput, options: RequestOptions = {}): Promise<Balance> {
    const body = gateway.balanceRequest.encode({ name: input.name, currency: input.currency ?? '' });
    const json = await this.caller.call('get_account_balance', body, { ...options, idempotent: true });
    return decodeResponse('get_account_balance', () => gateway.balance.decode(json));
  }

  /** The logged-in user: participant id, firm, user, username and tradable accounts. */
  async getWhoAmI(options: RequestOptions = {}): Promise<WhoAmI> {
    const json = await this.caller.call('get_who_am_i', {}, { ...options, idempotent: true });
    return decodeResponse('get_who_am_i', () => gateway.whoAmI.decode(json));
  }

  private scales(): ReturnType<typeof scaleSourceOf> {
    return scaleSourceOf(this.catalog);
  }
}
