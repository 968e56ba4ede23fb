/**
 * Domain types of lookups, searches with paging, and subscription requests. A page token of '' means
 * the first page (request) or no more pages (response). Page sizes of 0 mean the server default.
 */
import type { OrderState, TradeState } from '../enums.ts';
import type { EpochMs, ProtoDate } from '../time.ts';
import type { AvailablePosition, Balance, FundingAccount, Position, User } from './account.ts';
import type { Trade } from './execution.ts';
import type { Order } from './order.ts';
import type { Instrument } from './reference.ts';

export interface SearchTradesRequest {
  readonly accounts: readonly string[];
  readonly startTime: EpochMs | undefined;
  readonly endTime: EpochMs | undefined;
  readonly execId: string;
  readonly orderId: string;
  readonly tradeId: string;
  readonly tradeLinkId: string;
  readonly symbol: string;
  /** Family A accepts the values except TRADE_STATE_UNDEFINED. */
  readonly states: readonly TradeState[];
  readonly pageSize: number;
  readonly pageToken: string;
}

/** Wire key is `trade` (singular) in both families. */
export interface SearchTradesResponse {
  readonly trades: readonly Trade[];
  readonly nextPageToken: string;
}

/** search_orders / POST /v1/report/orders/search (payload not shown: our design, mirroring trades). */
export interface SearchOrdersRequest {
  readonly accounts: readonly string[];
  readonly symbol: string;
  readonly orderId: string;
  readonly clordId: string;
  readonly startTime: EpochMs | undefined;
  readonly endTime: EpochMs | undefined;
  readonly states: readonly OrderState[];
  readonly pageSize: number;
  readonly pageToken: string;
}

/** Wire key is `order` (singular), mirroring `trade`. */
export interface SearchOrdersResponse {
  readonly orders: readonly Order[];
  readonly nextPageToken: string;
}

export interface TradeStatsRequest {
  readonly symbol: string;
  readonly startTime: EpochMs | undefined;
  readonly endTime: EpochMs | undefined;
  readonly bars: number;
  readonly startTradeDate: ProtoDate | undefined;
  readonly endTradeDate: ProtoDate | undefined;
}

export interface OpenOrdersRequest {
  readonly accounts: readonly string[];
  readonly symbols: readonly string[];
}

export interface OpenOrdersResponse {
  readonly orders: readonly Order[];
}

export interface ListInstrumentsRequest {
  readonly symbols: readonly string[];
  readonly pageSize: number;
  readonly pageToken: string;
}

export interface ListInstrumentsResponse {
  readonly instruments: readonly Instrument[];
  readonly nextPageToken: string;
}

export interface ListSymbolsResponse {
  readonly symbols: readonly string[];
}

export interface PositionsRequest {
  /** `firms/<firm_id>/accounts/<account_id>` */
  readonly name: string;
  readonly symbol: string;
}

export interface PositionsResponse {
  readonly positions: readonly Position[];
  readonly availablePosition: readonly AvailablePosition[];
}

export interface BalanceRequest {
  readonly name: string;
  readonly currency: string;
}

export interface BalancesResponse {
  readonly balances: readonly Balance[];
}

export interface ListUsersResponse {
  readonly users: readonly User[];
  readonly nextPageToken: string;
}

export interface FundingAccountsResponse {
  readonly fundingAccounts: readonly FundingAccount[];
}

export interface OrderSubscriptionRequest {
  readonly accounts: readonly string[];
  readonly symbols: readonly string[];
  /** True: the stream carries the snapshot and then ends. */
  readonly snapshotOnly: boolean;
}

export interface MarketDataSubscriptionRequest {
  readonly symbols: readonly string[];
  /** 0 = server default (10). */
  readonly depth: number;
  readonly snapshotOnly: boolean;
}

export interface InstrumentStateSubscriptionRequest {
  readonly symbols: readonly string[];
}

export interface PositionSubscriptionRequest {
  readonly accounts: readonly string[];
}
