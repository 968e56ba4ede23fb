/**
 * The operator control endpoint over real loopback HTTP against a real TradingStateMachine: GET reads the
 * state, POST sets active / reducing / halted (halting asks for every order to be cancelled), bad input gets a
 * 400 that says what to send, and the endpoint refuses what a browser or another host could send (no JSON
 * content type, a foreign Host header) and any non-loopback binding.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { TradingStateMachine } from '../../../src/engine/risk/trading-state.ts';
import { CONTROL_PATH, parseCommand, startControlServer, type ControlServer } from '../../../src/bot/live/control-server.ts';

const clock = { now: () => 1_700_000_000_000 };

let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One HTTP request with full control of the headers (fetch cannot set Host). */
function call(port: number, options: { method?: string; path?: string; body?: string; headers?: Record<string, string> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? CONTROL_PATH, headers: options.headers ?? {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const post = (port: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call(port, { method: 'POST', body, headers });

async function start(machine = new TradingStateMachine(clock)): Promise<{ machine: TradingStateMachine; port: number }> {
  server = await startControlServer({ port: 0, target: () => machine });
  return { machine, port: server.port };
}

describe('operator control endpoint', () => {
  it("with ?strategy=<id> reads and sets that strategy's own state only; an unknown id is a 404", async () => {
    const bot = new TradingStateMachine(clock);
    const mm = new TradingStateMachine(clock);
    server = await startControlServer({
      port: 0,
      target: (strategy) => (strategy === undefined ? bot : strategy === 'mm' ? mm : undefined),
    });
    const port = server.port;
    const path = `${CONTROL_PATH}?strategy=mm`;
    const halted = await call(port, { method: 'POST', path, body: '{"state":"halted"}', headers: { 'content-type': 'application/json' } });
    expect(halted.status).toBe(200);
    expect(halted.body).toMatchObject({ strategy: 'mm', previous: 'active', state: 'halted' });
    expect(mm.state).toBe('halted');
    expect(bot.state).toBe('active');
    expect((await call(port, { path })).body).toMatchObject({ strategy: 'mm', state: 'halted' });
    const unknown = await call(port, { path: `${CONTROL_PATH}?strategy=nope` });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'CONTROL_UNKNOWN_STRATEGY' } });
  });

  it('reads the state and sets reducing, halted and active again, counting the commands', async () => {
    const { machine, port } = await start();
    const cancels: string[] = [];
    machine.cancelAllRequired$.subscribe((c) => cancels.push(c.reason));
    expect(server?.url).toBe(`http://127.0.0.1:${port}/control/state`);
    expect(await call(port, {})).toEqual({ status: 200, body: { state: 'active', cause: 'operator', reason: 'start' } });

    const reducing = await post(port, JSON.stringify({ state: 'reducing', reason: 'news at 14:00' }));
    expect(reducing).toEqual({
      status: 200,
      body: {
        requested: 'reducing',
        previous: 'active',
        state: 'reducing',
        cause: 'operator',
        reason: 'operator (HTTP control): news at 14:00',
      },
    });
    expect(machine.state).toBe('reducing');

    expect((await post(port, '{"state":"halted"}')).body).toMatchObject({ state: 'halted', previous: 'reducing' });
    expect(cancels).toEqual(['operator (HTTP control)']);
    expect((await post(port, '{"state":"active"}')).body).toMatchObject({ state: 'active' });
    expect(server?.commands).toBe(3);
  });

  it('answers with the resulting state when another hold keeps trading restricted', async () => {
    const { machine, port } = await start();
    machine.feedStale('all');
    expect((await post(port, '{"state":"active"}')).body).toMatchObject({ requested: 'active', state: 'reducing', cause: 'feed' });
  });

  it('refuses bad commands with a 400 that says what to send, leaving the state alone', async () => {
    const { machine, port } = await start();
    const cases: [string, RegExp][] = [
      ['not json', /the body is not JSON: send \{"state": "active" \| "reducing" \| "halted"/],
      ['["halted"]', /expected a JSON object/],
      ['{"state":"paused"}', /state "paused": the state must be one of active, reducing, halted/],
      ['{}', /no state: the state must be one of active, reducing, halted/],
      ['{"state":"halted","force":true}', /unknown field "force"/],
      ['{"state":"halted","reason":42}', /reason must be a string of at most 200 characters/],
    ];
    for (const [body, message] of cases) {
      const answer = await post(port, body);
      expect(answer.status, body).toBe(400);
      expect(answer.body, body).toEqual({
        error: { code: 'CONTROL_BAD_REQUEST', message: expect.stringMatching(message) as unknown as string },
      });
    }
    expect(machine.state).toBe('active');
    expect(server?.commands).toBe(0);
  });

  it('refuses what a web page could send: no JSON content type (415), a foreign Host header (403); other methods and paths', async () => {
    const { machine, port } = await start();
    expect((await post(port, '{"state":"halted"}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(port, '{"state":"halted"}', { 'content-type': 'application/json', host: 'evil.example:80' })).body).toMatchObject({
      error: { code: 'CONTROL_FORBIDDEN_HOST' },
    });
    expect((await call(port, { method: 'GET', headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect((await call(port, { method: 'DELETE' })).status).toBe(405);
    expect((await call(port, { path: '/control' })).status).toBe(404);
    expect((await post(port, JSON.stringify({ state: 'halted', reason: 'x'.repeat(5000) }))).status).toBe(413);
    expect(machine.state).toBe('active');
  });

  it('answers 503 while the bot is still starting', async () => {
    server = await startControlServer({ port: 0, target: () => undefined });
    expect(await call(server.port, {})).toMatchObject({ status: 503, body: { error: { code: 'CONTROL_STARTING' } } });
  });

  it('refuses to bind anywhere but loopback', async () => {
    await expect(startControlServer({ port: 0, host: '0.0.0.0', target: () => undefined })).rejects.toMatchObject({
      code: 'CONTROL_NOT_LOOPBACK',
      message: expect.stringMatching(/loopback only/) as unknown as string,
    });
  });

  it('names a port that is taken', async () => {
    const { port } = await start();
    await expect(startControlServer({ port, target: () => undefined })).rejects.toMatchObject({
      code: 'CONTROL_LISTEN_FAILED',
      message: expect.stringMatching(/change bot.control.port/) as unknown as string,
    });
  });

  it('parseCommand accepts each state with or without a reason', () => {
    expect(parseCommand('{"state":"reducing"}')).toEqual({ ok: true, state: 'reducing', reason: undefined });
    expect(parseCommand('{"state":"halted","reason":"manual"}')).toEqual({ ok: true, state: 'halted', reason: 'manual' });
  });
});
