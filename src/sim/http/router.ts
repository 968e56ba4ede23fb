/**
 * A small method + path router for the simulator's HTTP servers. Routes are literal paths with `:name`
 * segments (`/v1/orderbook/:symbol`); a handler gets a RequestContext and returns a JSON reply or an
 * NDJSON stream. Unknown paths are NOT_FOUND, a known path with the wrong method is UNIMPLEMENTED.
 */
import type { IncomingMessage } from 'node:http';
import { SimHttpError } from './errors.ts';

export interface RequestContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  remoteAddress: string;
  /** The JSON (or form) body, read and parsed on first call. */
  body(): Promise<Record<string, unknown>>;
  raw: IncomingMessage;
}

export interface JsonReply {
  kind?: 'json';
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A server stream: `start` writes messages until the client leaves or `end` is called. */
export interface NdjsonReply {
  kind: 'ndjson';
  start(sink: NdjsonSink): void;
}

export interface NdjsonSink {
  /**
   * Writes one line. A client that does not read cannot make the server buffer without bound: once the
   * server's limit of bytes waits behind the connection, the stream ends with a RESOURCE_EXHAUSTED error line.
   */
  send(message: unknown): void;
  /** Ends the stream; with an error, the last line is `{"error": ...}`. */
  end(error?: unknown): void;
  /** Called once when the stream ends, by either side. */
  onClose(listener: () => void): void;
  readonly closed: boolean;
}

export type Reply = JsonReply | NdjsonReply;
export type Handler = (context: RequestContext) => Reply | Promise<Reply>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, path: string, handler: Handler): this {
    this.routes.push({ method: method.toUpperCase(), segments: split(path), handler });
    return this;
  }

  post(path: string, handler: Handler): this {
    return this.add('POST', path, handler);
  }

  get(path: string, handler: Handler): this {
    return this.add('GET', path, handler);
  }

  /** Finds the handler for a request, or throws NOT_FOUND / UNIMPLEMENTED. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } {
    const segments = split(path);
    let pathMatched = false;
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (params === undefined) continue;
      pathMatched = true;
      if (route.method === method.toUpperCase()) return { handler: route.handler, params };
    }
    if (pathMatched) throw new SimHttpError('UNIMPLEMENTED', `method ${method} is not supported on ${path}`);
    throw new SimHttpError('NOT_FOUND', `no such endpoint: ${path}`);
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const value = actual[i] as string;
    if (expected.startsWith(':')) {
      try {
        params[expected.slice(1)] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    } else if (expected !== value) return undefined;
  }
  return params;
}
