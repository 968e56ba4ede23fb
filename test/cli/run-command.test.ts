/**
 * `tradebot run` as a real child process on a config derived from config/sim.yaml (embedded sim, demo market
 * maker): after `--duration` it exits 0 and its last stdout line is the run.summary JSON (event, fills,
 * orders, refusals, pnl as a decimal string, positions as an object); the demo trades: once the market maker
 * logs a fill, SIGINT stops it the same way and the summary counts that fill. Waits only on process events
 * (stderr log lines, exit), never on sleeps or on a fill arriving within a fixed time.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parse, stringify } from 'yaml';
import { afterAll, describe, it, type ExpectStatic } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'tradebot.js');

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** config/sim.yaml with info logs as JSON lines on stderr (so the test can see the pipeline start) and no fixed duration. */
function derivedConfig(): string {
  const config = parse(readFileSync(path.join(ROOT, 'config', 'sim.yaml'), 'utf8')) as {
    logging?: Record<string, unknown>;
    bot?: Record<string, unknown>;
  };
  config.logging = { ...config.logging, level: 'info', pretty: false };
  if (config.bot !== undefined) delete config.bot['durationSeconds'];
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-run-cli-')), 'sim.yaml');
  writeFileSync(file, stringify(config));
  return file;
}

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdoutLines: string[];
  stderr: () => string;
  /** Resolves at the first stderr line containing `text`. */
  stderrLine(text: string): Promise<string>;
  exit: Promise<number | null>;
}

function run(args: readonly string[]): Run {
  const child = spawn(process.execPath, [BIN, 'run', ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  children.push(child);
  const stdoutLines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => stdoutLines.push(line));
  let err = '';
  const waiters: { text: string; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    err += `${line}\n`;
    for (const waiter of [...waiters]) {
      if (line.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  // readline delivers the last lines before 'close': resolve exit after both streams ended
  const stdoutClosed = new Promise<void>((resolve) => child.stdout.once('close', () => resolve()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))).then(async (code) => {
    await stdoutClosed;
    return code;
  });
  return {
    child,
    stdoutLines,
    stderr: () => err,
    stderrLine: (text) =>
      new Promise<string>((resolve, reject) => {
        waiters.push({ text, resolve });
        void exit.then((code) => reject(new Error(`tradebot run exited (${code}) before logging "${text}"; stderr:\n${err}`)));
      }),
    exit,
  };
}

interface Summary {
  event: string;
  fills: number;
  orders: number;
  refusals: number;
  pnl: string;
  positions: Record<string, string>;
  durationSeconds: number;
}

function checkSummary(expect: ExpectStatic, r: Run): Summary {
  const last = r.stdoutLines.at(-1);
  expect(last, r.stderr()).toBeDefined();
  const summary = JSON.parse(last ?? '') as Summary;
  expect(summary).toMatchObject({ event: 'run.summary' });
  expect(Object.keys(summary)).toEqual(expect.arrayContaining(['event', 'fills', 'orders', 'refusals', 'pnl', 'positions']));
  for (const key of ['fills', 'orders', 'refusals'] as const) expect(Number.isInteger(summary[key]) && summary[key] >= 0, key).toBe(true);
  expect(summary.pnl).toMatch(/^-?\d+(\.\d+)?$/);
  expect(typeof summary.positions).toBe('object');
  expect(Array.isArray(summary.positions)).toBe(false);
  for (const qty of Object.values(summary.positions)) expect(qty).toMatch(/^-?\d+(\.\d+)?$/);
  return summary;
}

describe.concurrent('tradebot run', () => {
  it('trades the demo market maker for --duration 5 s, exits 0 and prints the run.summary as its last stdout line', async ({ expect }) => {
    const r = run(['--duration', '5', '--config', derivedConfig()]);
    await r.stderrLine('pipeline started');
    expect(await r.exit, r.stderr()).toBe(0);
    const summary = checkSummary(expect, r);
    expect(summary.orders).toBeGreaterThan(0);
    expect(summary.durationSeconds).toBeGreaterThanOrEqual(5);
  });

  it(
    'trades (a fill), then stops on SIGINT before the duration, exits 0 and still prints the run.summary last, counting the fills',
    { timeout: 120_000 },
    async ({ expect }) => {
      const r = run(['--duration', '600', '--config', derivedConfig()]);
      await r.stderrLine('pipeline started');
      await r.stderrLine('"msg":"filled"');
      r.child.kill('SIGINT');
      await r.stderrLine('stopping');
      expect(await r.exit, r.stderr()).toBe(0);
      const summary = checkSummary(expect, r);
      expect(summary.fills).toBeGreaterThan(0);
      expect(summary.orders).toBeGreaterThan(0);
      expect(summary.durationSeconds).toBeLessThan(600);
      expect(r.stderr()).toMatch(/"reason":"SIGINT"/);
    },
  );
});
