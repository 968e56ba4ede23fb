/**
 * Errors the simulator's HTTP servers answer with. A handler throws `SimHttpError`; the server renders it
 * in the family's error shape (gateway: `{code, message, details}` with gRPC status codes). The gRPC codes
 * and their HTTP statuses follow grpc-gateway's mapping, so a client sees what the real gateway sends.
 */

import { GrpcStatus } from '../../exchange/transport/grpc-status.ts';

/** The gRPC status numbers, shared with the clients (one table for both sides of the wire). */
export const GRPC_STATUS = GrpcStatus;

export type GrpcStatusName = keyof typeof GRPC_STATUS;

const HTTP_STATUS: Record<GrpcStatusName, number> = {
  OK: 200,
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
  UNAUTHENTICATED: 401,
};

export class SimHttpError extends Error {
  readonly status: GrpcStatusName;
  readonly httpStatus: number;
  readonly details: string;
  readonly headers: Record<string, string>;

  constructor(status: GrpcStatusName, details: string, headers: Record<string, string> = {}) {
    super(`${status}: ${details}`);
    this.name = 'SimHttpError';
    this.status = status;
    this.httpStatus = HTTP_STATUS[status];
    this.details = details;
    this.headers = headers;
  }

  get grpcCode(): number {
    return GRPC_STATUS[this.status];
  }
}

export const invalidArgument = (details: string) => new SimHttpError('INVALID_ARGUMENT', details);
export const unauthenticated = (details: string) => new SimHttpError('UNAUTHENTICATED', details);
export const permissionDenied = (details: string) => new SimHttpError('PERMISSION_DENIED', details);
export const notFound = (details: string) => new SimHttpError('NOT_FOUND', details);

/** The gateway's error body: `{code, message, details}` (message is the status name, as the spec shows). */
export function gatewayErrorBody(error: SimHttpError): { code: number; message: string; details: string } {
  return { code: error.grpcCode, message: error.status, details: error.details };
}
