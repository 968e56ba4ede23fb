/**
 * The web console of a bot running several strategies (#25): `tradebot run` of config/multi-strategy.yaml with
 * `bot.control: { port: 0, console: true }` against the embedded sim. Its feed (server-sent events, checked
 * against the snapshot schema) shows each strategy with its plugin, symbols, own trading state and its
 * figures; a halt sent through the console's command route with `?strategy=momo-fed` halts that strategy
 * alone (the bot and mm-rain trade on), as the control API, the feed, the log and run.summary then say; an
 * unknown id is a 404. Every wait is on a feed event or the run's end, never a fixed sleep.
 */
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logging/logger.ts';
import { consoleSnapshotSchema, type ConsoleSnapshot } from '../../../src/bot/console/console-schema.ts';
import { CONSOLE_COOKIE } from '../../../src/bot/console/console-routes.ts';
import { startConsoleRun } from './helpers/console-run.ts';

/** The first snapshot of the console's event stream that satisfies `test` (each one checked against the schema). */
function nextSnapshot(origin: string, cookie: string, test: (snapshot: ConsoleSnapshot) => boolean): Promise<ConsoleSnapshot> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/console/events`, { headers: { cookie } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`events answered ${response.statusCode ?? 0}`));
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!event.startsWith('data: ')) continue;
          const snapshot = consoleSnapshotSchema.parse(JSON.parse(event.slice('data: '.length)));
          if (test(snapshot)) {
            req.destroy();
            return resolve(snapshot);
          }
        }
      });
      response.on('end', () => reject(new Error('the event stream ended')));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}

const byId = (snapshot: ConsoleSnapshot, id: string) => snapshot.strategies?.find((part) => part.id === id);

describe('the web console with bot.strategies', () => {
  it("shows each strategy live and halts one strategy alone through the console's command route", { timeout: 120_000 }, async () => {
    let logText = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logText += chunk.toString('utf8');
        done();
      },
    });
    const logger = createLogger({ level: 'info', pretty: false, destination });
    const { url: ready, run, stop } = startConsoleRun('config/multi-strategy.yaml', { logger, durationSeconds: 100 });
    try {
      const url = await ready;
      const origin = new URL(url).origin;
      const cookie = `${CONSOLE_COOKIE}=${encodeURIComponent(new URL(url).searchParams.get('token') ?? '')}`;

      // the feed: each strategy with its own figures, once both have sent orders
      const trading = await nextSnapshot(origin, cookie, (s) => (s.strategies ?? []).every((part) => part.orders > 0));
      expect(trading.strategy).toBe('mm-rain, momo-fed');
      expect(trading.strategies?.map(({ id, strategy, symbols }) => ({ id, strategy, symbols }))).toEqual([
        { id: 'mm-rain', strategy: 'market-maker', symbols: ['RAIN-NYC-2026-12-01'] },
        { id: 'momo-fed', strategy: 'momentum-taker', symbols: ['FED-CUT-2026-12'] },
      ]);
      for (const part of trading.strategies ?? []) {
        expect(part.tradingState).toEqual({ state: 'active', cause: 'operator', reason: 'start' });
        for (const symbol of Object.keys(part.positions)) expect(part.symbols).toContain(symbol);
      }
      // every order of the run is a strategy's: the parts' orders add up to the bot's
      expect((trading.strategies ?? []).reduce((n, part) => n + part.orders, 0)).toBe(trading.counters.orders);

      const send = (path: string, body: unknown) =>
        fetch(`${origin}${path}`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', origin },
          body: JSON.stringify(body),
        });
      const unknown = await send('/console/api/trading-state?strategy=momo', { state: 'halted' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 'CONSOLE_UNKNOWN_STRATEGY' } });

      const halted = await send('/console/api/trading-state?strategy=momo-fed', { state: 'halted', reason: 'test' });
      expect(halted.status).toBe(200);
      expect(await halted.json()).toEqual({
        requested: 'halted',
        previous: 'active',
        state: 'halted',
        cause: 'operator',
        reason: 'operator (console): test',
        strategy: 'momo-fed',
      });
      const after = await nextSnapshot(origin, cookie, (s) => byId(s, 'momo-fed')?.tradingState.state === 'halted');
      expect(byId(after, 'momo-fed')?.tradingState).toEqual({ state: 'halted', cause: 'operator', reason: 'operator (console): test' });
      expect(byId(after, 'mm-rain')?.tradingState.state).toBe('active');
      expect(after.tradingState.state).not.toBe('halted');
      const control = async (query: string) => (await (await fetch(`${origin}/control/state${query}`)).json()) as { state: string };
      expect((await control('?strategy=momo-fed')).state).toBe('halted');
      expect((await control('?strategy=mm-rain')).state).toBe('active');
      expect((await control('')).state).not.toBe('halted');
    } finally {
      stop('test over');
    }
    const summary = await run;
    expect(summary.operatorCommands).toBe(1);
    expect(summary.tradingState).not.toBe('halted');
    expect(summary.strategies?.['momo-fed']).toMatchObject({ tradingState: 'halted', tradingStateReason: 'operator (console): test' });
    expect(summary.strategies?.['mm-rain']).toMatchObject({ tradingState: 'active', tradingStateReason: 'start' });
    expect(logText).toContain('"msg":"strategy momo-fed: active -> halted"');
    expect(logText).toContain(`"msg":"operator console: halted requested; strategy momo-fed's trading state now halted"`);
    expect(logText).not.toContain('strategy mm-rain: active -> halted');
  });
});
