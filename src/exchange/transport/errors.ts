/**
 * Transport errors: the stable codes every transport module throws, and one error class that carries them.
 *
 * Each code has a fixed `kind` (src/errors.ts) so callers decide by kind, never by message text:
 * connectivity and rate-limited errors are retryable, rejections are not. Messages and details never
 * contain request headers or request bodies (they hold tokens and passwords); response bodies may appear,
 * truncated with `truncate()`.
 */
import { TradebotError } from '../../errors.ts';
import type { ErrorKind } from '../../errors.ts';

/** Stable transport error codes, matched by callers and tests. */
export const TransportErrorCode = {
  /** Could not open a connection (refused, DNS, unreachable, connect timeout). The request was not sent. */
  ConnectFailed: 'TRANSPORT_CONNECT_FAILED',
  /** The call's deadline passed before the response was complete (or HTTP 408). */
  Timeout: 'TRANSPORT_TIMEOUT',
  /** The connection broke while the request or response was in flight. */
  ConnectionReset: 'TRANSPORT_CONNECTION_RESET',
  /** HTTP 5xx. */
  ServerError: 'TRANSPORT_SERVER_ERROR',
  /** HTTP 429; `details.retryAfterMs` holds the server's Retry-After when it sent one. */
  RateLimited: 'TRANSPORT_RATE_LIMITED',
  /** HTTP 401: the token is missing, invalid or expired. */
  Unauthorized: 'TRANSPORT_UNAUTHORIZED',
  /** HTTP 403: scope missing or address not allowlisted. */
  Forbidden: 'TRANSPORT_FORBIDDEN',
  /** Any other 4xx; `details.body` holds the parsed error body (gateway: `{code, message, details}`). */
  Rejected: 'TRANSPORT_REJECTED',
  /** A body that is not JSON, too large, or an unexpected status (1xx/3xx). */
  BadResponse: 'TRANSPORT_BAD_RESPONSE',
  /** TLS handshake or certificate failure: a configuration problem, retrying will not help. */
  TlsFailed: 'TRANSPORT_TLS_FAILED',
  /** The caller's AbortSignal fired. */
  Aborted: 'TRANSPORT_ABORTED',
  /** The transport (or rate limiter) was closed. */
  Closed: 'TRANSPORT_CLOSED',
  /** The client-side rate limiter's queue is full. */
  RateLimitQueueFull: 'TRANSPORT_RATE_LIMIT_QUEUE_FULL',
  /** The request itself is malformed (bad path, unserialisable body): a bug in the caller. */
  InvalidRequest: 'TRANSPORT_INVALID_REQUEST',
  /** Bad constructor options. */
  InvalidOptions: 'TRANSPORT_INVALID_OPTIONS',
  /** An error the mapping does not recognise. */
  Unexpected: 'TRANSPORT_UNEXPECTED',
  /** An NDJSON stream delivered `{"error": {code, message, details}}`. */
  StreamError: 'STREAM_ERROR',
  /** An NDJSON stream delivered a line that is not JSON. */
  StreamBadLine: 'STREAM_BAD_LINE',
  /** A resilient stream heard nothing for its silence timeout. */
  StreamSilence: 'STREAM_SILENCE_TIMEOUT',
  /** A resilient stream failed more times in a row than allowed. */
  StreamReconnectExhausted: 'STREAM_RECONNECT_EXHAUSTED',
} as const;

export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

const KIND_BY_CODE: Record<TransportErrorCode, ErrorKind> = {
  TRANSPORT_CONNECT_FAILED: 'connectivity',
  TRANSPORT_TIMEOUT: 'connectivity',
  TRANSPORT_CONNECTION_RESET: 'connectivity',
  TRANSPORT_SERVER_ERROR: 'connectivity',
  TRANSPORT_RATE_LIMITED: 'rate-limited',
  TRANSPORT_UNAUTHORIZED: 'authentication',
  TRANSPORT_FORBIDDEN: 'permission',
  TRANSPORT_REJECTED: 'rejection',
  TRANSPORT_BAD_RESPONSE: 'validation',
  TRANSPORT_TLS_FAILED: 'config',
  TRANSPORT_ABORTED: 'internal',
  TRANSPORT_CLOSED: 'internal',
  TRANSPORT_RATE_LIMIT_QUEUE_FULL: 'rate-limited',
  TRANSPORT_INVALID_REQUEST: 'internal',
  TRANSPORT_INVALID_OPTIONS: 'config',
  TRANSPORT_UNEXPECTED: 'internal',
  // STREAM_ERROR's kind depends on the gRPC status code; see grpc-status.ts. This is the fallback.
  STREAM_ERROR: 'connectivity',
  // A garbled line is treated like a broken connection: reconnect and resnapshot.
  STREAM_BAD_LINE: 'connectivity',
  STREAM_SILENCE_TIMEOUT: 'connectivity',
  STREAM_RECONNECT_EXHAUSTED: 'connectivity',
};

export interface TransportErrorOptions {
  /** Overrides the code's default kind (used by STREAM_ERROR, whose kind follows the gRPC status). */
  kind?: ErrorKind;
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** A TradebotError raised by the transport layer; `code` is one of TransportErrorCode. */
export class TransportError extends TradebotError {
  declare readonly code: TransportErrorCode;

  constructor(code: TransportErrorCode, message: string, options: TransportErrorOptions = {}) {
    super(code, message, { kind: options.kind ?? KIND_BY_CODE[code], cause: options.cause, details: options.details });
    this.name = 'TransportError';
  }
}

/** The default kind of a transport error code. */
export function kindOfCode(code: TransportErrorCode): ErrorKind {
  return KIND_BY_CODE[code];
}

export function isTransportError(value: unknown, code?: TransportErrorCode): value is TransportError {
  return value instanceof TransportError && (code === undefined || value.code === code);
}

/** Shortens text for messages and details: keeps the first `max` characters and says how many were cut. */
export function truncate(text: string, max = 512): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}…(+${text.length - max} chars)`;
}

/** The error used when a caller's AbortSignal fires; the signal's reason is kept as the cause. */
export function abortedError(signal: AbortSignal | undefined, what: string): TransportError {
  return new TransportError(TransportErrorCode.Aborted, `${what} was aborted by the caller`, {
    cause: signal?.reason,
  });
}
