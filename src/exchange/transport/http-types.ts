/**
 * The transport contract shared by HttpTransport and its wrappers (retry, rate limit): a JSON request in,
 * a JSON response out. Wrappers take a Transport and return a Transport, so they compose like interceptors:
 * `withRetry(withRateLimit(new HttpTransport(...)))`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | undefined;

export interface HttpRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with `/` (e.g. `/api/v1beta1/insert_order`). Never an absolute URL. */
  path: string;
  /** Query parameters; `undefined` values are left out, arrays repeat the key. */
  query?: Readonly<Record<string, QueryValue>>;
  /** JSON-serialisable body. Never logged and never put in errors (it may hold passwords). */
  body?: unknown;
  /** Extra headers (e.g. Authorization). Never logged and never put in errors. */
  headers?: Readonly<Record<string, string>>;
  /** Deadline for the whole call (connect, headers and body); defaults to the transport's (15 s). */
  timeoutMs?: number;
  /**
   * True only when sending the request twice has the same effect as sending it once; the retry wrapper
   * repeats only idempotent calls. Reads, searches and lookups are idempotent. An order insert may be marked
   * idempotent only when every repetition carries the SAME clord_id (so the venue can recognise the repeat);
   * even then the caller must reconcile through the order stream, since the repeat may be rejected as a
   * duplicate while the first attempt succeeded. A cancel by order id is idempotent. When unsure: false.
   */
  idempotent: boolean;
  /** Cancels the call (including any wait in a retry or rate-limit queue): rejects with TRANSPORT_ABORTED. */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Response headers, names lower-cased, repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** Parsed JSON; `null` for an empty body. Unvalidated: callers validate it into a typed shape. */
  body: unknown;
}

/** A JSON request/response transport. */
export interface Transport {
  request(request: HttpRequest): Promise<HttpResponse>;
  /** Releases connections; pending calls fail with TRANSPORT_CLOSED or complete, never hang. */
  close(): Promise<void>;
}
