/**
 * What callers of the family A client pass: the domain request types with only the fields that matter
 * required, and every other field defaulting to its proto3 zero value (omitted on the wire). `undefined`
 * in an input means "use the default", so spreading partial objects is safe. The zero values are the ones
 * the gateway and gRPC clients use too (../request-defaults.ts).
 */
import { ZERO } from '../../domain/index.ts';
import { CANCEL_ZEROS, ORDER_ZEROS, REPLACE_ZEROS, openOrdersZeros, searchOrdersZeros, searchTradesZeros } from '../request-defaults.ts';
import type {
  CancelOrderRequest,
  ListInstrumentsRequest,
  OpenOrdersRequest,
  OrderRequest,
  ReplaceOrderRequest,
  SearchOrdersRequest,
  SearchTradesRequest,
  TradeStatsRequest,
} from '../../domain/index.ts';

type Input<T, K extends keyof T> = Pick<T, K> & { readonly [P in Exclude<keyof T, K>]?: T[P] | undefined };

/** Copies `defaults`, then every defined value of `input`. */
export function withDefaults<T extends object>(defaults: T, input: { readonly [K in keyof T]?: T[K] | undefined }): T {
  const out = Object.assign({}, defaults) as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = value;
  return out as T;
}

export type OrderInput = Input<OrderRequest, 'symbol' | 'side' | 'type' | 'orderQty'>;

export function orderRequest(input: OrderInput): OrderRequest {
  return withDefaults<OrderRequest>(
    { account: '', clordId: '', ...ORDER_ZEROS, symbol: '', side: 'SIDE_UNDEFINED', type: 'ORDER_TYPE_UNDEFINED', orderQty: ZERO },
    input,
  );
}

export type CancelInput = Input<CancelOrderRequest, 'orderId' | 'symbol'>;

export function cancelRequest(input: CancelInput): CancelOrderRequest {
  return withDefaults<CancelOrderRequest>({ orderId: '', symbol: '', ...CANCEL_ZEROS }, input);
}

export type ReplaceInput = Input<ReplaceOrderRequest, 'orderId' | 'symbol'>;

export function replaceRequest(input: ReplaceInput): ReplaceOrderRequest {
  return withDefaults<ReplaceOrderRequest>({ orderId: '', symbol: '', clordId: '', ...REPLACE_ZEROS }, input);
}

export type SearchTradesInput = Input<SearchTradesRequest, never>;

export function searchTradesRequest(input: SearchTradesInput = {}): SearchTradesRequest {
  return withDefaults<SearchTradesRequest>(searchTradesZeros(), input);
}

export type SearchOrdersInput = Input<SearchOrdersRequest, never>;

export function searchOrdersRequest(input: SearchOrdersInput = {}): SearchOrdersRequest {
  return withDefaults<SearchOrdersRequest>(searchOrdersZeros(), input);
}

export type TradeStatsInput = Input<TradeStatsRequest, 'symbol'>;

export function tradeStatsRequest(input: TradeStatsInput): TradeStatsRequest {
  return withDefaults<TradeStatsRequest>(
    { symbol: '', startTime: undefined, endTime: undefined, bars: 0, startTradeDate: undefined, endTradeDate: undefined },
    input,
  );
}

export type OpenOrdersInput = Input<OpenOrdersRequest, never>;

export function openOrdersRequest(input: OpenOrdersInput = {}): OpenOrdersRequest {
  return withDefaults<OpenOrdersRequest>(openOrdersZeros(), input);
}

export type ListInstrumentsInput = Input<ListInstrumentsRequest, never>;

export function listInstrumentsRequest(input: ListInstrumentsInput = {}): ListInstrumentsRequest {
  return withDefaults<ListInstrumentsRequest>({ symbols: [], pageSize: 0, pageToken: '' }, input);
}
