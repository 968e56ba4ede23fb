/**
 * gRPC status codes -> error kinds. The gateway's stream error lines (`{"error": {code, message, details}}`)
 * carry gRPC status codes; the gRPC streams will carry the same ones. The kind decides what a resilient
 * stream does next: reconnect (connectivity, rate-limited), refresh the token (authentication), or stop.
 */
import type { ErrorKind } from '../../errors.ts';

/** gRPC status code numbers (https://grpc.github.io/grpc/core/md_doc_statuscodes.html). */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

const KIND_BY_STATUS: ReadonlyMap<number, ErrorKind> = new Map<number, ErrorKind>([
  [GrpcStatus.CANCELLED, 'connectivity'],
  [GrpcStatus.UNKNOWN, 'connectivity'],
  [GrpcStatus.INVALID_ARGUMENT, 'rejection'],
  [GrpcStatus.DEADLINE_EXCEEDED, 'connectivity'],
  [GrpcStatus.NOT_FOUND, 'rejection'],
  [GrpcStatus.ALREADY_EXISTS, 'rejection'],
  [GrpcStatus.PERMISSION_DENIED, 'permission'],
  [GrpcStatus.RESOURCE_EXHAUSTED, 'rate-limited'],
  [GrpcStatus.FAILED_PRECONDITION, 'rejection'],
  [GrpcStatus.ABORTED, 'connectivity'],
  [GrpcStatus.OUT_OF_RANGE, 'rejection'],
  [GrpcStatus.UNIMPLEMENTED, 'rejection'],
  [GrpcStatus.INTERNAL, 'connectivity'],
  [GrpcStatus.UNAVAILABLE, 'connectivity'],
  [GrpcStatus.DATA_LOSS, 'connectivity'],
  [GrpcStatus.UNAUTHENTICATED, 'authentication'],
]);

/**
 * The error kind for a gRPC status code. Unknown or missing codes count as connectivity (reconnect), so a
 * server that invents a code does not stop a stream for good.
 */
export function kindOfGrpcStatus(code: unknown): ErrorKind {
  const n = typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : code;
  return typeof n === 'number' ? (KIND_BY_STATUS.get(n) ?? 'connectivity') : 'connectivity';
}
