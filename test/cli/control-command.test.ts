/**
 * `tradebot control`: sets and reads a running bot's trading state through its control endpoint (here a
 * real endpoint over loopback on a real TradingStateMachine), takes the port from --port or the config's
 * bot.control, and refuses a bad state, a non-loopback host and a config without a usable port (exit 2); a
 * port where no bot listens is exit 1 with a message that says what to check.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { TradingStateMachine } from '../../src/engine/risk/trading-state.ts';
import { startControlServer, type ControlServer } from '../../src/bot/live/control-server.ts';
import { captureOutput } from './helpers/output.ts';

let server: ControlServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

async function bot(): Promise<{ machine: TradingStateMachine; port: number }> {
  const machine = new TradingStateMachine({ now: () => 0 });
  server = await startControlServer({ port: 0, target: () => machine });
  return { machine, port: server.port };
}

function configWithControl(control: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-control-')), 'bot.yaml');
  writeFileSync(file, `bot:\n  control: ${control}\n`);
  return file;
}

const lastJson = (text: string) => JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;

describe('tradebot control', () => {
  it('sets reducing, then halted with a reason, and prints the state', async () => {
    const { machine, port } = await bot();
    let io = captureOutput();
    expect(await runCli(['control', 'reducing', '--port', String(port)])).toBe(0);
    expect(lastJson(io.out())).toEqual({
      event: 'control.state',
      requested: 'reducing',
      previous: 'active',
      state: 'reducing',
      cause: 'operator',
      reason: 'operator (HTTP control)',
    });
    expect(machine.state).toBe('reducing');
    vi.restoreAllMocks();

    io = captureOutput();
    expect(await runCli(['control', 'halted', '--port', String(port), '--reason', 'end of day'])).toBe(0);
    expect(machine.state).toBe('halted');
    expect(machine.reason).toBe('operator (HTTP control): end of day');
    vi.restoreAllMocks();

    io = captureOutput();
    expect(await runCli(['control', '--port', String(port)])).toBe(0);
    expect(lastJson(io.out())).toEqual({
      event: 'control.state',
      state: 'halted',
      cause: 'operator',
      reason: 'operator (HTTP control): end of day',
    });
  });

  it('takes the port and host from the config file', async () => {
    const { machine, port } = await bot();
    const file = configWithControl(`{ host: 127.0.0.1, port: ${port} }`);
    captureOutput();
    expect(await runCli(['control', 'halted', '--config', file])).toBe(0);
    expect(machine.state).toBe('halted');
  });

  it('refuses an unknown state, a non-loopback host, and a config without a fixed port, with exit 2', async () => {
    const { machine, port } = await bot();
    let io = captureOutput();
    expect(await runCli(['control', 'paused', '--port', String(port)])).toBe(2);
    expect(io.err()).toContain('the state must be one of active, reducing, halted, got "paused" [CLI_INVALID_STATE]');
    vi.restoreAllMocks();

    io = captureOutput();
    expect(await runCli(['control', 'halted', '--host', '10.0.0.5', '--port', String(port)])).toBe(2);
    expect(io.err()).toContain('--host must be a loopback address');
    vi.restoreAllMocks();

    io = captureOutput();
    expect(await runCli(['control', 'halted', '--config', configWithControl('{ port: 0 }')])).toBe(2);
    expect(io.err()).toContain('bot.control.port 0 (a free port picked at start): pass --port');
    vi.restoreAllMocks();

    io = captureOutput();
    expect(await runCli(['control', 'halted'])).toBe(2);
    expect(io.err()).toContain('give --port <n>');
    expect(machine.state).toBe('active');
  });

  it('a config whose bot.control asks for a non-loopback host is a config error', async () => {
    const io = captureOutput();
    expect(await runCli(['control', 'halted', '--config', configWithControl('{ host: 0.0.0.0, port: 9999 }')])).toBe(2);
    expect(io.err()).toContain('bot.control.host: the control endpoint binds to loopback only');
  });

  it('a port where no bot listens is exit 1, naming the URL', async () => {
    const { port } = await bot();
    await server?.close();
    server = undefined;
    const io = captureOutput();
    expect(await runCli(['control', 'halted', '--port', String(port)])).toBe(1);
    expect(io.err()).toContain(`no bot answers at http://127.0.0.1:${port}/control/state: is it running with bot.control set`);
  });
});
