/**
 * The web console's routes on the control server, without a browser: the token is required for every page
 * and API (a wrong one and none answer 401), `/?token=` sets an HttpOnly SameSite=Strict cookie and
 * redirects to `/`, the cookie then opens the page, its script, the charts library, the state and the event
 * stream; commands need JSON from the same origin, change the trading state and are counted as operator
 * commands; the control API beside it still works, and a non-loopback Host is refused for everything.
 * With `?strategy=<id>` a command sets that strategy's own state (real TradingStateMachines) and nothing else,
 * with the same checks; an unknown id is a 404. A snapshot that fails its schema is never sent.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleRoutes, newConsoleToken, CONSOLE_COOKIE } from '../../../src/bot/console/console-routes.ts';
import type { ConsoleSnapshot } from '../../../src/bot/console/console-feed.ts';
import { consoleSnapshotSchema } from '../../../src/bot/console/console-schema.ts';
import { startControlServer, type ControlServer, type ControlTarget } from '../../../src/bot/live/control-server.ts';
import { TradingStateMachine } from '../../../src/engine/risk/trading-state.ts';
import type { TradingState } from '../../../src/engine/risk/trading-states.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { Writable } from 'node:stream';

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

/** A whole snapshot of the single form (no `strategies`), as the feed makes one. */
const SNAPSHOT: ConsoleSnapshot = {
  time: 1_795_000_000_000,
  strategy: 'market-maker',
  symbols: ['A'],
  tradingState: { state: 'active', cause: 'operator', reason: 'start' },
  pnl: { realized: '0.5', unrealized: '-0.25', fees: '0.01', net: '0.24', equity: '100000.24' },
  equity: [{ time: 1_795_000_000_000, net: '0.24' }],
  positions: [{ account: 'firms/demo/accounts/alice-main', symbol: 'A', qty: '-3', avgPx: '0.42' }],
  openOrders: [{ clordId: 'tb-1-1', symbol: 'A', side: 'BUY', price: '0.4', leavesQty: '5', state: 'NEW' }],
  fills: [{ time: 1_795_000_000_000, symbol: 'A', side: 'SELL', qty: '3', price: '0.42' }],
  refusals: { byCode: { RISK_MAX_POSITION: 2 }, latest: [{ time: 1_795_000_000_000, code: 'RISK_MAX_POSITION', message: 'too long' }] },
  streams: {
    market: { connected: true, lastMessageAgeMs: 120, reconnects: 0 },
    orders: { connected: true, lastMessageAgeMs: null, reconnects: 1 },
  },
  messages: { perSecond: 3, limit: 50, sent: 40 },
  counters: { orders: 40, fills: 1, refusals: 2 },
  books: [{ symbol: 'A', stale: false, bids: [{ price: '0.4', qty: '10', own: '5' }], offers: [], lastTrade: '0.42' }],
};

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

/** Log lines as parsed JSON objects. */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ level: 'info', pretty: false, destination }) };
}

const clock = { now: () => 1_795_000_000_000 };

/** The routes of a bot running two strategies, each with a real state machine of its own. */
async function startSeveral(snapshot: () => ConsoleSnapshot = () => SNAPSHOT) {
  const machines = { bot: new TradingStateMachine(clock), mm: new TradingStateMachine(clock), momo: new TradingStateMachine(clock) };
  const target = (strategy?: string) =>
    strategy === undefined ? machines.bot : strategy === 'mm' || strategy === 'momo' ? machines[strategy] : undefined;
  const { lines, log } = logLines();
  server = await startControlServer({
    port: 0,
    target,
    console: consoleRoutes({ token: TOKEN, snapshot, target, cancelAll: async () => undefined, log }),
  });
  const base = server.url.replace('/control/state', '');
  const send = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers }, body });
  return { machines, lines, base, send };
}

const states = (machines: Record<string, TradingStateMachine>) =>
  Object.fromEntries(Object.entries(machines).map(([k, m]) => [k, m.state]));

