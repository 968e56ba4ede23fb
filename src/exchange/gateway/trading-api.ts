/**
 * The gateway's order entry commands (`/api/v1beta1`): insert_order, insert_order_list, preview_order,
 * cancel_order, cancel_order_list, cancel_replace_order, cancel_replace_order_list and insert_order_cross.
 * Requests are completed (order-inputs.ts), checked against the venue's limits before sending, encoded with
 * the gateway's snake_case codecs using the instrument catalog's scales (Decimal -> scaled integers), and
 * responses are decoded back into domain types. Encoding problems (a symbol missing from the catalog, a price
 * off the instrument's scale) throw the domain's SCALE_* errors before anything is sent.
 *
 * Retry (idempotency) per call: inserts, list inserts, crosses and cancel-replaces always carry client ids
 * (generated when absent, before the first attempt), so they may be retried with the same ids; cancels are
 * idempotent by order id; previews change nothing. See order-inputs.ts for the clord_id decision. The
 * simulator answers a repeated (account, clord_id) with the earlier order, working or finished, for as long
 * as it keeps the order in its history (`sim.maxOrderHistory`), and a repeated cross (same account and
 * cross_id, or the same leg clord_ids) with the earlier legs. A venue that recognised repeated ids only among
 * WORKING orders would take a retry of an insert whose first attempt already filled as a new order: set
 * `retryInserts` false for such a venue.
 *
 * Order outcomes: an insert answered 200 may still say `status: "REJECTED"` (e.g. an exchange-closed
 * market); that is data, returned as is, and the rejection also reaches the order stream. HTTP 4xx
 * answers (malformed order, unknown symbol, an account that is not the caller's) are thrown as GatewayErrors.
 */
import { gateway } from '../../domain/index.ts';
import type { InsertOrderResponse, Order, OrderIdsResponse } from '../../domain/index.ts';
import type { AuthedCaller } from './authed-caller.ts';
import { decodeResponse } from './call.ts';
import type { RequestOptions } from './call.ts';
import { type InstrumentCatalog, scaleSourceOf } from './catalog.ts';
import {
  type CancelOrderInput,
  type ClordIdFactory,
  type CrossOrderInput,
  type OrderRequestInput,
  type ReplaceOrderInput,
  checkListSize,
  toCancelRequest,
  toCrossRequest,
  toOrderRequest,
  toReplaceRequest,
} from './order-inputs.ts';

/** insert_order's answer, with the clord_id the order was sent with and the gateway's `text` (if any). */
export interface InsertOrderResult extends InsertOrderResponse {
  /** Reason text when `status` is REJECTED; '' otherwise. */
  readonly text: string;
}

/** A cancel-replace's answer: the order id and the clord_id the replacement was sent with. */
export interface ReplaceOrderResult {
  readonly orderId: string;
  readonly clordId: string;
}

/** An answer listing order ids in request order, plus the client ids that were sent. */
export interface OrderIdsResult extends OrderIdsResponse {
  readonly clordIds: readonly string[];
}

export interface CrossResult extends OrderIdsResult {
  readonly crossId: string;
}

function textOf(json: unknown): string {
  const text = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)['text'] : undefined;
  return typeof text === 'string' ? text : '';
}

export class GatewayTradingApi {
  constructor(
    private readonly caller: AuthedCaller,
    private readonly catalog: InstrumentCatalog,
    private readonly newClordId: ClordIdFactory,
    /** Whether inserts, crosses and cancel-replaces (which always carry client ids) may be retried. */
    private readonly retryInserts = true,
  ) {}

  async insertOrder(input: OrderRequestInput, options: RequestOptions = {}): Promise<InsertOrderResult> {
    const request = toOrderRequest(input, this.newClordId);
    const body = gateway.orderRequest.encode(request, this.scales());
    const json = await this.caller.call('insert_order', body, { ...options, idempotent: this.retryInserts });
    const response = decodeResponse('insert_order', () => gateway.insertOrderResponse.decode(json));
    return { ...response, clordId: response.clordId === '' ? request.clordId : response.clordId, text: textOf(json) };
  }

