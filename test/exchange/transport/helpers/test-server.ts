/**
 * Real node:http servers for transport tests, bound to 127.0.0.1 on port 0 only. `servers()` gives a
 * per-test registry whose `closeAll()` (call it in afterEach) closes every server and its connections.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

export async function startServer(handler: http.RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A registry of servers started in one test. */
export function servers(): { start(handler: http.RequestListener): Promise<TestServer>; closeAll(): Promise<void> } {
  const started: TestServer[] = [];
  return {
    async start(handler) {
      const s = await startServer(handler);
      started.push(s);
      return s;
    },
    async closeAll() {
      await Promise.all(started.splice(0).map((s) => s.close()));
    },
  };
}

/** A port that was just free (a server listened on it and closed): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const s = await startServer(() => undefined);
  await s.close();
  return s.port;
}

/** The request body as text. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Sends a JSON response. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A promise and its resolve function, for waiting on server-side events. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
