/**
 * NDJSON server streams as cold Observables (the gateway's `create_*_subscription` calls, grpc-gateway style).
 * Each subscription makes one HTTP call and emits every line as parsed JSON, unvalidated (callers validate
 * `result`), as soon as it arrives. Unsubscribing aborts the HTTP call, so no socket is left behind.
 *
 * Decisions:
 * - A line `{"error": {code, message, details}}` errors the stream with STREAM_ERROR; its kind follows the
 *   gRPC status code (16 -> authentication, 7 -> permission, 14 -> connectivity, ...).
 * - A line that is not JSON errors the stream with STREAM_BAD_LINE (kind connectivity, details.line = its
 *   line number, content truncated) instead of being skipped: a resilient wrapper then reconnects and the
 *   consumer resnapshots, so no update is silently lost. Lines before it have already been emitted.
 * - A clean end of the body completes the Observable; whether that is expected is the caller's call.
 */
import { Observable } from 'rxjs';
import { TransportError, TransportErrorCode, truncate } from './errors.ts';
import { mapFailure } from './error-mapping.ts';
import type { CallContext } from './error-mapping.ts';
import type { ReadableBody } from './body-reader.ts';
import { kindOfGrpcStatus } from './grpc-status.ts';
import type { QueryValue } from './http-types.ts';
import { NdjsonSplitter } from './ndjson-splitter.ts';
import type { NdjsonLine } from './ndjson-splitter.ts';

export interface StreamOpenRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** Deadline for the status and headers only; the body may last forever. */
  timeoutMs?: number;
  signal: AbortSignal;
}

export interface StreamResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: ReadableBody;
  /** Method, path and origin, for error messages. */
  context: CallContext;
}

/** Opens a streaming HTTP call (HttpTransport implements it; tests may fake it). */
export interface StreamOpener {
  openStream(request: StreamOpenRequest): Promise<StreamResponse>;
}

export interface NdjsonStreamRequest {
  path: string;
  /** JSON request body (never logged, never in errors). */
  body?: unknown;
  /** e.g. Authorization (never logged, never in errors). */
  headers?: Readonly<Record<string, string>>;
  /** Default POST, as the gateway's subscription calls are. */
  method?: 'GET' | 'POST';
  query?: Readonly<Record<string, QueryValue>>;
  /** Deadline for status + headers, ms (default: the transport's). */
  timeoutMs?: number;
  /** Longest accepted line, in characters. Default 16 Mi. */
  maxLineLength?: number;
}

const DEFAULT_MAX_LINE = 16 * 1024 * 1024;

/** Emits each NDJSON line of the response as parsed JSON; see the module header for errors and completion. */
export function streamNdjson(opener: StreamOpener, request: NdjsonStreamRequest): Observable<unknown> {
  const maxLine = request.maxLineLength ?? DEFAULT_MAX_LINE;
  return new Observable<unknown>((subscriber) => {
    const controller = new AbortController();

    /** Emits the lines in order; returns false once the stream has ended (error line, bad line, unsubscribed). */
    const emit = (lines: readonly NdjsonLine[], ctx: CallContext): boolean => {
      for (const line of lines) {
        if (subscriber.closed) return false;
        const outcome = interpretLine(line, ctx);
        if (outcome.error !== undefined) {
          subscriber.error(outcome.error);
          return false;
        }
        subscriber.next(outcome.value);
      }
      return !subscriber.closed;
    };

    const run = async (): Promise<void> => {
      const res = await opener.openStream({
        method: request.method ?? 'POST',
        path: request.path,
        query: request.query,
        body: request.body,
        headers: request.headers,
        timeoutMs: request.timeoutMs,
        signal: controller.signal,
      });
      const splitter = new NdjsonSplitter();
      try {
        for await (const chunk of res.body) {
          if (!emit(splitter.push(chunk), res.context)) return; // leaving the loop destroys the body
          if (splitter.pendingLength > maxLine) {
            subscriber.error(lineTooLong(res.context, maxLine));
            return;
          }
        }
      } catch (error) {
        throw mapFailure(error, res.context, { timedOut: false, timeoutMs: 0, callerSignal: undefined });
      }
      if (emit(splitter.end(), res.context)) subscriber.complete();
    };

    run().catch((error: unknown) => {
      if (!subscriber.closed) subscriber.error(error);
    });
    return () => controller.abort();
  });
}

type LineOutcome = { value: unknown; error?: undefined } | { value?: undefined; error: TransportError };

function interpretLine(line: NdjsonLine, ctx: CallContext): LineOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.text);
  } catch (cause) {
    const content = truncate(line.text, 200);
    return {
      error: new TransportError(
        TransportErrorCode.StreamBadLine,
        `${ctx.method} ${ctx.path}: stream line ${line.lineNumber} is not JSON: ${content}`,
        { cause, details: { method: ctx.method, path: ctx.path, line: line.lineNumber, content } },
      ),
    };
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const error = (parsed as Record<string, unknown>)['error'];
    if (error !== undefined && error !== null) return { error: streamErrorFromLine(error, line.lineNumber, ctx) };
  }
  return { value: parsed };
}

function streamErrorFromLine(error: unknown, lineNumber: number, ctx: CallContext): TransportError {
  const e = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : { message: error };
  const code = e['code'];
  const message = typeof e['message'] === 'string' ? truncate(e['message'], 300) : undefined;
  const rawDetails = e['details'];
  const detailsJson = JSON.stringify(rawDetails ?? null);
  const summary = [code === undefined ? undefined : `code ${String(code)}`, message].filter((s) => s !== undefined).join(': ');
  return new TransportError(
    TransportErrorCode.StreamError,
    `${ctx.method} ${ctx.path}: the stream reported an error (${summary.length > 0 ? summary : 'no code or message'})`,
    {
      kind: kindOfGrpcStatus(code),
      details: {
        method: ctx.method,
        path: ctx.path,
        line: lineNumber,
        grpcCode: code,
        grpcMessage: message,
        errorDetails: detailsJson.length <= 2048 ? rawDetails : truncate(detailsJson, 2048),
      },
    },
  );
}

function lineTooLong(ctx: CallContext, maxLine: number): TransportError {
  return new TransportError(
    TransportErrorCode.StreamBadLine,
    `${ctx.method} ${ctx.path}: a stream line exceeds ${maxLine} characters (raise maxLineLength if this is expected)`,
    { details: { method: ctx.method, path: ctx.path, maxLineLength: maxLine } },
  );
}
