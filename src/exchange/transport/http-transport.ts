/**
 * HttpTransport: JSON over HTTP/1.1 with an undici keep-alive Pool for one origin. It does one call at a time,
 * well: a deadline covering connect, headers and body (injected scheduler), failure and status mapping to
 * TransportErrors, a response size cap, and the private link (connect to `privateLinkUrl`, send the `Host` of
 * `baseUrl`, as the gateway spec requires; undici derives the TLS servername (SNI and certificate name check)
 * from that Host, so the gateway's certificate is verified against its real name). Retry and rate
 * limiting are wrappers (retry.ts, rate-limit.ts); NDJSON streams are built on `openStream` (ndjson-stream.ts).
 */
import { Pool } from 'undici';
import { asyncScheduler } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import { TransportError, TransportErrorCode } from './errors.ts';
import { errorForStatus, mapFailure } from './error-mapping.ts';
import type { CallContext, FailureState } from './error-mapping.ts';
import { parseJsonBody, readBodyText } from './body-reader.ts';
import type { ReadableBody } from './body-reader.ts';
import { buildRequestPath, flattenHeaders, mergeHeaders, pathForMessages } from './request-target.ts';
import { checkNumber } from './scheduling.ts';
import type { HttpRequest, HttpResponse, Transport } from './http-types.ts';
import { streamNdjson } from './ndjson-stream.ts';
import type { NdjsonStreamRequest, StreamOpener, StreamOpenRequest, StreamResponse } from './ndjson-stream.ts';

export interface HttpTransportOptions {
  /** `{base_url}` or `{gateway_url}`, e.g. `https://rest.dev.example`; may carry a path prefix. */
  baseUrl: string;
  /** `{private_link_url}`: when set, connections go here with `Host` = the host of `baseUrl`. Origin only. */
  privateLinkUrl?: string;
  /** Default per-call deadline (connect + headers + body), ms. Default 15 000 (the venue's recommendation). */
  timeoutMs?: number;
  /** TCP/TLS connect timeout, ms. Default 10 000. */
  connectTimeoutMs?: number;
  /** Max sockets to the origin. Default 16. */
  connections?: number;
  /** Idle keep-alive before a socket is closed when the server gives no hint, ms. Default 4 000 (undici's). */
  keepAliveTimeoutMs?: number;
  /** Largest unary response body, bytes. Default 32 MiB. */
  maxResponseBytes?: number;
  /** Headers sent on every call (e.g. user-agent). Per-call headers override them. */
  defaultHeaders?: Readonly<Record<string, string>>;
  /** Extra trusted CA certificates (PEM) for HTTPS, e.g. a private network's CA. Default: Node's bundle. */
  ca?: string | readonly string[];
  /** Clock and timer for deadlines. Default asyncScheduler. */
  scheduler?: SchedulerLike;
}

const DEFAULT_TIMEOUT_MS = 15_000;

interface ParsedUrls {
  connectOrigin: string;
  basePath: string;
  hostHeader: string | undefined;
}

function parseUrls(options: HttpTransportOptions): ParsedUrls {
  const problems: string[] = [];
  const parse = (name: string, value: string): URL | undefined => {
    try {
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`${name} must be http(s) (got ${url.protocol})`);
      if (url.search !== '' || url.hash !== '') problems.push(`${name} must not have a query or fragment`);
      if (url.username !== '' || url.password !== '') problems.push(`${name} must not carry credentials`);
      return url;
    } catch {
      problems.push(`${name} is not a valid URL`);
      return undefined;
    }
  };
  const base = parse('baseUrl', options.baseUrl);
  const link = options.privateLinkUrl === undefined ? undefined : parse('privateLinkUrl', options.privateLinkUrl);
  if (link !== undefined && link.pathname !== '/') {
    problems.push('privateLinkUrl must be an origin only (the path prefix comes from baseUrl)');
  }
  for (const p of [
    checkNumber('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, { min: 1 }),
    checkNumber('connectTimeoutMs', options.connectTimeoutMs ?? 10_000, { min: 1 }),
    checkNumber('connections', options.connections ?? 16, { min: 1, integer: true }),
    checkNumber('keepAliveTimeoutMs', options.keepAliveTimeoutMs ?? 4_000, { min: 1 }),
    checkNumber('maxResponseBytes', options.maxResponseBytes ?? 1, { min: 1, integer: true }),
  ]) {
    if (p !== undefined) problems.push(p);
  }
  if (problems.length > 0 || base === undefined) {
    throw new TransportError(TransportErrorCode.InvalidOptions, `HttpTransport options: ${problems.join('; ')}`);
  }
  return {
    connectOrigin: (link ?? base).origin,
    basePath: base.pathname.replace(/\/+$/, ''),
    hostHeader: link === undefined ? undefined : base.host,
  };
}

export class HttpTransport implements Transport, StreamOpener {
  /** The origin sockets connect to (the private link when set). */
  readonly connectOrigin: string;
  /** The Host header sent over the private link; undefined when connecting directly. */
  readonly hostHeader: string | undefined;
  private readonly basePath: string;
  private readonly pool: Pool;
  private readonly scheduler: SchedulerLike;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly defaultHeaders: Readonly<Record<string, string>>;
  private closed = false;

