/**
 * The gRPC client's unary calls: OrderEntryAPI (insert, list insert, preview, cancel, list cancel,
 * cancel-replace, open orders), RefDataAPI.ListInstruments and ReportAPI.SearchTrades. Inputs are the
 * gateway client's (src/exchange/gateway/order-inputs.ts: required fields, generated clord_ids, zero
 * defaults), so code can switch transports without changing its calls; answers are the same result types.
 * A call answered UNAUTHENTICATED is sent once more after `getToken(true, refused)` (the server did not process
 * it); list calls are checked against the venue's limit of 20 before sending (GRPC_INVALID_REQUEST).
 */
import type { ListInstrumentsResponse, Order, SearchTradesResponse } from '../../domain/index.ts';
import { MAX_LIST_REQUESTS } from '../../domain/index.ts';
import { type InstrumentCatalog, scaleSourceOf } from '../gateway/catalog.ts';
import {
  type CancelOrderInput,
  type ClordIdFactory,
  type OpenOrdersInput,
  type OrderRequestInput,
  type ReplaceOrderInput,
  type SearchTradesInput,
  toCancelRequest,
  toOrderRequest,
  toReplaceRequest,
  toSearchTradesRequest,
} from '../gateway/order-inputs.ts';
import type { InsertOrderResult, OrderIdsResult, ReplaceOrderResult } from '../gateway/trading-api.ts';
import { type GrpcChannel, bearerMetadata } from './channel.ts';
import { GrpcClientErrorCode, GrpcError, badResponse, isGrpcError } from './errors.ts';
import { type GrpcCodec, type MethodRef, grpcCodecs, methodRef } from './protocol/index.ts';
import type { TokenSource } from './stream-runner.ts';

export interface GrpcTradingDeps {
  readonly channel: GrpcChannel;
  readonly getToken: TokenSource;
  readonly catalog: InstrumentCatalog;
  readonly newClordId: ClordIdFactory;
  /** Per-call deadline, ms. */
  readonly deadlineMs: number;
}

export interface ListInstrumentsInput {
  readonly symbols?: readonly string[];
  readonly pageSize?: number;
  readonly pageToken?: string;
}

const label = (ref: MethodRef): string => `${ref.service}.${ref.method}`;

function checkListSize(ref: MethodRef, count: number): void {
  if (count === 0 || count > MAX_LIST_REQUESTS) {
    throw new GrpcError(
      GrpcClientErrorCode.InvalidRequest,
      `${label(ref)}: send 1 to ${MAX_LIST_REQUESTS} requests per call (got ${count})`,
      {
        kind: 'validation',
        details: { count, max: MAX_LIST_REQUESTS },
      },
    );
  }
}

export class GrpcTradingApi {
  constructor(private readonly deps: GrpcTradingDeps) {}

  async insertOrder(input: OrderRequestInput): Promise<InsertOrderResult> {
    const request = toOrderRequest(input, this.deps.newClordId);
    const answer = await this.call(
      methodRef('OrderEntryAPI', 'InsertOrder'),
      grpcCodecs.orderRequest.encode(request, this.scales()),
      grpcCodecs.insertOrderResponse,
    );
    return {
      orderId: answer.orderId,
      clordId: answer.clordId === '' ? request.clordId : answer.clordId,
      status: answer.status,
      text: answer.text,
    };
  }

  async insertOrderList(inputs: readonly OrderRequestInput[]): Promise<OrderIdsResult> {
    const ref = methodRef('OrderEntryAPI', 'InsertOrderList');
    checkListSize(ref, inputs.length);
    const requests = inputs.map((input) => toOrderRequest(input, this.deps.newClordId));
    const answer = await this.call(ref, grpcCodecs.insertOrderListRequest.encode({ requests }, this.scales()), grpcCodecs.orderIdsResponse);
    return { responses: answer.responses, clordIds: requests.map((r) => r.clordId) };
  }

  async previewOrder(input: OrderRequestInput): Promise<Order> {
    const request = toOrderRequest(input, this.deps.newClordId);
    const answer = await this.call(
      methodRef('OrderEntryAPI', 'PreviewOrder'),
      grpcCodecs.previewOrderRequest.encode({ request }, this.scales()),
      grpcCodecs.previewOrderResponse,
    );
    return answer.previewOrder;
  }

  async cancelOrder(input: CancelOrderInput): Promise<void> {
    await this.call(
      methodRef('OrderEntryAPI', 'CancelOrder'),
      grpcCodecs.cancelOrderRequest.encode(toCancelRequest(input)),
      grpcCodecs.cancelOrderResponse,
    );
  }

  async cancelOrderList(inputs: readonly CancelOrderInput[]): Promise<void> {
    const ref = methodRef('OrderEntryAPI', 'CancelOrderList');
    checkListSize(ref, inputs.length);
    await this.call(
      ref,
      grpcCodecs.cancelOrderListRequest.encode({ requests: inputs.map(toCancelRequest) }),
      grpcCodecs.cancelOrderResponse,
    );
  }

  async cancelReplaceOrder(input: ReplaceOrderInput): Promise<ReplaceOrderResult> {
    const request = toReplaceRequest(input, this.deps.newClordId);
    const ref = methodRef('OrderEntryAPI', 'CancelReplaceOrder');
    const answer = await this.call(ref, grpcCodecs.replaceOrderRequest.encode(request, this.scales()), grpcCodecs.replaceOrderResponse);
    return { orderId: answer.orderId === '' ? request.orderId : answer.orderId, clordId: request.clordId };
  }

  async getOpenOrders(input: OpenOrdersInput = {}): Promise<readonly Order[]> {
    const request = { accounts: input.accounts ?? [], symbols: input.symbols ?? [] };
    const answer = await this.call(
      methodRef('OrderEntryAPI', 'GetOpenOrders'),
      grpcCodecs.openOrdersRequest.encode(request),
      grpcCodecs.openOrdersResponse,
    );
    return answer.orders;
  }

  listInstruments(input: ListInstrumentsInput = {}): Promise<ListInstrumentsResponse> {
    const request = { symbols: input.symbols ?? [], pageSize: input.pageSize ?? 0, pageToken: input.pageToken ?? '' };
    return this.call(
      methodRef('RefDataAPI', 'ListInstruments'),
      grpcCodecs.listInstrumentsRequest.encode(request),
      grpcCodecs.listInstrumentsResponse,
    );
  }

  searchTrades(input: SearchTradesInput = {}): Promise<SearchTradesResponse> {
    return this.call(
      methodRef('ReportAPI', 'SearchTrades'),
      grpcCodecs.searchTradesRequest.encode(toSearchTradesRequest(input)),
      grpcCodecs.searchTradesResponse,
    );
  }

  private async call<T>(ref: MethodRef, request: object, codec: GrpcCodec<T>): Promise<T> {
    const raw = await this.send(ref, request);
    try {
      return codec.decode(raw, this.scales());
    } catch (error) {
      throw badResponse(label(ref), error);
    }
  }

  /** One unary call; after UNAUTHENTICATED, once more with a refreshed token. */
  private async send(ref: MethodRef, request: object): Promise<unknown> {
    const { channel, getToken, deadlineMs } = this.deps;
    const token = await getToken(false);
    try {
      return await channel.unary(ref, request, bearerMetadata(token), deadlineMs);
    } catch (error) {
      if (!isGrpcError(error, 'GRPC_UNAUTHENTICATED')) throw error;
      return channel.unary(ref, request, bearerMetadata(await getToken(true, token)), deadlineMs);
    }
  }

  private scales() {
    return scaleSourceOf(this.deps.catalog);
  }
}
