/**
 * What callers pass to the trading methods, and how it becomes a complete domain request: the required
 * fields of an order, everything else defaulting to its proto3 zero value (omitted on the wire; the zero
 * values are ../request-defaults.ts, shared with the family A client).
 *
 * clord_id decision: every insert (single, list, cross leg) and every cancel-replace carries a clord_id.
 * When the caller gives none, the client generates one (`newClordId`, default a random UUID) BEFORE the first
 * attempt, so a retry after a timeout or reset re-sends the same clord_id and the venue can recognise the
 * repeat. That is what makes these inserts idempotent for the retry wrapper; the caller still reconciles
 * through the order stream (a repeat may be rejected as a duplicate while the first attempt succeeded).
 * A cross without `crossId` gets a generated one for the same reason.
 *
 * Limits are checked before anything is sent: at most 20 requests per list call (GATEWAY_LIMIT_EXCEEDED),
 * at least one, and exactly two orders per cross (GATEWAY_INVALID_REQUEST).
 */
import { randomUUID } from 'node:crypto';
import { CROSS_ORDER_COUNT, MAX_LIST_REQUESTS } from '../../domain/index.ts';
import type {
  CancelOrderRequest,
  CrossOrderRequest,
  OpenOrdersRequest,
  OrderRequest,
  ReplaceOrderRequest,
  SearchOrdersRequest,
  SearchTradesRequest,
} from '../../domain/index.ts';
import { CANCEL_ZEROS, ORDER_ZEROS, REPLACE_ZEROS, searchOrdersZeros, searchTradesZeros } from '../request-defaults.ts';
import { GatewayError, GatewayErrorCode } from './errors.ts';

/** An order to insert, preview or cross: these five fields are required, the rest default to zero values. */
export type OrderRequestInput = Pick<OrderRequest, 'account' | 'symbol' | 'side' | 'type' | 'orderQty'> &
  Partial<Omit<OrderRequest, 'account' | 'symbol' | 'side' | 'type' | 'orderQty'>>;

export type CancelOrderInput = Pick<CancelOrderRequest, 'orderId' | 'symbol'> & Partial<Omit<CancelOrderRequest, 'orderId' | 'symbol'>>;

/** The order to replace and its new terms; fields left out keep their zero value on the wire. */
export type ReplaceOrderInput = Pick<ReplaceOrderRequest, 'orderId' | 'symbol'> & Partial<Omit<ReplaceOrderRequest, 'orderId' | 'symbol'>>;

export type CrossOrderInput = Partial<Omit<CrossOrderRequest, 'requests'>> & {
  /** Exactly two orders (buy and sell). */
  readonly requests: readonly OrderRequestInput[];
};

export type SearchTradesInput = Partial<SearchTradesRequest>;
export type SearchOrdersInput = Partial<SearchOrdersRequest>;
export type OpenOrdersInput = Partial<OpenOrdersRequest>;

/** Makes client order ids. Must return a new, unique id per call. */
export type ClordIdFactory = () => string;

export const defaultClordId: ClordIdFactory = () => randomUUID();

export function toOrderRequest(input: OrderRequestInput, newClordId: ClordIdFactory): OrderRequest {
  return { ...ORDER_ZEROS, ...input, clordId: input.clordId === undefined || input.clordId === '' ? newClordId() : input.clordId };
}

export function toCancelRequest(input: CancelOrderInput): CancelOrderRequest {
  return { ...CANCEL_ZEROS, ...input };
}

export function toReplaceRequest(input: ReplaceOrderInput, newClordId: ClordIdFactory): ReplaceOrderRequest {
  return { ...REPLACE_ZEROS, ...input, clordId: input.clordId === undefined || input.clordId === '' ? newClordId() : input.clordId };
}

export function toCrossRequest(input: CrossOrderInput, newClordId: ClordIdFactory): CrossOrderRequest {
  if (input.requests.length !== CROSS_ORDER_COUNT) {
    throw new GatewayError(
      GatewayErrorCode.InvalidRequest,
      `insert_order_cross: a cross has exactly ${CROSS_ORDER_COUNT} orders (got ${input.requests.length})`,
      { details: { operation: 'insert_order_cross', count: input.requests.length } },
    );
  }
  return {
    crossType: 'CROSS_TYPE_ALL_OR_NONE', // the exchange refuses a cross without cross_type set
    crossPrioritizedSide: 'SIDE_UNDEFINED',
    blockTradeIndicator: false,
    transactionBookedTime: undefined,
    ...input,
    crossId: input.crossId === undefined || input.crossId === '' ? newClordId() : input.crossId,
    requests: input.requests.map((r) => toOrderRequest(r, newClordId)),
  };
}

export function toSearchTradesRequest(input: SearchTradesInput): SearchTradesRequest {
  return { ...searchTradesZeros(), ...input };
}

export function toSearchOrdersRequest(input: SearchOrdersInput): SearchOrdersRequest {
  return { ...searchOrdersZeros(), ...input };
}

/** Refuses an empty list or one longer than the venue's 20, before anything is sent. */
export function checkListSize(operation: string, count: number): void {
  if (count > MAX_LIST_REQUESTS) {
    throw new GatewayError(
      GatewayErrorCode.LimitExceeded,
      `${operation}: at most ${MAX_LIST_REQUESTS} requests per call (got ${count}); split the list`,
      { details: { operation, count, max: MAX_LIST_REQUESTS } },
    );
  }
  if (count === 0) {
    throw new GatewayError(GatewayErrorCode.InvalidRequest, `${operation}: the list is empty`, { details: { operation, count } });
  }
}
