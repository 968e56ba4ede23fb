/**
 * Public API of the exchange's gRPC client: `GrpcExchangeClient` and its stream events (the port's events
 * from src/domain/stream-events.ts, as the gateway client's; positions, drop copy and trade capture from
 * ./stream-types.ts, exported here).
 *
 * Modules:
 * - client.ts        GrpcExchangeClient: one channel, streams and unary calls, close()
 * - stream-types.ts the gRPC-only stream events: positions, drop copy, trade capture
 * - streams.ts       order updates, market data, instrument states, positions; snapshot-only Promises
 * - resumable.ts     drop copy and trade capture with resume tokens (resumeLost on OUT_OF_RANGE)
 * - stream-runner.ts resilient authenticated gRPC streams (resilientStream: reconnect, watchdog, dedupe, refresh)
 * - trading.ts       unary order entry, ListInstruments, SearchTrades (retry once after UNAUTHENTICATED)
 * - token-source.ts  tokenSourceOf(familyA TokenManager) -> getToken(forceRefresh?)
 * - channel.ts       GrpcChannel: grpc-js Client typed at the boundary, bearer metadata
 * - errors.ts        GrpcError and its stable codes (GRPC_<STATUS>, GRPC_BAD_RESPONSE, ...)
 * - protocol/        proto loading, names, codecs (shared with the simulator's server)
 */
export { GrpcExchangeClient } from './client.ts';
export type { GrpcExchangeClientOptions } from './client.ts';
export { GrpcStreams } from './streams.ts';
export type { PositionFilter } from './streams.ts';
export { GrpcResumableStreams } from './resumable.ts';
export type { ResumableFilter } from './resumable.ts';
export { GrpcTradingApi } from './trading.ts';
export type { GrpcTradingDeps, ListInstrumentsInput } from './trading.ts';
export { isFatalGrpcStreamError, runGrpcStream } from './stream-runner.ts';
export type { GrpcStreamDeps, GrpcStreamOptions, GrpcStreamSpec, TokenSource } from './stream-runner.ts';
export { GrpcChannel, bearerMetadata } from './channel.ts';
export { tokenSourceOf } from './token-source.ts';
export type { TokenManagerLike } from './token-source.ts';
export type { GrpcChannelOptions } from './channel.ts';
export type * from './stream-types.ts';
export { GrpcClientErrorCode, GrpcError, grpcErrorCode, isGrpcError, toGrpcError } from './errors.ts';
export { exchangeProtocol } from './protocol/index.ts';
