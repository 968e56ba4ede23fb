/**
 * One gateway call: POST JSON to `/auth/v1beta1/<name>` or `/api/v1beta1/<name>` through the composed
 * transport, map failures to gateway errors, and decode the 2xx body (a decode failure becomes
 * GATEWAY_BAD_RESPONSE naming the field). Authentication (the token, the retry after a 401) is the caller's
 * job: see authed-caller.ts.
 */
import type { HttpRequest, Transport } from '../transport/index.ts';
import { badResponse, toGatewayError } from './errors.ts';

export type GatewayFamily = 'auth' | 'api';

export const AUTH_PREFIX = '/auth/v1beta1';
export const API_PREFIX = '/api/v1beta1';

export function gatewayPath(family: GatewayFamily, name: string): string {
  return `${family === 'auth' ? AUTH_PREFIX : API_PREFIX}/${name}`;
}

export interface CallOptions {
  /** Safe to send twice (see HttpRequest.idempotent); only then does the retry wrapper repeat it. */
  readonly idempotent: boolean;
  /** Extra headers (Authorization). Never logged, never in errors. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Per-call options a caller of the client may pass. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Overrides the per-call deadline (default 15 s). */
  readonly timeoutMs?: number;
}

/** POSTs `body` and returns the parsed JSON body ({} for an empty one); failures are gateway errors. */
export async function postGateway(
  transport: Transport,
  family: GatewayFamily,
  name: string,
  body: unknown,
  options: CallOptions,
): Promise<unknown> {
  const request: HttpRequest = {
    method: 'POST',
    path: gatewayPath(family, name),
    body,
    idempotent: options.idempotent,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  try {
    const response = await transport.request(request);
    return response.body ?? {};
  } catch (error) {
    throw toGatewayError(error, name);
  }
}

/** Runs a decoder over a response body; a failure becomes GATEWAY_BAD_RESPONSE for `operation`. */
export function decodeResponse<T>(operation: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    throw badResponse(operation, error);
  }
}
