/**
 * Gateway client errors: the stable codes the gateway (family B) client adds on top of the transport's, and
 * the mapping from a failed call to the error a caller sees.
 *
 * What a caller gets, by kind (src/errors.ts):
 * - connectivity (retryable): the transport's TRANSPORT_CONNECT_FAILED / _TIMEOUT / _CONNECTION_RESET /
 *   _SERVER_ERROR and the stream codes, passed through unchanged;
 * - rate-limited (retryable): TRANSPORT_RATE_LIMITED (HTTP 429, `details.retryAfterMs` when sent), or
 *   TRANSPORT_RATE_LIMIT_QUEUE_FULL from the client-side limiter;
 * - rejection (never retried): GATEWAY_REJECTED, carrying the gateway's `{code, message, details}`;
 * - permission: GATEWAY_PERMISSION_DENIED (HTTP 403, e.g. an account that is not the caller's);
 * - authentication: GATEWAY_AUTH_FAILED (HTTP 401 after the session could not recover) and
 *   GATEWAY_MFA_REQUIRED (the user has MFA on but no TOTP secret is configured);
 * - validation: GATEWAY_LIMIT_EXCEEDED / GATEWAY_INVALID_REQUEST (refused before sending) and
 *   GATEWAY_BAD_RESPONSE (a 2xx body that does not match the expected shape).
 * Messages and details never hold passwords, tokens or OTP secrets: only the method, path, status and the
 * gateway's own error text (scrubbed with the logger's redaction as a second net).
 */
import { TradebotError, isTradebotError } from '../../errors.ts';
import type { ErrorKind } from '../../errors.ts';
import { gateway } from '../../domain/index.ts';
import type { GatewayErrorBody } from '../../domain/index.ts';
import type { TransportError } from '../transport/index.ts';
import { GrpcStatus, TransportErrorCode, isTransportError, truncate } from '../transport/index.ts';
import { redactString } from '../../logging/redact.ts';

export const GatewayErrorCode = {
  /** The exchange refused the request (HTTP 400/404/409/501, or a stream error line with such a status). */
  Rejected: 'GATEWAY_REJECTED',
  /** HTTP 403 / gRPC PERMISSION_DENIED: the account or resource is not the caller's. */
  PermissionDenied: 'GATEWAY_PERMISSION_DENIED',
  /** HTTP 401 that a token refresh or a new login could not cure, or a failed login. */
  AuthFailed: 'GATEWAY_AUTH_FAILED',
  /** The configured user has MFA enabled but the client has no TOTP secret or code provider. */
  MfaRequired: 'GATEWAY_MFA_REQUIRED',
  /** More requests in one list call than the venue allows (20); refused before sending. */
  LimitExceeded: 'GATEWAY_LIMIT_EXCEEDED',
  /** A request the client refuses before sending (e.g. a cross without exactly two orders). */
  InvalidRequest: 'GATEWAY_INVALID_REQUEST',
  /** A 2xx response (or stream line) that does not decode into the expected shape. */
  BadResponse: 'GATEWAY_BAD_RESPONSE',
  /** The session was logged out / the client closed: create a new client. */
  SessionClosed: 'GATEWAY_SESSION_CLOSED',
  /** Bad client options. */
  InvalidOptions: 'GATEWAY_INVALID_OPTIONS',
} as const;

export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

const KIND_BY_CODE: Record<GatewayErrorCode, ErrorKind> = {
  GATEWAY_REJECTED: 'rejection',
  GATEWAY_PERMISSION_DENIED: 'permission',
  GATEWAY_AUTH_FAILED: 'authentication',
  GATEWAY_MFA_REQUIRED: 'authentication',
  GATEWAY_LIMIT_EXCEEDED: 'validation',
  GATEWAY_INVALID_REQUEST: 'validation',
  GATEWAY_BAD_RESPONSE: 'validation',
  GATEWAY_SESSION_CLOSED: 'internal',
  GATEWAY_INVALID_OPTIONS: 'config',
};

export interface GatewayErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
  /** The gateway's error body, when the failure came with one. */
  exchange?: GatewayErrorBody;
  httpStatus?: number;
}

/** A TradebotError raised by the gateway client; `code` is one of GatewayErrorCode. */
export class GatewayError extends TradebotError {
  declare readonly code: GatewayErrorCode;
  /** The gateway's `{code, message, details}` (gRPC status number, its name, human text), when it sent one. */
  readonly exchange: GatewayErrorBody | undefined;
  readonly httpStatus: number | undefined;

