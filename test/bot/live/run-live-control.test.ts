/**
 * The live runner with `bot.control`: against the embedded sim (config/sim.yaml), the control endpoint it
 * logs at start switches the trading state; the status line shows the state with its cause, SIGUSR2's toggle
 * still works beside it, and run.summary reports the state, its reason and the operator commands. Waits are
 * on log lines and status-line writes (events), never sleeps.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { runLive } from '../../../src/bot/live/run-live.ts';

/** Collects written text and resolves waiters when a chunk matches. */
class Sink extends Writable {
  text = '';
  private waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    for (const waiter of [...this.waiters]) {
      if (waiter.test(this.text)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    done();
  }

  until(test: (text: string) => boolean): Promise<void> {
    if (test(this.text)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
}

async function post(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('runLive with bot.control', () => {
  it('switches the trading state over HTTP; the status line and run.summary show it', { timeout: 60_000 }, async () => {
    const base = loadConfig('config/sim.yaml', { env: {} });
    const config = { ...base, bot: { ...base.bot, durationSeconds: undefined, control: { host: '127.0.0.1', port: 0, console: false } } };
    const logs = new Sink();
    const status = new Sink();
    const logger = createLogger({ level: 'info', pretty: false, destination: logs });
    let stop: (reason: string) => void = () => undefined;
    let toggle: () => void = () => undefined;
    const run = runLive({
      config,
      logger,
      stopSignal: new Promise<string>((resolve) => (stop = resolve)),
      statusStream: status as unknown as NodeJS.WriteStream,
      onOperatorToggle: (fn) => (toggle = fn),
    });
    try {
      const urlPattern = /"url":"(http:\/\/127\.0\.0\.1:\d+\/control\/state)"/;
      await Promise.race([
        logs.until((text) => urlPattern.test(text) && text.includes('pipeline started')),
        run.then(() => Promise.reject(new Error(`run ended early:\n${logs.text}`))),
      ]);
      const url = urlPattern.exec(logs.text)?.[1] ?? '';

      const answer = await post(url, { state: 'reducing', reason: 'test' });
      expect(answer).toEqual({
        status: 200,
        body: { requested: 'reducing', previous: 'active', state: 'reducing', cause: 'operator', reason: 'operator (HTTP control): test' },
      });
      await status.until((text) => text.includes('| reducing (operator) |'));
      expect(logs.text).toContain('trading state active -> reducing: operator (HTTP control): test');

      const bad = await post(url, { state: 'stopped' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        error: { code: 'CONTROL_BAD_REQUEST', message: 'state "stopped": the state must be one of active, reducing, halted' },
      });

      // SIGUSR2's toggle beside the endpoint: reducing is not halted, so it halts; the endpoint sees it
      toggle();
      expect(((await (await fetch(url)).json()) as { state: string }).state).toBe('halted');
      expect((await post(url, { state: 'reducing' })).body).toMatchObject({ previous: 'halted', state: 'reducing' });
    } finally {
      stop('test');
    }
    const summary = await run;
    expect(summary).toMatchObject({
      event: 'run.summary',
      tradingState: 'reducing',
      tradingStateCause: 'operator',
      tradingStateReason: 'operator (HTTP control)',
      operatorCommands: 2,
      reconciled: true,
    });
  });
});
