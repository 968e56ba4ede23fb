/**
 * The exchange's gRPC protocol, shared by the simulator's server (src/sim/grpc) and the client
 * (src/exchange/grpc): names, the proto loader and the domain <-> message codecs.
 *
 * Modules:
 * - package.ts   where the protocol file is (proto/exchange.proto), the service/method table
 * - loader.ts    exchangeProtocol(): @grpc/proto-loader with the gateway-JSON options; the package name read
 *                from the file; the file checked against the table
 * - codecs.ts    grpcCodecs: one codec per request/response/stream message, built on the gateway codecs
 * - messages.ts  the gRPC-only messages (position snapshot, drop copy, trade capture, resume tokens)
 * - struct.ts    google.protobuf.Struct <-> JSON at the paths that carry opaque objects
 * - undecodable.ts UndecodableMessage: what the deserializers return for bytes that are not a message
 * - market-data.ts, market-data-reader.ts  the market data stream's responses decoded from their bytes (a
 *                fast path for book updates, the codec for the rest)
 */
export { PROTO_DIR, PROTO_FILE, SERVICES, methodRef } from './package.ts';
export type { MethodKind, MethodName, MethodRef, ServiceName } from './package.ts';
export { LOADER_OPTIONS, ProtocolError, exchangeProtocol, loadExchangeProtocol } from './loader.ts';
export type { ExchangeProtocol, WireMethod } from './loader.ts';
export { grpcCodecs } from './codecs.ts';
export type { GrpcCodec, Payload } from './codecs.ts';
export { grpcOnly } from './messages.ts';
export type {
  DropCopyMessage,
  GrpcPositionMessage,
  InsertOrderAnswer,
  OrderIdAnswer,
  PositionListBody,
  ResumableMeta,
  ResumableSubscriptionRequest,
  TradeCaptureMessage,
} from './messages.ts';
export { fromStruct, toStruct } from './struct.ts';
export { decodeMarketDataResponse } from './market-data.ts';
export { readMarketDataUpdate } from './market-data-reader.ts';
export { UNDECODABLE_MESSAGE, UndecodableMessage, tolerantDeserializer } from './undecodable.ts';
