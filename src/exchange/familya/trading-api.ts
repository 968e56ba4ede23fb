/**
 * Family A order entry (`/v1/trading/...`, sent with `x-participant-id`) and the order report search.
 *
 * Idempotency: an insert always carries a clord_id (generated when the caller gives none) that every
 * attempt reuses, so the transport may repeat it after a connectivity failure; the venue recognises a
 * repeat by that clord_id, and the caller reconciles through the order stream. Cancels (by order id) and
 * previews are repeatable; a replace is repeated only when the caller gave it a clord_id.
 */
import { randomUUID } from 'node:crypto';
import { MAX_LIST_REQUESTS, familyA } from '../../domain/index.ts';
import type { Order, SearchOrdersResponse } from '../../domain/index.ts';
import type { RequestOptions } from './call.ts';
import { decodeBody } from './call.ts';
import { decodeWithScales, pages } from './context.ts';
import type { ApiContext } from './context.ts';
import { badResponse, invalidRequest, limitExceeded } from './errors.ts';
import { cancelRequest, openOrdersRequest, orderRequest, replaceRequest, searchOrdersRequest } from './inputs.ts';
import type { CancelInput, OpenOrdersInput, OrderInput, ReplaceInput, SearchOrdersInput } from './inputs.ts';

export interface InsertOrderResult {
  readonly orderId: string;
  /** The clord_id sent (the caller's, or the one generated for this insert). */
  readonly clordId: string;
}

const opts = (options: RequestOptions | undefined) => (options === undefined ? {} : { options });

function checkList(operation: string, count: number): void {
  if (count === 0) throw invalidRequest(operation, 'the list is empty');
  if (count > MAX_LIST_REQUESTS) throw limitExceeded(operation, 'requests', count, MAX_LIST_REQUESTS);
}

/** POST /v1/trading/orders -> the exchange's order id. */
export async function insertOrder(ctx: ApiContext, input: OrderInput, options?: RequestOptions): Promise<InsertOrderResult> {
  const clordId = input.clordId === undefined || input.clordId === '' ? randomUUID() : input.clordId;
  const request = orderRequest({ ...input, clordId });
  await ctx.instruments.ensure([request.symbol]);
  const body = familyA.orderRequest.encode(request, ctx.instruments.scaleSource);
  const answer = await ctx.caller.call('insertOrder', { body, idempotent: true, ...opts(options) });
  const { orderId } = decodeBody('insertOrder', () => familyA.insertOrderResponse.decode(answer));
  if (orderId === '') throw badResponse('insertOrder', new Error('the answer has no orderId'));
  return { orderId, clordId };
}

/** POST /v1/trading/orders/preview `{request}` -> the order as the exchange would accept it. */
export async function previewOrder(ctx: ApiContext, input: OrderInput, options?: RequestOptions): Promise<Order> {
  const request = orderRequest(input);
  await ctx.instruments.ensure([request.symbol]);
  const body = familyA.previewOrderRequest.encode({ request }, ctx.instruments.scaleSource);
  const answer = await ctx.caller.call('previewOrder', { body, ...opts(options) });
  return (await decodeWithScales(ctx, 'previewOrder', familyA.previewOrderResponse, answer)).previewOrder;
}

/** POST /v1/trading/orders/cancel `{orderId, clordId, symbol}`. */
export async function cancelOrder(ctx: ApiContext, input: CancelInput, options?: RequestOptions): Promise<void> {
  await ctx.caller.call('cancelOrder', { body: familyA.cancelOrderRequest.encode(cancelRequest(input)), ...opts(options) });
}

/** POST /v1/trading/orders/cancel/list (at most 20). */
export async function cancelOrderList(ctx: ApiContext, inputs: readonly CancelInput[], options?: RequestOptions): Promise<void> {
  checkList('cancelOrderList', inputs.length);
  const body = familyA.cancelOrderListRequest.encode({ requests: inputs.map(cancelRequest) });
  await ctx.caller.call('cancelOrderList', { body, ...opts(options) });
}

/** POST /v1/trading/orders/replace -> the id of the order carrying the new terms. */
export async function replaceOrder(ctx: ApiContext, input: ReplaceInput, options?: RequestOptions): Promise<{ readonly orderId: string }> {
  const request = replaceRequest(input);
  await ctx.instruments.ensure([request.symbol]);
  const body = familyA.replaceOrderRequest.encode(request, ctx.instruments.scaleSource);
  const answer = await ctx.caller.call('replaceOrder', { body, idempotent: request.clordId !== '', ...opts(options) });
  const { orderId } = decodeBody('replaceOrder', () => familyA.insertOrderResponse.decode(answer));
  return { orderId: orderId === '' ? request.orderId : orderId };
}

/** POST /v1/trading/orders/replace/list (at most 20) -> one order id per request, in order. */
export async function replaceOrderList(ctx: ApiContext, inputs: readonly ReplaceInput[], options?: RequestOptions): Promise<string[]> {
  checkList('replaceOrderList', inputs.length);
  const requests = inputs.map(replaceRequest);
  await ctx.instruments.ensure(requests.map((r) => r.symbol));
  const body = familyA.replaceOrderListRequest.encode({ requests }, ctx.instruments.scaleSource);
  const idempotent = requests.every((r) => r.clordId !== '');
  const answer = await ctx.caller.call('replaceOrderList', { body, idempotent, ...opts(options) });
  return decodeBody('replaceOrderList', () => familyA.orderIdsResponse.decode(answer)).responses.map((r) => r.orderId);
}

/** GET /v1/trading/open-orders `?accounts=&symbols=` (all of the participant's when empty). */
export async function openOrders(ctx: ApiContext, input: OpenOrdersInput = {}, options?: RequestOptions): Promise<readonly Order[]> {
  const request = openOrdersRequest(input);
  const query = { accounts: request.accounts, symbols: request.symbols };
  const answer = await ctx.caller.call('openOrders', { query, ...opts(options) });
  return (await decodeWithScales(ctx, 'openOrders', familyA.openOrdersResponse, answer)).orders;
}

/** POST /v1/report/orders/search: one page. */
export async function searchOrders(
  ctx: ApiContext,
  input: SearchOrdersInput = {},
  options?: RequestOptions,
): Promise<SearchOrdersResponse> {
  const body = familyA.searchOrdersRequest.encode(searchOrdersRequest(input));
  const answer = await ctx.caller.call('searchOrders', { body, ...opts(options) });
  return decodeWithScales(ctx, 'searchOrders', familyA.searchOrdersResponse, answer);
}

/** Every page of an order search. */
export function searchOrderPages(
  ctx: ApiContext,
  input: SearchOrdersInput = {},
  options?: RequestOptions,
): AsyncGenerator<SearchOrdersResponse, void, undefined> {
  return pages('searchOrders', input.pageToken ?? '', (pageToken) => searchOrders(ctx, { ...input, pageToken }, options));
}

/** Every order matching the search, page after page. */
export async function* allOrders(
  ctx: ApiContext,
  input: SearchOrdersInput = {},
  options?: RequestOptions,
): AsyncGenerator<Order, void, undefined> {
  for await (const page of searchOrderPages(ctx, input, options)) yield* page.orders;
}
