/**
 * Domain <-> gRPC message objects for every method, in one table (`grpcCodecs`). A gRPC message's loaded
 * JS form is the gateway's snake_case JSON form (see loader.ts), so each codec is a gateway codec plus:
 * - streams: the message is the `result` of a gateway stream line (`{"result": {...}}` is added on decode
 *   and removed on encode; errors travel as gRPC status, never as a message);
 * - Struct fields (order contexts, trade metadata) converted at their paths (struct.ts).
 * `decode` validates what came off the wire into a typed shape (a TradebotError naming the field path
 * otherwise; GRPC_UNDECODABLE_MESSAGE for bytes that were not a protobuf message at all) and may convert
 * the freshly deserialized object in place; `encode` builds a new object.
 */
import { gateway } from '../../../domain/index.ts';
import type {
  InstrumentStateMessage,
  MarketDataMessage,
  OrderStreamMessage,
  ScaleSource,
  StreamErrorMessage,
  WireCodec,
} from '../../../domain/index.ts';
import { invalidField } from '../../../domain/errors.ts';
import { isPlainObject } from '../../../domain/wire/codec.ts';
import { type Direction, fixEach, fixExecution, fixOrder, fixTrade } from './struct.ts';
import { grpcOnly } from './messages.ts';
import { UndecodableMessage } from './undecodable.ts';
import type { DropCopyMessage, GrpcPositionMessage, TradeCaptureMessage } from './messages.ts';

type Json = Record<string, unknown>;
type Fix = (json: Json, direction: Direction) => void;

export interface GrpcCodec<T> {
  /** Domain value -> the message object grpc-js serializes. */
  readonly encode: (value: T, scales?: ScaleSource) => Json;
  /** A deserialized message -> domain value, validating. */
  readonly decode: (raw: unknown, scales?: ScaleSource) => T;
}

/** A stream message without the gateway's error variant (gRPC errors are statuses). */
export type Payload<M> = Exclude<M, StreamErrorMessage>;

function checkObject(raw: unknown): Json {
  if (raw instanceof UndecodableMessage) throw raw.error();
  if (!isPlainObject(raw)) throw invalidField('<root>', 'a message object', raw);
  return raw;
}

function plain<T>(codec: WireCodec<T>, fix?: Fix): GrpcCodec<T> {
  return {
    encode(value, scales) {
      const json = codec.encode(value, scales);
      fix?.(json, 'toProto');
      return json;
    },
    decode(raw, scales) {
      const json = checkObject(raw);
      fix?.(json, 'fromProto');
      return codec.decode(json, scales);
    },
  };
}

function streamed<M extends { readonly kind: string }>(codec: WireCodec<M>, fix?: Fix): GrpcCodec<Payload<M>> {
  return {
    encode(value, scales) {
      const result = codec.encode(value, scales)['result'] as Json;
      fix?.(result, 'toProto');
      return result;
    },
    decode(raw, scales) {
      const json = checkObject(raw);
      fix?.(json, 'fromProto');
      return codec.decode({ result: json }, scales) as Payload<M>;
    },
  };
}

const orders: Fix = (json, d) => fixEach(json, 'orders', fixOrder, d);
const orderStream: Fix = (json, d) => {
  if (isPlainObject(json['snapshot'])) orders(json['snapshot'], d);
  if (isPlainObject(json['update'])) fixEach(json['update'], 'executions', fixExecution, d);
};

export const grpcCodecs = {
  // OrderEntryAPI
  orderRequest: plain(gateway.orderRequest),
  insertOrderResponse: plain(grpcOnly.insertOrderAnswer),
  insertOrderListRequest: plain(gateway.insertOrderListRequest),
  orderIdsResponse: plain(gateway.orderIdsResponse),
  previewOrderRequest: plain(gateway.previewOrderRequest),
  previewOrderResponse: plain(gateway.previewOrderResponse, (json, d) => fixOrder(json['preview_order'], d)),
  cancelOrderRequest: plain(gateway.cancelOrderRequest),
  cancelOrderListRequest: plain(gateway.cancelOrderListRequest),
  /** CancelOrder's and CancelOrderList's (empty) answer. */
  cancelOrderResponse: plain(grpcOnly.emptyAnswer),
  replaceOrderRequest: plain(gateway.replaceOrderRequest),
  replaceOrderResponse: plain(grpcOnly.orderIdAnswer),
  openOrdersRequest: plain(gateway.openOrdersRequest),
  openOrdersResponse: plain(gateway.openOrdersResponse, orders),
  orderSubscriptionRequest: plain(gateway.orderSubscriptionRequest),
  orderStream: streamed<OrderStreamMessage>(gateway.orderStream, orderStream),
  // MarketDataSubscriptionAPI
  marketDataSubscriptionRequest: plain(gateway.marketDataSubscriptionRequest),
  marketDataStream: streamed<MarketDataMessage>(gateway.marketDataStream),
  // PositionAPI
  positionSubscriptionRequest: plain(gateway.positionSubscriptionRequest),
  positionStream: streamed<GrpcPositionMessage>(grpcOnly.positionStream),
  // DropCopyAPI
  resumableRequest: plain(grpcOnly.resumableRequest),
  dropCopyStream: streamed<DropCopyMessage>(grpcOnly.dropCopyStream, (json, d) => fixExecution(json['execution'], d)),
  tradeCaptureStream: streamed<TradeCaptureMessage>(grpcOnly.tradeCaptureStream, (json, d) => fixTrade(json['trade'], d)),
  instrumentStateSubscriptionRequest: plain(gateway.instrumentStateSubscriptionRequest),
  instrumentStateStream: streamed<InstrumentStateMessage>(gateway.instrumentStateStream),
  // RefDataAPI
  listInstrumentsRequest: plain(gateway.listInstrumentsRequest),
  listInstrumentsResponse: plain(gateway.listInstrumentsResponse),
  // ReportAPI
  searchTradesRequest: plain(gateway.searchTradesRequest),
  searchTradesResponse: plain(gateway.searchTradesResponse, (json, d) => fixEach(json, 'trade', fixTrade, d)),
} as const;
