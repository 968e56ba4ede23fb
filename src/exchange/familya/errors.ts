/**
 * Family A client errors: the stable codes the /v1 client and the token manager add on top of the
 * transport's, and the mapping from a failed call to the error a caller sees.
 *
 * What a caller gets, by kind (src/errors.ts):
 * - connectivity (retryable): TRANSPORT_CONNECT_FAILED / _TIMEOUT / _CONNECTION_RESET / _SERVER_ERROR,
 *   passed through unchanged;
 * - rate-limited (retryable): TRANSPORT_RATE_LIMITED (HTTP 429) and TRANSPORT_RATE_LIMIT_QUEUE_FULL;
 * - rejection (never retried): FAMILY_A_REJECTED, carrying the exchange's error code and message;
 * - permission: FAMILY_A_PERMISSION_DENIED (HTTP 403: a scope is missing or the address is not allowlisted);
 * - authentication: FAMILY_A_AUTH_FAILED (HTTP 401 even with a fresh token) and FAMILY_A_TOKEN_REJECTED
 *   (the token endpoint refused the assertion: `oauthError` is `invalid_client`, `invalid_client_assertion`...);
 * - validation: FAMILY_A_INVALID_REQUEST / FAMILY_A_LIMIT_EXCEEDED (refused before sending) and
 *   FAMILY_A_BAD_RESPONSE (a 2xx body that does not decode);
 * - config: FAMILY_A_KEY_UNREADABLE / FAMILY_A_KEY_INVALID / FAMILY_A_KEY_PERMISSIONS (the private key file),
 *   FAMILY_A_INVALID_OPTIONS.
 * Messages and details never hold the private key, the assertion or a token: only method, path, status and
 * the exchange's own error text, truncated and scrubbed with the logger's redaction as a second net.
 */
import { TradebotError, isTradebotError } from '../../errors.ts';
import type { ErrorKind } from '../../errors.ts';
import { redactString } from '../../logging/redact.ts';
import { TransportErrorCode, isTransportError, truncate } from '../transport/index.ts';
import { parseFamilyAErrorBody } from './error-body.ts';
import type { FamilyAErrorBody } from './error-body.ts';

export const FamilyAErrorCode = {
  /** The exchange refused the request (HTTP 400/404/409/...); `exchange` holds its code and message. */
  Rejected: 'FAMILY_A_REJECTED',
  /** HTTP 403: the client lacks the endpoint's scope, or the caller's address is not allowlisted. */
  PermissionDenied: 'FAMILY_A_PERMISSION_DENIED',
  /** HTTP 401 again right after a fresh token was obtained. */
  AuthFailed: 'FAMILY_A_AUTH_FAILED',
  /** The token endpoint refused the client assertion; `oauthError` holds the OAuth error code. */
  TokenRejected: 'FAMILY_A_TOKEN_REJECTED',
  /** The private key file is missing or unreadable. */
  KeyUnreadable: 'FAMILY_A_KEY_UNREADABLE',
  /** The private key file is not an unencrypted RSA private key of at least 2048 bits. */
  KeyInvalid: 'FAMILY_A_KEY_INVALID',
  /** The private key file is readable (or writable) by group or others; it must be mode 0600. */
  KeyPermissions: 'FAMILY_A_KEY_PERMISSIONS',
  /** More requests in one list call, or a larger page, than the venue allows; refused before sending. */
  LimitExceeded: 'FAMILY_A_LIMIT_EXCEEDED',
  /** A request the client refuses before sending (bad depth, non-https webhook URL, ...). */
  InvalidRequest: 'FAMILY_A_INVALID_REQUEST',
  /** A 2xx response that does not decode into the expected shape. */
  BadResponse: 'FAMILY_A_BAD_RESPONSE',
  /** Bad client or token manager options. */
  InvalidOptions: 'FAMILY_A_INVALID_OPTIONS',
} as const;

export type FamilyAErrorCode = (typeof FamilyAErrorCode)[keyof typeof FamilyAErrorCode];

const KIND_BY_CODE: Record<FamilyAErrorCode, ErrorKind> = {
  FAMILY_A_REJECTED: 'rejection',
  FAMILY_A_PERMISSION_DENIED: 'permission',
  FAMILY_A_AUTH_FAILED: 'authentication',
  FAMILY_A_TOKEN_REJECTED: 'authentication',
  FAMILY_A_KEY_UNREADABLE: 'config',
  FAMILY_A_KEY_INVALID: 'config',
  FAMILY_A_KEY_PERMISSIONS: 'config',
  FAMILY_A_LIMIT_EXCEEDED: 'validation',
  FAMILY_A_INVALID_REQUEST: 'validation',
  FAMILY_A_BAD_RESPONSE: 'validation',
  FAMILY_A_INVALID_OPTIONS: 'config',
};