  constructor(code: GatewayErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(code, message, { kind: KIND_BY_CODE[code], cause: options.cause, details: options.details });
    this.name = 'GatewayError';
    this.exchange = options.exchange;
    this.httpStatus = options.httpStatus;
  }
}

export function isGatewayError(value: unknown, code?: GatewayErrorCode): value is GatewayError {
  return value instanceof GatewayError && (code === undefined || value.code === code);
}

/** The gateway error body of a transport error (`details.body`), validated; undefined when absent. */
function exchangeBodyOf(error: TransportError): GatewayErrorBody | undefined {
  const body = error.details?.['body'];
  if (typeof body !== 'object' || body === null) return undefined;
  try {
    const decoded = gateway.errorBody.decode(body);
    const details = typeof decoded.details === 'string' ? redactString(truncate(decoded.details, 500)) : decoded.details;
    return { code: decoded.code, message: redactString(truncate(decoded.message, 200)), details };
  } catch {
    return undefined;
  }
}

function describeExchange(body: GatewayErrorBody | undefined): string {
  if (body === undefined) return '';
  const details = typeof body.details === 'string' && body.details !== '' ? `: ${body.details}` : '';
  return ` (${body.message || `code ${body.code}`}${details})`;
}

/** The gRPC code a stream error line carried, as a GatewayErrorBody. */
function streamExchange(error: TransportError): GatewayErrorBody | undefined {
  const code = error.details?.['grpcCode'];
  const n = typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : code;
  if (typeof n !== 'number') return undefined;
  const message = error.details?.['grpcMessage'];
  return { code: n, message: typeof message === 'string' ? redactString(message) : '', details: '' };
}

/**
 * The error a gateway caller sees for a failure of `operation` (e.g. `insert_order`). HTTP 4xx answers
 * become GatewayErrors carrying the exchange body; stream error lines are mapped by their gRPC status;
 * everything else (connectivity, 429, aborts, GatewayErrors, domain errors) passes through unchanged.
 */
export function toGatewayError(error: unknown, operation: string): unknown {
  if (!isTransportError(error)) return error;
  if (error.code === TransportErrorCode.StreamError) return fromStreamError(error, operation);
  const status = error.details?.['status'];
  const httpStatus = typeof status === 'number' ? status : undefined;
  const exchange = exchangeBodyOf(error);
  const details = { operation, httpStatus, ...(exchange === undefined ? {} : { exchange }) };
  const suffix = describeExchange(exchange);
  const options = { cause: error, details, exchange, httpStatus };
  switch (error.code) {
    case TransportErrorCode.Unauthorized:
      return new GatewayError(
        GatewayErrorCode.AuthFailed,
        `${operation}: the gateway refused the credentials or token (HTTP 401)${suffix}`,
        options,
      );
    case TransportErrorCode.Forbidden:
      return new GatewayError(GatewayErrorCode.PermissionDenied, `${operation}: permission denied (HTTP 403)${suffix}`, options);
    case TransportErrorCode.Rejected:
      return new GatewayError(
        GatewayErrorCode.Rejected,
        `${operation}: rejected by the gateway (HTTP ${httpStatus ?? '4xx'})${suffix}`,
        options,
      );
    default:
      return error;
  }
}

function fromStreamError(error: TransportError, operation: string): unknown {
  const exchange = streamExchange(error);
  const options = { cause: error, exchange, details: { operation, ...(exchange === undefined ? {} : { exchange }) } };
  const suffix = describeExchange(exchange);
  switch (error.kind) {
    case 'rejection':
      return new GatewayError(GatewayErrorCode.Rejected, `${operation}: the stream was rejected${suffix}`, options);
    case 'permission':
      return new GatewayError(GatewayErrorCode.PermissionDenied, `${operation}: permission denied on the stream${suffix}`, options);
    case 'authentication':
      return exchange?.code === GrpcStatus.UNAUTHENTICATED
        ? new GatewayError(GatewayErrorCode.AuthFailed, `${operation}: the stream's token was refused${suffix}`, options)
        : error;
    default:
      return error;
  }
}

/** Wraps a decode failure of a 2xx body (a domain WIRE_* error naming the field) as GATEWAY_BAD_RESPONSE. */
export function badResponse(operation: string, cause: unknown): GatewayError {
  const what = isTradebotError(cause) ? cause.message : cause instanceof Error ? cause.message : String(cause);
  return new GatewayError(GatewayErrorCode.BadResponse, `${operation}: unexpected response from the gateway: ${truncate(what, 300)}`, {
    cause,
    details: { operation, ...(isTradebotError(cause) ? { causeCode: cause.code } : {}) },
  });
}
