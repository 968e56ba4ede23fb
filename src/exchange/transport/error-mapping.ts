/**
 * Maps what can go wrong in an HTTP call to TransportErrors: failures thrown by undici or the socket
 * (`mapFailure`) and non-2xx statuses (`errorForStatus`). Only the method, the path (without query),
 * the origin, the status and the truncated response body ever reach a message or details: never request
 * headers or request bodies.
 */
import { TransportError, TransportErrorCode, truncate } from './errors.ts';
import type { TransportErrorOptions } from './errors.ts';

/** What an error may say about the call. */
export interface CallContext {
  method: string;
  /** Request path without its query string. */
  path: string;
  /** The origin actually connected to (the private link address when one is used). */
  origin: string;
}

/** State of the call when it failed, to tell our own deadline and the caller's abort from real failures. */
export interface FailureState {
  timedOut: boolean;
  timeoutMs: number;
  callerSignal: AbortSignal | undefined;
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_INFO',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const CLOSED_CODES = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** The first `code` found on the error or along its cause chain (undici sometimes wraps socket errors). */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Turns anything thrown during a call into a TransportError (TransportErrors pass through unchanged). */
export function mapFailure(error: unknown, ctx: CallContext, state: FailureState): TransportError {
  const where = `${ctx.method} ${ctx.path}`;
  const base = { method: ctx.method, path: ctx.path, origin: ctx.origin };
  if (state.timedOut) {
    return new TransportError(TransportErrorCode.Timeout, `${where} timed out after ${state.timeoutMs} ms`, {
      details: { ...base, timeoutMs: state.timeoutMs },
    });
  }
  if (state.callerSignal?.aborted === true) {
    return new TransportError(TransportErrorCode.Aborted, `${where} was aborted by the caller`, {
      cause: state.callerSignal.reason,
      details: base,
    });
  }
  if (error instanceof TransportError) return error;
  const code = errorCode(error);
  const opts = (extra: Record<string, unknown> = {}): TransportErrorOptions => ({
    cause: error,
    details: { ...base, ...(code === undefined ? {} : { systemCode: code }), ...extra },
  });
  if (code !== undefined && CONNECT_CODES.has(code)) {
    return new TransportError(TransportErrorCode.ConnectFailed, `${where}: could not connect to ${ctx.origin} (${code})`, opts());
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new TransportError(TransportErrorCode.Timeout, `${where} timed out (${code})`, opts({ timeoutMs: state.timeoutMs }));
  }
  if (code !== undefined && RESET_CODES.has(code)) {
    return new TransportError(TransportErrorCode.ConnectionReset, `${where}: connection to ${ctx.origin} broke (${code})`, opts());
  }
  if (code !== undefined && TLS_CODE.test(code)) {
    return new TransportError(
      TransportErrorCode.TlsFailed,
      `${where}: TLS with ${ctx.origin} failed (${code}); check the URL, the private link Host/servername and the CA`,
      opts(),
    );
  }
  if (code !== undefined && CLOSED_CODES.has(code)) {
    return new TransportError(TransportErrorCode.Closed, `${where}: the transport is closed`, opts());
  }
  if (code !== undefined && code.startsWith('HPE_')) {
    return new TransportError(TransportErrorCode.BadResponse, `${where}: malformed HTTP response (${code})`, opts());
  }
  if (code === 'UND_ERR_INVALID_ARG') {
    return new TransportError(TransportErrorCode.InvalidRequest, `${where}: invalid request (${describe(error)})`, opts());
  }
  return new TransportError(TransportErrorCode.Unexpected, `${where} failed: ${describe(error)}`, opts());
}

/** Error messages from undici/node name the problem, not header values; still cap their length. */
function describe(error: unknown): string {
  return truncate(error instanceof Error ? error.message : String(error), 200);
}

/**
 * Retry-After in ms: either delta-seconds or an HTTP date (relative to `nowMs`, the injected clock).
 * Returns undefined when absent or unparsable; never negative.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Parsed body of an error response: JSON when possible, else the truncated text. */
function errorBody(text: string): { body: unknown; parsed: boolean } {
  if (text.length === 0) return { body: null, parsed: true };
  if (text.length <= 4096) {
    try {
      return { body: JSON.parse(text) as unknown, parsed: true };
    } catch {
      // not JSON: fall through to the text
    }
  }
  return { body: truncate(text, 1024), parsed: false };
}

/** `code`, `message` and `details` of a gateway error body (`{code, message, details}`), when present. */
function exchangeFields(body: unknown): { exchangeCode?: unknown; exchangeMessage?: string; exchangeDetails?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  const out: { exchangeCode?: unknown; exchangeMessage?: string; exchangeDetails?: string } = {};
  if (typeof b['code'] === 'number' || typeof b['code'] === 'string') out.exchangeCode = b['code'];
  if (typeof b['message'] === 'string') out.exchangeMessage = truncate(b['message'], 200);
  if (typeof b['details'] === 'string') out.exchangeDetails = truncate(b['details'], 300);
  return out;
}

/** The error for a non-2xx response. `text` is the (size-capped) response body. */
export function errorForStatus(
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
  ctx: CallContext,
  nowMs: number,
): TransportError {
  const where = `${ctx.method} ${ctx.path}`;
  const { body } = errorBody(text);
  const fields = exchangeFields(body);
  const retryAfterMs = parseRetryAfter(headers['retry-after'], nowMs);
  const details: Record<string, unknown> = {
    method: ctx.method,
    path: ctx.path,
    status,
    body,
    ...fields,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  const summary = [fields.exchangeCode === undefined ? undefined : `code ${String(fields.exchangeCode)}`, fields.exchangeMessage]
    .filter((s) => s !== undefined)
    .join(' ');
  const suffix = `${summary.length > 0 ? ` (${summary})` : ''}${fields.exchangeDetails !== undefined ? `: ${fields.exchangeDetails}` : ''}`;

  if (status === 401) {
    return new TransportError(
      TransportErrorCode.Unauthorized,
      `${where}: HTTP 401, the access token is missing, invalid or expired${suffix}`,
      { details },
    );
  }
  if (status === 403) {
    return new TransportError(
      TransportErrorCode.Forbidden,
      `${where}: HTTP 403, a scope is missing or this address is not allowlisted${suffix}`,
      { details },
    );
  }
  if (status === 429) {
    const wait = retryAfterMs === undefined ? '' : `, retry after ${retryAfterMs} ms`;
    return new TransportError(TransportErrorCode.RateLimited, `${where}: HTTP 429, rate limited${wait}${suffix}`, { details });
  }
  if (status === 408) {
    return new TransportError(TransportErrorCode.Timeout, `${where}: HTTP 408, the server timed out the request`, { details });
  }
  if (status >= 500 && status <= 599) {
    return new TransportError(TransportErrorCode.ServerError, `${where}: HTTP ${status} from the server${suffix}`, { details });
  }
  if (status >= 400 && status <= 499) {
    return new TransportError(TransportErrorCode.Rejected, `${where} rejected with HTTP ${status}${suffix}`, { details });
  }
  return new TransportError(
    TransportErrorCode.BadResponse,
    `${where}: unexpected HTTP ${status} (redirects are not followed; check the base URL)`,
    { details },
  );
}