  /** Up to 20 orders in one call; ids are returned in request order. */
  async insertOrderList(inputs: readonly OrderRequestInput[], options: RequestOptions = {}): Promise<OrderIdsResult> {
    checkListSize('insert_order_list', inputs.length);
    const requests = inputs.map((input) => toOrderRequest(input, this.newClordId));
    const body = gateway.insertOrderListRequest.encode({ requests }, this.scales());
    const json = await this.caller.call('insert_order_list', body, { ...options, idempotent: this.retryInserts });
    const response = decodeResponse('insert_order_list', () => gateway.orderIdsResponse.decode(json));
    return { ...response, clordIds: requests.map((r) => r.clordId) };
  }

  /** What the order would look like if inserted now (validated like an insert; the book is untouched). */
  async previewOrder(input: OrderRequestInput, options: RequestOptions = {}): Promise<Order> {
    const request = toOrderRequest(input, this.newClordId);
    const body = gateway.previewOrderRequest.encode({ request }, this.scales());
    const json = await this.caller.call('preview_order', body, { ...options, idempotent: true });
    return decodeResponse('preview_order', () => gateway.previewOrderResponse.decode(json, this.scales()).previewOrder);
  }

  async cancelOrder(input: CancelOrderInput, options: RequestOptions = {}): Promise<void> {
    const body = gateway.cancelOrderRequest.encode(toCancelRequest(input));
    await this.caller.call('cancel_order', body, { ...options, idempotent: true });
  }

  /** Up to 20 cancels in one call. */
  async cancelOrderList(inputs: readonly CancelOrderInput[], options: RequestOptions = {}): Promise<void> {
    checkListSize('cancel_order_list', inputs.length);
    const body = gateway.cancelOrderListRequest.encode({ requests: inputs.map(toCancelRequest) });
    await this.caller.call('cancel_order_list', body, { ...options, idempotent: true });
  }

  /** Replaces an order's terms (zero fields are left unchanged by the venue); a clord_id is generated if absent. */
  async cancelReplaceOrder(input: ReplaceOrderInput, options: RequestOptions = {}): Promise<ReplaceOrderResult> {
    const request = toReplaceRequest(input, this.newClordId);
    const body = gateway.replaceOrderRequest.encode(request, this.scales());
    const json = await this.caller.call('cancel_replace_order', body, { ...options, idempotent: this.retryInserts });
    const response = decodeResponse('cancel_replace_order', () => gateway.insertOrderResponse.decode(json));
    return { orderId: response.orderId === '' ? request.orderId : response.orderId, clordId: request.clordId };
  }

  /** Up to 20 cancel-replaces in one call. */
  async cancelReplaceOrderList(inputs: readonly ReplaceOrderInput[], options: RequestOptions = {}): Promise<OrderIdsResult> {
    checkListSize('cancel_replace_order_list', inputs.length);
    const requests = inputs.map((input) => toReplaceRequest(input, this.newClordId));
    const body = gateway.replaceOrderListRequest.encode({ requests }, this.scales());
    const json = await this.caller.call('cancel_replace_order_list', body, { ...options, idempotent: this.retryInserts });
    const response = decodeResponse('cancel_replace_order_list', () => gateway.orderIdsResponse.decode(json));
    return { ...response, clordIds: requests.map((r) => r.clordId) };
  }

  /**
   * A two-sided cross: exactly two orders (refused before sending otherwise). The answer lists the legs'
   * order ids; whether they traded (or were rejected, e.g. an all-or-none cross that cannot fill) is told
   * by the executions on the order stream.
   */
  async insertOrderCross(input: CrossOrderInput, options: RequestOptions = {}): Promise<CrossResult> {
    const request = toCrossRequest(input, this.newClordId);
    const body = gateway.crossOrderRequest.encode(request, this.scales());
    const json = await this.caller.call('insert_order_cross', body, { ...options, idempotent: this.retryInserts });
    const response = decodeResponse('insert_order_cross', () => gateway.orderIdsResponse.decode(json));
    return { ...response, crossId: request.crossId, clordIds: request.requests.map((r) => r.clordId) };
  }

  private scales(): ReturnType<typeof scaleSourceOf> {
    return scaleSourceOf(this.catalog);
  }
}
