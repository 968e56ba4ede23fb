/**
 * Runs a Router on node:http, bound to 127.0.0.1. Every failure becomes an error reply in the family's
 * shape (via `renderError`); a handler bug answers 500 and the server keeps serving. NDJSON streams are
 * written line by line and closed when the client leaves; `close()` ends open streams and connections.
 * A request Node's HTTP parser refuses (headers or URL over its 16 KiB limit, a malformed request line) is
 * also answered in the family's shape, as 400 INVALID_ARGUMENT, instead of Node's body-less default.
 * Optional fault hooks (src/sim/faults) may fail a request before its handler, hold back or cut off a JSON
 * reply after it, and wrap stream sinks; without them every request takes the normal path.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { SimHttpError } from './errors.ts';
import { readJsonBody } from './json-body.ts';
import type { JsonReply, NdjsonReply, NdjsonSink, RequestContext, Router } from './router.ts';

export interface HttpServerOptions {
  router: Router;
  port: number;
  host?: string;
  logger: Logger;
  /** Turns an error into the family's reply (status, body). */
  renderError(error: SimHttpError): JsonReply;
  /** Runs before routing (auth, rate limits, fault injection); may throw SimHttpError. */
  before?(context: RequestContext): void | Promise<void>;
  tls?: https.ServerOptions;
  /** Fault injection; absent: the normal path. */
  faults?: HttpFaultHooks;
  /**
   * Bytes an NDJSON stream may have waiting for its client (Node's `writableLength`) before it is cut as a slow
   * consumer: a RESOURCE_EXHAUSTED error line ends it, and the connection is destroyed if the client has not
   * read it all `SLOW_CONSUMER_GRACE_MS` later. Default 8 MiB.
   */
  maxStreamBufferBytes?: number;
}

/** How long a slow consumer's connection may stay open after its stream was cut, to read the error line. */
export const SLOW_CONSUMER_GRACE_MS = 5_000;

/** How a processed request's JSON reply is mis-delivered. */
export interface ReplyFault {
  /** Hold the reply this long before writing it. */
  delayMs?: number;
  /** Write the headers and half of the body, then destroy the connection. */
  reset?: boolean;
}

