/**
 * How the simulator's gRPC services fail: a `GrpcStatusError` carries a gRPC status code and details, and
 * `toServiceStatus` maps anything a handler throws to the status the client receives. The shared order
 * translation throws `SimHttpError`s whose gRPC code is used as is (so every door answers the same code);
 * a request that does not decode (a TradebotError of kind validation, e.g. WIRE_INVALID_FIELD or an unknown
 * symbol) is INVALID_ARGUMENT; anything else is INTERNAL with a generic message (the caller logs it).
 * Details travel in the `grpc-message` trailer (an HTTP/2 header): they are cut to DETAILS_MAX characters,
 * so an echoed request value (a 150 KB account name) cannot make a trailer the client refuses to read.
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

/** Longest status details sent, in characters. */
export const DETAILS_MAX = 512;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Status details as sent: well-formed text (grpc-js URI-encodes it), at most DETAILS_MAX characters. */
export function statusDetails(text: string): string {
  const clean = text.replace(LONE_SURROGATE, '\ufffd');
  if (clean.length <= DETAILS_MAX) return clean;
  const high = clean.charCodeAt(DETAILS_MAX - 1);
  const cut = high >= 0xd800 && high <= 0xdbff ? DETAILS_MAX - 1 : DETAILS_MAX;
  return `${clean.slice(0, cut)}... (${clean.length - cut} more characters)`;
}

function mapped(error: unknown): ServiceStatus {
  if (error instanceof GrpcStatusError) return { code: error.code, details: error.details, internal: false };
  if (error instanceof SimHttpError) return { code: error.grpcCode as status, details: error.details, internal: false };
  if (isTradebotError(error) && error.kind === 'validation') {
    const details = error.code === 'SCALE_UNKNOWN_SYMBOL' ? `unknown symbol: ${error.message}` : error.message;
    return { code: status.INVALID_ARGUMENT, details, internal: false };
  }
  return { code: status.INTERNAL, details: 'internal error', internal: true };
}

export function toServiceStatus(error: unknown): ServiceStatus {
  const result = mapped(error);
  return { ...result, details: statusDetails(result.details) };
}

export const unauthenticated = (details: string): GrpcStatusError => new GrpcStatusError(status.UNAUTHENTICATED, details);
export const permissionDenied = (details: string): GrpcStatusError => new GrpcStatusError(status.PERMISSION_DENIED, details);
export const invalidArgument = (details: string): GrpcStatusError => new GrpcStatusError(status.INVALID_ARGUMENT, details);
export const resourceExhausted = (details: string): GrpcStatusError => new GrpcStatusError(status.RESOURCE_EXHAUSTED, details);
export const outOfRange = (details: string): GrpcStatusError => new GrpcStatusError(status.OUT_OF_RANGE, details);
export const unavailable = (details: string): GrpcStatusError => new GrpcStatusError(status.UNAVAILABLE, details);
