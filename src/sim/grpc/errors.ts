/**
 * How the simulator's gRPC services fail: a `GrpcStatusError` carries a gRPC status code and details, and
 * `toServiceStatus` maps anything a handler throws to the status the client receives. The shared order
 * translation throws `SimHttpError`s whose gRPC code is used as is (so every door answers the same code);
 * a request that does not decode (a TradebotError of kind validation, e.g. WIRE_INVALID_FIELD or an unknown
 * symbol) is INVALID_ARGUMENT; anything else is INTERNAL with a generic message (the caller logs it).
 */
import { status } from '@grpc/grpc-js';
import { isTradebotError } from '../../errors.ts';
import { SimHttpError } from '../http/errors.ts';

export class GrpcStatusError extends Error {
  constructor(
    readonly code: status,
    readonly details: string,
  ) {
    super(`${status[code]}: ${details}`);
    this.name = 'GrpcStatusError';
  }
}

export interface ServiceStatus {
  readonly code: status;
  readonly details: string;
  /** True when the failure is a bug or an unexpected condition (log it). */
  readonly internal: boolean;
}

export function toServiceStatus(error: unknown): ServiceStatus {
  if (error instanceof GrpcStatusError) return { code: error.code, details: error.details, internal: false };
  if (error instanceof SimHttpError) return { code: error.grpcCode as status, details: error.details, internal: false };
  if (isTradebotError(error) && error.kind === 'validation') {
    const details = error.code === 'SCALE_UNKNOWN_SYMBOL' ? `unknown symbol: ${error.message}` : error.message;
    return { code: status.INVALID_ARGUMENT, details, internal: false };
  }
  return { code: status.INTERNAL, details: 'internal error', internal: true };
}

export const unauthenticated = (details: string): GrpcStatusError => new GrpcStatusError(status.UNAUTHENTICATED, details);
export const permissionDenied = (details: string): GrpcStatusError => new GrpcStatusError(status.PERMISSION_DENIED, details);
export const invalidArgument = (details: string): GrpcStatusError => new GrpcStatusError(status.INVALID_ARGUMENT, details);
export const resourceExhausted = (details: string): GrpcStatusError => new GrpcStatusError(status.RESOURCE_EXHAUSTED, details);
export const outOfRange = (details: string): GrpcStatusError => new GrpcStatusError(status.OUT_OF_RANGE, details);
export const unavailable = (details: string): GrpcStatusError => new GrpcStatusError(status.UNAVAILABLE, details);
