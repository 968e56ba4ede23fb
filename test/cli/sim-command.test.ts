/**
 * `tradebot sim` as a real child process: its first stdout line is exactly the sim.ready JSON (event, api,
 * auth, gateway, grpc on 127.0.0.1), the servers answer, and SIGTERM or SIGINT stops it cleanly with exit
 * code 0 and the ports released. Waits only on process events (stdout lines, exit), never on sleeps.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, it, type ExpectStatic } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'tradebot.js');

const CONFIG = `
logging:
  level: warn
sim:
  ports: { api: 0, auth: 0, gateway: 0, grpc: 0 }
  users:
    - username: alice
      password: Demo-Alice-Pass-2026
      participant: firms/demo/users/alice
      accounts: [firms/demo/accounts/alice-main]
  instruments:
    - symbol: RAIN-NYC-2026-12-01
      priceScale: 100
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
  activity:
    enabled: false
`;

interface Running {
  child: ChildProcessWithoutNullStreams;
  firstLine: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

const children: ChildProcessWithoutNullStreams[] = [];

afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function writeConfig(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-sim-cli-')), 'sim.yaml');
  writeFileSync(file, text);
  return file;
}

function runSim(configFile: string): Running {
  const child = spawn(process.execPath, [BIN, 'sim', '--config', configFile], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  children.push(child);
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const firstLine = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(line));
    child.once('exit', (code) => reject(new Error(`tradebot sim exited with ${code} before printing a line; stderr: ${err}`)));
  });
  // tests of failing starts never read the first line: keep its rejection from going unhandled
  firstLine.catch(() => undefined);
  return { child, firstLine, exit, stderr: () => err };
}

function portOpen(address: string): Promise<boolean> {
  const [host = '', port = ''] = address.split(':');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function checkReadyAndServing(expect: ExpectStatic, line: string): Promise<Record<string, string>> {
  const ready = JSON.parse(line) as Record<string, string>;
  expect(Object.keys(ready).sort()).toEqual(['api', 'auth', 'event', 'gateway', 'grpc']);
  expect(ready['event']).toBe('sim.ready');
  for (const key of ['api', 'auth', 'gateway']) expect(ready[key]).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
  expect(ready['grpc']).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
  expect(new Set([ready['api'], ready['auth'], ready['gateway']]).size).toBe(3);

  const health = await fetch(`${ready['api']}/v1/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'SERVING' });
  const login = await fetch(`${ready['gateway']}/auth/v1beta1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: 'Demo-Alice-Pass-2026' }),
  });
  expect(login.status).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const whoami = await fetch(`${ready['gateway']}/api/v1beta1/get_who_am_i`, {
    method: 'POST',
    headers: { authorization: accessToken },
    body: '{}',
  });
  expect(await whoami.json()).toMatchObject({ username: 'alice', accounts: ['firms/demo/accounts/alice-main'] });
  const wrongMethod = await fetch(`${ready['gateway']}/api/v1beta1/get_who_am_i`);
  expect(wrongMethod.status).toBe(501);
  expect(await portOpen(String(ready['grpc']))).toBe(true);
  return ready;
}

describe.concurrent('tradebot sim', () => {
  it.for(['SIGTERM', 'SIGINT'] as const)(
    'prints sim.ready first, serves, and exits 0 on %s with its ports released',
    async (signal, { expect }) => {
      const sim = runSim(writeConfig(CONFIG));
      const ready = await checkReadyAndServing(expect, await sim.firstLine);
      sim.child.kill(signal);
      const { code } = await sim.exit;
      expect(code, sim.stderr()).toBe(0);
      expect(sim.stderr()).not.toMatch(/error/i);
      expect(await portOpen(String(ready['grpc']))).toBe(false);
      await expect(fetch(`${ready['gateway']}/auth/v1beta1/login`, { method: 'POST', body: '{}' })).rejects.toThrow();
    },
  );

  it('exits 2 with CONFIG_NO_SIM for a config without a sim section, printing nothing on stdout', async ({ expect }) => {
    const sim = runSim(writeConfig('logging:\n  level: warn\n'));
    let stdout = '';
    sim.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const { code } = await sim.exit;
    expect(code).toBe(2);
    expect(sim.stderr()).toContain('CONFIG_NO_SIM');
    expect(stdout).toBe('');
  });

  it('exits 2 for a missing config file', async ({ expect }) => {
    const sim = runSim(path.join(tmpdir(), 'tradebot-no-such-dir', 'missing.yaml'));
    const { code } = await sim.exit;
    expect(code).toBe(2);
    expect(sim.stderr()).toContain('file not found');
  });
});
