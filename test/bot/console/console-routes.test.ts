/**
 * The web console's routes on the control server, without a browser: the token is required for every page
 * and API (a wrong one and none answer 401), `/?token=` sets an HttpOnly SameSite=Strict cookie and
 * redirects to `/`, the cookie then opens the page, its script, the charts library, the state and the event
 * stream; commands need JSON from the same origin, change the trading state and are counted as operator
 * commands; the control API beside it still works, and a non-loopback Host is refused for everything.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleRoutes, newConsoleToken, CONSOLE_COOKIE } from '../../../src/bot/console/console-routes.ts';
import type { ConsoleSnapshot } from '../../../src/bot/console/console-feed.ts';
import { startControlServer, type ControlServer, type ControlTarget } from '../../../src/bot/live/control-server.ts';
import type { TradingState } from '../../../src/engine/risk/trading-states.ts';

const TOKEN = newConsoleToken();

function target(): ControlTarget & { cancelled: number } {
  let state: TradingState = 'active';
  let reason = 'start';
  return {
    get state() {
      return state;
    },
    cause: 'operator',
    get reason() {
      return reason;
    },
    setState(next, why) {
      state = next;
      reason = why;
    },
    cancelled: 0,
  };
}

const SNAPSHOT = { time: 1, strategy: 'market-maker', symbols: ['A'] } as unknown as ConsoleSnapshot;

let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start() {
  const t = target();
  server = await startControlServer({
    port: 0,
    target: () => t,
    console: consoleRoutes({
      token: TOKEN,
      snapshot: () => SNAPSHOT,
      target: () => t,
      cancelAll: async () => void (t.cancelled += 1),
    }),
  });
  const base = server.url.replace('/control/state', '');
  return { t, base };
}

const cookie = `${CONSOLE_COOKIE}=${encodeURIComponent(TOKEN)}`;

describe('console routes', () => {
  it('answer 401 without the token, or with a wrong one, on every page and API', async () => {
    const { base } = await start();
    for (const path of ['/', '/console/app.js', '/console/charts.js', '/console/api/state', '/console/events']) {
      const none = await fetch(`${base}${path}`);
      expect([path, none.status]).toEqual([path, 401]);
      const wrong = await fetch(`${base}${path}`, { headers: { cookie: `${CONSOLE_COOKIE}=${'x'.repeat(TOKEN.length)}` } });
      expect([path, wrong.status]).toEqual([path, 401]);
    }
    const post = await fetch(`${base}/console/api/trading-state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"state":"halted"}',
    });
    expect(post.status).toBe(401);
    expect((await fetch(`${base}/?token=wrong`, { redirect: 'manual' })).status).toBe(401);
  });

  it('take the token once in the URL, then from an HttpOnly cookie', async () => {
    const { base } = await start();
    const first = await fetch(`${base}/?token=${encodeURIComponent(TOKEN)}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    expect(first.headers.get('set-cookie')).toBe(`${cookie}; HttpOnly; SameSite=Strict; Path=/`);
    const page = await fetch(`${base}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script src="/console/app.js"></script>');
    expect((await fetch(`${base}/console/app.js`, { headers: { cookie } })).status).toBe(200);
    expect(await (await fetch(`${base}/console/charts.js`, { headers: { cookie } })).text()).toContain('LightweightCharts');
    expect(await (await fetch(`${base}/console/api/state`, { headers: { cookie } })).json()).toEqual(SNAPSHOT);
  });

  it('stream snapshots as server-sent events', async () => {
    const { base } = await start();
    const first = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${base}/console/events`, { headers: { cookie } }, (response) => {
        expect(response.headers['content-type']).toBe('text/event-stream');
        response.setEncoding('utf8');
        response.once('data', (chunk: string) => {
          resolve(chunk);
          req.destroy();
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(first).toBe(`data: ${JSON.stringify(SNAPSHOT)}\n\n`);
  });

  it('apply commands sent as JSON from the same origin, and count them', async () => {
    const { t, base } = await start();
    const send = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers }, body });
    expect((await send('/console/api/trading-state', '{"state":"halted"}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await send('/console/api/trading-state', '{"state":"halted"}', { origin: 'http://evil.example' })).status).toBe(403);
    const bad = await send('/console/api/trading-state', '{"state":"stopped"}');
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([400, 'CONSOLE_BAD_REQUEST']);
    expect(t.state).toBe('active');
    const ok = await send('/console/api/trading-state', '{"state":"reducing","reason":"lunch"}', { origin: base });
    expect(await ok.json()).toMatchObject({ requested: 'reducing', previous: 'active', state: 'reducing' });
    expect(t.reason).toBe('operator (console): lunch');
    expect((await send('/console/api/cancel-all', '{}')).status).toBe(200);
    expect(t.cancelled).toBe(1);
    expect(server?.commands).toBe(2);
    // the control API beside the console
    expect(((await (await fetch(server?.url ?? '')).json()) as { state: string }).state).toBe('reducing');
  });

  it('refuse a Host header that is not loopback, console paths included', async () => {
    const { base } = await start();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/`, { headers: { host: 'evil.example', cookie } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});
