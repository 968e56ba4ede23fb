/**
 * A raw HTTP/1.1 client for fuzzing the simulator's servers: any method Node's parser knows, any path of
 * the bytes a request line may hold, any header values and a raw byte body, sent with node:http so nothing
 * normalizes the request first. Every request has a deadline: a server that does not answer in time fails
 * the property as a hang. An NDJSON answer is read up to its first line (or its end) and then cut.
 */
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query, sent as is (bytes 0x21..0xff). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The whole body of a JSON reply; the first line (or all of a short body) of an NDJSON stream. */
  text: string;
  /** True when the reply was an NDJSON stream. */
  stream: boolean;
}

export class HangError extends Error {
  constructor(what: string, ms: number) {
    super(`no answer within ${ms} ms: ${what}`);
    this.name = 'HangError';
  }
}

const agent = new http.Agent({ keepAlive: false });

/** Sends one request to `base` (http://127.0.0.1:port); rejects with HangError after `timeoutMs`. */
export function rawRequest(base: string, request: RawRequest, timeoutMs = 5000): Promise<RawResponse> {
  const url = new URL(base);
  const what = `${request.method} ${request.path.slice(0, 120)}`;
  return new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(request.body.length);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      headers,
      agent,
      setHost: true,
    });
    const timer = setTimeout(() => {
      finish(() => reject(new HangError(what, timeoutMs)));
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => finish(() => reject(new Error(`${what}: the connection failed without an answer: ${error.message}`))));
    req.on('response', (res) => {
      const stream = String(res.headers['content-type'] ?? '').startsWith('application/x-ndjson');
      const chunks: Buffer[] = [];
      const done = () =>
        finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), stream }));
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (stream && chunk.includes(10)) {
          done();
          req.destroy();
        }
      });
      res.on('end', done);
      res.on('error', () => done());
      res.on('aborted', () => done());
    });
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

/** The first line of a stream reply. */
export function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline < 0 ? text : text.slice(0, newline);
}