  constructor(options: HttpTransportOptions) {
    const urls = parseUrls(options);
    this.connectOrigin = urls.connectOrigin;
    this.hostHeader = urls.hostHeader;
    this.basePath = urls.basePath;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? 32 * 1024 * 1024;
    this.defaultHeaders = { 'user-agent': 'tradebot', ...options.defaultHeaders };
    this.pool = new Pool(this.connectOrigin, {
      connections: options.connections ?? 16,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
      connect: {
        timeout: options.connectTimeoutMs ?? 10_000,
        ...(options.ca === undefined ? {} : { ca: typeof options.ca === 'string' ? options.ca : [...options.ca] }),
      },
    });
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const ctx = this.context(req.method, req.path);
    const call = this.startCall(timeoutMs, req.signal);
    try {
      const res = await this.pool.request({
        method: req.method,
        path: buildRequestPath(this.basePath, req.path, req.query),
        headers: this.headers(req.headers, req.body !== undefined, 'application/json'),
        body: serialise(req.body, ctx),
        signal: call.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const headers = flattenHeaders(res.headers);
      const text = await readBodyText(res.body, this.maxResponseBytes, ctx);
      if (res.statusCode < 200 || res.statusCode > 299) {
        throw errorForStatus(res.statusCode, headers, text, ctx, this.scheduler.now());
      }
      return { status: res.statusCode, headers, body: parseJsonBody(text, res.statusCode, ctx) };
    } catch (error) {
      throw mapFailure(error, ctx, call.state);
    } finally {
      call.finish();
    }
  }

  /**
   * Starts a streaming call: resolves once a 2xx status and headers arrived (within the deadline) with the
   * body left to the caller; non-2xx statuses reject with the mapped error. The body has no idle timeout:
   * stream silence is the resilient stream's watchdog's job. Abort `signal` to end the call.
   */
  async openStream(req: StreamOpenRequest): Promise<StreamResponse> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const ctx = this.context(req.method, req.path);
    const call = this.startCall(timeoutMs, req.signal);
    try {
      const res = await this.pool.request({
        method: req.method,
        path: buildRequestPath(this.basePath, req.path, req.query),
        headers: this.headers(req.headers, req.body !== undefined, 'application/x-ndjson, application/json'),
        body: serialise(req.body, ctx),
        signal: call.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: 0,
      });
      const headers = flattenHeaders(res.headers);
      if (res.statusCode < 200 || res.statusCode > 299) {
        const text = await readBodyText(res.body, 64 * 1024, ctx);
        throw errorForStatus(res.statusCode, headers, text, ctx, this.scheduler.now());
      }
      call.stopDeadline();
      const body: ReadableBody = res.body;
      return { status: res.statusCode, headers, body, context: ctx };
    } catch (error) {
      call.finish();
      throw mapFailure(error, ctx, call.state);
    }
  }

  /** POSTs (by default) and emits each NDJSON line as parsed JSON; see ndjson-stream.ts. */
  streamNdjson(req: NdjsonStreamRequest): Observable<unknown> {
    return streamNdjson(this, req);
  }

  /** Closes every socket: in-flight calls and open streams fail with TRANSPORT_CLOSED. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.destroy();
  }

  private context(method: string, path: string): CallContext {
    return { method, path: pathForMessages(path), origin: this.connectOrigin };
  }

  private headers(extra: Readonly<Record<string, string>> | undefined, hasBody: boolean, accept: string): Record<string, string> {
    const headers = mergeHeaders({ accept }, this.defaultHeaders, extra);
    if (hasBody) headers['content-type'] = 'application/json';
    delete headers['host'];
    if (this.hostHeader !== undefined) headers['host'] = this.hostHeader;
    return headers;
  }

  /** Links the caller's signal and the deadline into one AbortSignal for undici. */
  private startCall(
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
  ): {
    signal: AbortSignal;
    state: FailureState;
    stopDeadline: () => void;
    finish: () => void;
  } {
    const state: FailureState = { timedOut: false, timeoutMs, callerSignal };
    const controller = new AbortController();
    if (this.closed) {
      controller.abort(new TransportError(TransportErrorCode.Closed, 'the transport is closed'));
    }
    const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted === true) onCallerAbort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = this.scheduler.schedule(() => {
      state.timedOut = true;
      controller.abort(new TransportError(TransportErrorCode.Timeout, `timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    return {
      signal: controller.signal,
      state,
      stopDeadline: () => timer.unsubscribe(),
      finish: () => {
        timer.unsubscribe();
        callerSignal?.removeEventListener('abort', onCallerAbort);
      },
    };
  }
}

function serialise(body: unknown, ctx: CallContext): string | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.stringify(body);
  } catch (cause) {
    // The body is never quoted: it may hold a password.
    throw new TransportError(TransportErrorCode.InvalidRequest, `${ctx.method} ${ctx.path}: request body is not JSON-serialisable`, {
      cause: cause instanceof Error ? cause.name : undefined,
    });
  }
}