describe('console routes with several strategies', () => {
  it("set one strategy's own state with ?strategy=<id>, leaving the bot's and the others' alone, logged", async () => {
    const { machines, lines, base, send } = await startSeveral();
    const answer = await send('/console/api/trading-state?strategy=momo', '{"state":"halted","reason":"news"}', { origin: base });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      requested: 'halted',
      previous: 'active',
      state: 'halted',
      cause: 'operator',
      reason: 'operator (console): news',
      strategy: 'momo',
    });
    expect(states(machines)).toEqual({ bot: 'active', mm: 'active', momo: 'halted' });
    // the control API reads the same machine
    expect(await (await fetch(`${server?.url ?? ''}?strategy=momo`)).json()).toMatchObject({ state: 'halted', strategy: 'momo' });
    expect(server?.commands).toBe(1);
    expect(lines.find((line) => line['source'] === 'console')).toMatchObject({
      level: 'warn',
      requested: 'halted',
      from: 'active',
      to: 'halted',
      strategy: 'momo',
      msg: "operator console: halted requested; strategy momo's trading state now halted",
    });
    // the bot-level command still sets the bot's own state only
    expect((await send('/console/api/trading-state', '{"state":"reducing"}')).status).toBe(200);
    expect(states(machines)).toEqual({ bot: 'reducing', mm: 'active', momo: 'halted' });
  });

  it('answer 404 for a strategy the bot does not run, and keep the JSON, origin and body checks per strategy', async () => {
    const { machines, base, send } = await startSeveral();
    for (const query of ['?strategy=nope', '?strategy=']) {
      const unknown = await send(`/console/api/trading-state${query}`, '{"state":"halted"}');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({
        error: { code: 'CONSOLE_UNKNOWN_STRATEGY', message: `the bot runs no strategy "${query.slice(10)}" (bot.strategies ids)` },
      });
    }
    const path = '/console/api/trading-state?strategy=mm';
    expect((await send(path, '{"state":"halted"}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await send(path, '{"state":"halted"}', { origin: 'http://evil.example' })).status).toBe(403);
    const bad = await send(path, '{"state":"halted","force":true}', { origin: base });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'CONSOLE_BAD_REQUEST', message: expect.stringMatching(/unknown field "force"/) },
    });
    const noCookie = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"state":"halted"}',
    });
    expect(noCookie.status).toBe(401);
    expect(states(machines)).toEqual({ bot: 'active', mm: 'active', momo: 'active' });
    expect(server?.commands).toBe(0);
  });

  it('send the strategies part of a snapshot, and never a snapshot that fails its schema', async () => {
    const strategies: NonNullable<ConsoleSnapshot['strategies']> = [
      {
        id: 'mm',
        strategy: 'market-maker',
        symbols: ['A'],
        tradingState: { state: 'halted', cause: 'operator', reason: 'operator (console)' },
        orders: 12,
        fills: 3,
        refusals: 1,
        refusalsByCode: { RISK_SELF_MATCH: 1 },
        pnl: '-0.15604',
        positions: { A: '-2' },
      },
    ];
    let current: ConsoleSnapshot = { ...SNAPSHOT, strategies };
    const { lines, base } = await startSeveral(() => current);
    expect(await (await fetch(`${base}/console/api/state`, { headers: { cookie } })).json()).toEqual({ ...SNAPSHOT, strategies });
    current = { ...SNAPSHOT, strategies: [{ ...strategies[0]!, pnl: '-0.1e-3' }] };
    const invalid = await fetch(`${base}/console/api/state`, { headers: { cookie } });
    expect(invalid.status).toBe(500);
    expect(await invalid.json()).toMatchObject({ error: { code: 'CONSOLE_SNAPSHOT_INVALID' } });
    expect(lines.find((line) => line['level'] === 'error')).toMatchObject({
      msg: 'operator console: a snapshot failed its schema; not sent',
    });
    current = { ...SNAPSHOT, pnl: { ...SNAPSHOT.pnl, net: 0.24 as unknown as string } };
    expect((await fetch(`${base}/console/api/state`, { headers: { cookie } })).status).toBe(500);
  });

  it('take cancel-all with an empty JSON object only', async () => {
    const { send } = await startSeveral();
    const bad = await send('/console/api/cancel-all', '{"strategy":"mm"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'CONSOLE_BAD_REQUEST', message: 'cancel-all takes no field: send {}' } });
    expect((await send('/console/api/cancel-all', 'not json')).status).toBe(400);
    expect(server?.commands).toBe(0);
    expect((await send('/console/api/cancel-all', '{}')).status).toBe(200);
    expect(server?.commands).toBe(1);
  });

  it('the single form: its snapshot has no strategies part and passes the schema as it is', () => {
    expect('strategies' in SNAPSHOT).toBe(false);
    expect(consoleSnapshotSchema.parse(SNAPSHOT)).toEqual(SNAPSHOT);
  });
});