export interface HttpFaultHooks {
  /** After `before`, ahead of the handler: may throw a SimHttpError instead of processing the request. */
  before(context: RequestContext): void;
  /** After the handler produced a JSON reply: undefined writes it normally. */
  reply(context: RequestContext): ReplyFault | undefined;
  /** Wraps a stream's sink before the handler writes to it. */
  stream(context: RequestContext, sink: NdjsonSink): NdjsonSink;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const sinks = new Set<NdjsonSink>();
  const listener = (request: http.IncomingMessage, response: http.ServerResponse) => {
    handle(request, response, options, sinks).catch((error: unknown) => {
      options.logger.error({ err: error }, 'sim http handler crashed');
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  };
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener);
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const scheme = options.tls ? 'https' : 'http';
  return {
    url: `${scheme}://${host}:${port}`,
    port,
    close: async () => {
      for (const sink of sinks) sink.end();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse, options: HttpServerOptions, sinks: Set<NdjsonSink>) {
  let url: URL;
  try {
    url = new URL(request.url ?? '/', 'http://sim.invalid');
  } catch {
    return writeJson(response, options.renderError(new SimHttpError('INVALID_ARGUMENT', 'malformed request URL')));
  }
  let bodyPromise: Promise<Record<string, unknown>> | undefined;
  const context: RequestContext = {
    method: request.method ?? 'GET',
    path: url.pathname,
    params: {},
    query: url.searchParams,
    headers: request.headers,
    remoteAddress: request.socket.remoteAddress ?? '',
    body: () => (bodyPromise ??= readJsonBody(request)),
    raw: request,
  };
  try {
    const { handler, params } = options.router.match(context.method, context.path);
    context.params = params;
    if (options.before) await options.before(context);
    options.faults?.before(context);
    const reply = await handler(context);
    if (reply.kind === 'ndjson') return startStream(request, response, reply, sinks, options, context);
    const fault = options.faults?.reply(context);
    if (fault !== undefined) return writeFaulty(response, reply, fault);
    return writeJson(response, reply);
  } catch (error) {
    if (error instanceof SimHttpError) return writeJson(response, options.renderError(error));
    options.logger.error({ err: error, path: context.path }, 'sim handler failed');
    return writeJson(response, options.renderError(new SimHttpError('INTERNAL', 'internal error in the simulator')));
  }
}

/** Node's parser refused the request before any handler ran: answer 400 in the family's shape, then close. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, options: HttpServerOptions): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const reason =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'the request line and headers are larger than 16 KiB; shorten the URL or headers'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'the request was not received completely in time'
        : 'malformed HTTP request';
  const refusal = new SimHttpError('INVALID_ARGUMENT', reason);
  const reply = options.renderError(refusal);
  const text = JSON.stringify(reply.body ?? {});
  const status = reply.status ?? 400;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Bad Request'}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

function writeJson(response: http.ServerResponse, reply: JsonReply): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(reply.body ?? {});
  response.writeHead(reply.status ?? 200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...reply.headers,
  });
  response.end(text);
}

/** A JSON reply delayed and/or cut off in the middle of its body (fault injection). */
function writeFaulty(response: http.ServerResponse, reply: JsonReply, fault: ReplyFault): void {
  const send = () => {
    if (fault.reset !== true) return writeJson(response, reply);
    if (response.headersSent || response.destroyed) return;
    const text = JSON.stringify(reply.body ?? {});
    response.writeHead(reply.status ?? 200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...reply.headers,
    });
    response.write(text.slice(0, Math.floor(text.length / 2)), () => response.destroy());
  };
  if (fault.delayMs === undefined || fault.delayMs <= 0) return send();
  const timer = setTimeout(send, fault.delayMs);
  timer.unref();
  response.once('close', () => clearTimeout(timer));
}

function startStream(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  reply: NdjsonReply,
  sinks: Set<NdjsonSink>,
  options: HttpServerOptions,
  context: RequestContext,
): void {
  response.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
  response.flushHeaders();
  const maxBuffered = options.maxStreamBufferBytes ?? 8 * 1024 * 1024;
  const cutSlowConsumer = () => {
    const waiting = response.writableLength;
    options.logger.warn({ path: context.path, waitingBytes: waiting }, 'NDJSON stream cut: the client does not read (slow consumer)');
    sink.end(new SimHttpError('RESOURCE_EXHAUSTED', `slow consumer: ${waiting} bytes waiting; reconnect and resnapshot`));
    // what is buffered stays readable for a while; a client that still does not read loses the connection
    const timer = setTimeout(() => response.destroy(), SLOW_CONSUMER_GRACE_MS);
    timer.unref();
    response.once('close', () => clearTimeout(timer));
  };
  const listeners: (() => void)[] = [];
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    sinks.delete(sink);
    for (const listener of listeners.splice(0)) {
      try {
        listener();
      } catch (error) {
        options.logger.error({ err: error }, 'stream close listener failed');
      }
    }
  };
  const sink: NdjsonSink = {
    get closed() {
      return closed;
    },
    send(message) {
      if (closed) return;
      if (response.writableLength >= maxBuffered) return cutSlowConsumer();
      response.write(`${JSON.stringify(message)}\n`);
    },
    end(error) {
      if (closed) return;
      if (error !== undefined) {
        const rendered = error instanceof SimHttpError ? streamErrorBody(options.renderError(error).body) : error;
        response.end(JSON.stringify({ error: rendered }));
      } else response.end();
      finish();
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
  sinks.add(sink);
  request.on('close', finish);
  response.on('close', finish);
  try {
    reply.start(options.faults === undefined ? sink : options.faults.stream(context, sink));
  } catch (error) {
    options.logger.error({ err: error }, 'stream start failed');
    sink.end(new SimHttpError('INTERNAL', 'stream failed to start'));
  }
}

/**
 * A stream line's `error` has `details` as an array of `@type`d objects (the contract's stream error), where
 * a gateway HTTP error body has a string: the string goes into a google.rpc.DebugInfo detail.
 */
function streamErrorBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || typeof (body as { details?: unknown }).details !== 'string') return body;
  const { details, ...rest } = body as { details: string };
  return { ...rest, details: [{ '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail: details }] };
}