export interface FamilyAErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
  /** The exchange's error body, leniently parsed, when the failure came with one. */
  exchange?: FamilyAErrorBody;
  httpStatus?: number;
  /** OAuth error code of a refused token request (`invalid_client`, `invalid_client_assertion`, ...). */
  oauthError?: string;
}

/** A TradebotError raised by the family A client; `code` is one of FamilyAErrorCode. */
export class FamilyAError extends TradebotError {
  declare readonly code: FamilyAErrorCode;
  readonly exchange: FamilyAErrorBody | undefined;
  readonly httpStatus: number | undefined;
  readonly oauthError: string | undefined;

  constructor(code: FamilyAErrorCode, message: string, options: FamilyAErrorOptions = {}) {
    super(code, message, { kind: KIND_BY_CODE[code], cause: options.cause, details: options.details });
    this.name = 'FamilyAError';
    this.exchange = options.exchange;
    this.httpStatus = options.httpStatus;
    this.oauthError = options.oauthError;
  }
}

export function isFamilyAError(value: unknown, code?: FamilyAErrorCode): value is FamilyAError {
  return value instanceof FamilyAError && (code === undefined || value.code === code);
}

function describeExchange(body: FamilyAErrorBody | undefined): string {
  if (body === undefined) return '';
  const code = body.code === undefined ? '' : `${String(body.code)}${body.reason === undefined ? '' : `/${body.reason}`}: `;
  return body.message === '' && code === '' ? '' : ` (${code}${body.message})`;
}

/**
 * The error a caller sees for a failed call of `operation` (e.g. `insertOrder`). HTTP 4xx answers become
 * FamilyAErrors carrying the leniently parsed body; 401 stays a transport error (the caller renews the
 * token and retries once, then calls `authFailed`); everything else passes through unchanged.
 */
export function toFamilyAError(error: unknown, operation: string, scope?: string): unknown {
  if (!isTransportError(error)) return error;
  const status = error.details?.['status'];
  const httpStatus = typeof status === 'number' ? status : undefined;
  const exchange = error.details !== undefined && 'body' in error.details ? parseFamilyAErrorBody(error.details['body']) : undefined;
  const details = { operation, httpStatus, ...(exchange === undefined ? {} : { exchange }) };
  const options = { cause: error, details, exchange, httpStatus };
  const suffix = describeExchange(exchange);
  switch (error.code) {
    case TransportErrorCode.Forbidden: {
      const need = scope === undefined ? '' : `; this call needs scope ${scope}`;
      return new FamilyAError(
        FamilyAErrorCode.PermissionDenied,
        `${operation}: permission denied (HTTP 403${need}, or this address is not allowlisted)${suffix}`,
        options,
      );
    }
    case TransportErrorCode.Rejected:
      return new FamilyAError(
        FamilyAErrorCode.Rejected,
        `${operation}: rejected by the exchange (HTTP ${httpStatus ?? '4xx'})${suffix}`,
        options,
      );
    default:
      return error;
  }
}

/** HTTP 401 on a retry with a token fresh from the token endpoint. */
export function authFailed(operation: string, cause: unknown): FamilyAError {
  return new FamilyAError(
    FamilyAErrorCode.AuthFailed,
    `${operation}: the API refused a fresh access token (HTTP 401); check that apiUrl is the audience the client was onboarded for`,
    { cause, details: { operation }, httpStatus: 401 },
  );
}

/** True for a 401 from the API: a fresh token may cure it. */
export function isUnauthorized(error: unknown): boolean {
  return isTransportError(error, TransportErrorCode.Unauthorized);
}

/** Wraps a decode failure of a 2xx body (a domain WIRE_* error naming the field) as FAMILY_A_BAD_RESPONSE. */
export function badResponse(operation: string, cause: unknown): FamilyAError {
  const what = cause instanceof Error ? cause.message : String(cause);
  return new FamilyAError(
    FamilyAErrorCode.BadResponse,
    `${operation}: unexpected response from the exchange: ${redactString(truncate(what, 300))}`,
    {
      cause,
      details: { operation, ...(isTradebotError(cause) ? { causeCode: cause.code } : {}) },
    },
  );
}

export function invalidRequest(operation: string, message: string): FamilyAError {
  return new FamilyAError(FamilyAErrorCode.InvalidRequest, `${operation}: ${message}`, { details: { operation } });
}

export function limitExceeded(operation: string, what: string, count: number, max: number): FamilyAError {
  return new FamilyAError(
    FamilyAErrorCode.LimitExceeded,
    `${operation}: ${count} ${what}, the exchange allows at most ${max}; split the call`,
    {
      details: { operation, count, max },
    },
  );
}
