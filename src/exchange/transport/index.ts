/**
 * The exchange clients' transport layer: generic, shared by the gateway client, the family A client and the
 * backtest history fetcher. Compose it as `withRetry(withRateLimit(new HttpTransport(...)))` for calls and
 * `resilientStream(attempt => http.streamNdjson(...))` for streams.
 *
 * Modules:
 * - errors.ts          TransportError and its stable codes (TRANSPORT_*, STREAM_*), truncate()
 * - error-mapping.ts   undici/socket failures and HTTP statuses -> TransportErrors; Retry-After parsing
 * - grpc-status.ts     gRPC status codes -> error kinds (stream error lines, later gRPC streams)
 * - http-types.ts      the Transport contract: HttpRequest, HttpResponse (and the idempotency contract)
 * - http-transport.ts  HttpTransport: undici Pool, deadlines, private link Host header, openStream
 * - request-target.ts  request path/query building and header merging
 * - body-reader.ts     size-capped body reading and JSON parsing
 * - retry.ts           withRetry: backoff + full jitter for idempotent calls, honours Retry-After
 * - backoff.ts         fullJitterDelay, shared by retry and resilient streams
 * - token-bucket.ts    TokenBucket: FIFO, bounded, abortable client-side rate limiter
 * - rate-limit.ts      withRateLimit: the TokenBucket as a Transport wrapper
 * - ndjson-splitter.ts incremental NDJSON line splitting
 * - ndjson-stream.ts   streamNdjson: an NDJSON HTTP response as an Observable
 * - resilient-stream.ts resilientStream: reconnect, silence watchdog, lifecycle events, dedupe, auth hook
 * - flat-map-sync.ts   flatMapSync: an array per value flattened in order (the streams' decode step)
 * - scheduling.ts      sleep() and option checks over an injected RxJS scheduler
 */
export { TransportError, TransportErrorCode, isTransportError, kindOfCode, truncate } from './errors.ts';
export type { TransportErrorOptions } from './errors.ts';
export { errorForStatus, mapFailure, parseRetryAfter } from './error-mapping.ts';
export type { CallContext, FailureState } from './error-mapping.ts';
export { GrpcStatus, kindOfGrpcStatus } from './grpc-status.ts';
export type { HttpMethod, HttpRequest, HttpResponse, QueryScalar, QueryValue, Transport } from './http-types.ts';
export { HttpTransport } from './http-transport.ts';
export type { HttpTransportOptions } from './http-transport.ts';
export { withRetry, defaultIsRetryable } from './retry.ts';
export type { RetryInfo, RetryOptions } from './retry.ts';
export { fullJitterDelay } from './backoff.ts';
export type { BackoffOptions, RandomSource } from './backoff.ts';
export { TokenBucket } from './token-bucket.ts';
export type { TokenBucketOptions } from './token-bucket.ts';
export { withRateLimit } from './rate-limit.ts';
export { NdjsonSplitter } from './ndjson-splitter.ts';
export type { NdjsonLine } from './ndjson-splitter.ts';
export { streamNdjson } from './ndjson-stream.ts';
export type { NdjsonStreamRequest, StreamOpener, StreamOpenRequest, StreamResponse } from './ndjson-stream.ts';
export { resilientStream, defaultIsFatal } from './resilient-stream.ts';
export type { DisconnectReason, ResilientStreamOptions, StreamEvent } from './resilient-stream.ts';
export { sleep } from './scheduling.ts';
export { flatMapSync } from './flat-map-sync.ts';
export type { ReadableBody } from './body-reader.ts';
