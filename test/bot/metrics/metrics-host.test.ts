/**
 * The metrics endpoint answers only requests whose Host header names a loopback address, as the control
 * endpoint does (issue 21): a page in a browser on the operator's machine that rebinds its own DNS name to
 * 127.0.0.1 sends its own name as Host and is refused (403), so it cannot read PnL, positions or open orders.
 * Prometheus scraping 127.0.0.1 / localhost / [::1] is served as before.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { BotMetrics, METRICS_PATH, startMetricsServer, type MetricsServer } from '../../../src/bot/metrics/index.ts';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** GET /metrics with a chosen Host header (fetch cannot set Host). */
function get(port: number, host: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = host === undefined ? {} : { host };
    const request = http.request(
      { host: '127.0.0.1', port, method: 'GET', path: METRICS_PATH, headers, setHost: host === undefined ? false : true },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('metrics endpoint Host check', () => {
  it('refuses a foreign Host header with 403 and serves loopback names', async () => {
    server = await startMetricsServer({ metrics: new BotMetrics({ processMetrics: false }), port: 0 });
    const port = server.port;
    const foreign = await get(port, `rebind.attacker.example:${port}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain('tradebot_');
    // no Host at all: Node refuses it before the handler (400), never served
    expect((await get(port, undefined)).status).toBe(400);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, '127.0.0.1', `[::1]:${port}`]) {
      const served = await get(port, host);
      expect(served.status, host).toBe(200);
    }
  });
});
