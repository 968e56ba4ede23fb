/**
 * The metrics endpoint: a node:http server on a loopback address that answers `GET /metrics` with the
 * Prometheus exposition text of one BotMetrics (HEAD too), 404 for other paths and 405 for other
 * methods. Loopback only by default: scrape it from the same host or through a sidecar / SSH tunnel; the
 * metrics carry no secrets, but PnL and positions are nobody else's business. As the control endpoint, it
 * answers only a Host header naming a loopback address (403 otherwise), so a web page that rebinds its DNS
 * name to 127.0.0.1 cannot read them (src/bot/loopback-host.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TradebotError, describeError } from '../../errors.ts';
import type { BotMetrics } from './bot-metrics.ts';
import { LOOPBACK_HOSTS, loopbackHostHeader } from '../loopback-host.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsServerOptions {
  readonly metrics: BotMetrics;
  /** 0 picks a free port. */
  readonly port: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
}

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464/metrics */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

function answer(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(body);
}

async function handle(metrics: BotMetrics, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  if (!loopbackHostHeader(request.headers.host))
    return answer(response, 403, `forbidden: the Host header must name a loopback address (${LOOPBACK_HOSTS.join(', ')})\n`);
  if (path !== METRICS_PATH) return answer(response, 404, `not found: metrics are at ${METRICS_PATH}\n`);
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return answer(response, 405, 'method not allowed: use GET\n', { allow: 'GET, HEAD' });
  try {
    const text = await metrics.text();
    response.writeHead(200, { 'content-type': metrics.contentType });
    response.end(request.method === 'HEAD' ? undefined : text);
  } catch (error) {
    answer(response, 500, `metrics collection failed: ${describeError(error)}\n`);
  }
}

/** Starts listening; rejects with METRICS_LISTEN_FAILED (e.g. the port is taken). */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((request, response) => void handle(options.metrics, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new TradebotError(
          'METRICS_LISTEN_FAILED',
          `metrics endpoint cannot listen on ${host}:${options.port} (${error.code ?? error.message}); change bot.metrics.port`,
          { kind: 'config', cause: error },
        ),
      ),
    );
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${METRICS_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
