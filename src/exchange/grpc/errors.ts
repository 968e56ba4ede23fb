/**
 * gRPC client errors: one stable code per gRPC status (`GRPC_UNAUTHENTICATED`, `GRPC_PERMISSION_DENIED`,
 * `GRPC_RESOURCE_EXHAUSTED`, ...) plus the client's own (`GRPC_BAD_RESPONSE`, `GRPC_INVALID_OPTIONS`,
 * `GRPC_CLOSED`). The kind follows the status (src/exchange/transport/grpc-status.ts): connectivity and
 * rate-limited errors reconnect, UNAUTHENTICATED refreshes the token, rejections and permission errors stop
 * a stream. Messages hold the method and the server's status details, never metadata (the token).
 */
import { TradebotError, isTradebotError } from '../../errors.ts';
import type { ErrorKind } from '../../errors.ts';
import { GrpcStatus, kindOfGrpcStatus, truncate } from '../transport/index.ts';

type StatusName = keyof typeof GrpcStatus;

const NAME_BY_CODE = new Map<number, StatusName>(Object.entries(GrpcStatus).map(([name, code]) => [code, name as StatusName]));

export const GrpcClientErrorCode = {
  /** A message that does not decode into the expected shape. */
  BadResponse: 'GRPC_BAD_RESPONSE',
  /** Bad client options. */
  InvalidOptions: 'GRPC_INVALID_OPTIONS',
  /** The client was closed. */
  Closed: 'GRPC_CLOSED',
  /** A request the client refuses before sending (e.g. more than 20 orders in a list). */
  InvalidRequest: 'GRPC_INVALID_REQUEST',
} as const;

export class GrpcError extends TradebotError {
  /** The gRPC status code, when the error came from a status. */
  readonly grpcCode: number | undefined;

  constructor(
    code: string,
    message: string,
    options: { kind: ErrorKind; grpcCode?: number; cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(code, message, { kind: options.kind, cause: options.cause, details: options.details });
    this.name = 'GrpcError';
    this.grpcCode = options.grpcCode;
  }
}

export function isGrpcError(value: unknown, code?: string): value is GrpcError {
  return value instanceof GrpcError && (code === undefined || value.code === code);
}

/** The stable error code of a gRPC status, e.g. `GRPC_UNAUTHENTICATED`. */
export function grpcErrorCode(status: number): string {
  return `GRPC_${NAME_BY_CODE.get(status) ?? 'UNKNOWN'}`;
}

/** A failed call (grpc-js ServiceError or anything else) as a GrpcError naming the method. */
export function toGrpcError(error: unknown, method: string): GrpcError {
  if (error instanceof GrpcError) return error;
  const status = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const details = typeof error === 'object' && error !== null ? (error as { details?: unknown }).details : undefined;
  if (typeof status === 'number') {
    const text = typeof details === 'string' && details !== '' ? truncate(details, 512) : (NAME_BY_CODE.get(status) ?? 'UNKNOWN');
    return new GrpcError(grpcErrorCode(status), `${method}: ${text}`, {
      kind: kindOfGrpcStatus(status),
      grpcCode: status,
      details: { method, status },
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GrpcError('GRPC_UNKNOWN', `${method}: ${message}`, { kind: 'connectivity', cause: error, details: { method } });
}

export function badResponse(method: string, error: unknown): GrpcError {
  const reason = isTradebotError(error) || error instanceof Error ? error.message : String(error);
  return new GrpcError(GrpcClientErrorCode.BadResponse, `${method}: unexpected message: ${reason}`, {
    kind: 'validation',
    cause: error,
    details: { method },
  });
}
