/**
 * Bench "backtest (one-off process)" (events/s): what a user gets from one `tradebot backtest` of 1,000,000
 * trades, timed as a whole process from spawn to exit: Node's start-up, loading the compiled CLI (dist/, as an
 * installed package runs it; built first by `npm run build`), the tape worker's start, the replay through the
 * whole pipeline with a cold JIT, and writing report.json, report.html, run.json and the CSV tables.
 * value = trades / wall seconds of that process; baseline = the same for a bare Node process that reads the
 * same file with readline and JSON.parses every line (bench/bare-loop.mjs), in the same run. Each is run RUNS
 * times, alternating, and the median is reported with every run's figure beside it ("a normal run", not the
 * best). The goal of issue #14: whole process <= 2.5 s on the busy tape (ratio >= 0.5), <= 1.5 s on the quiet.
 *
 * Two results, one per tape (compact format, three symbols, the demo market maker on all of them):
 * - `backtest (one-off process)`: the busy tape, the best bid or offer moves on ~15 % of trades (an active
 *   market: a book event every ~7 trades);
 * - `backtest (one-off process, quiet tape)`: ~1.5 % moves (the main `backtest` bench's tape).
 * Extra fields: seconds and CPU seconds per run (the child's own user + system time, from
 * bench/process-usage.mjs preloaded into it), peak RSS of the process, book events, fills, orders, the
 * 1-minute load average before and after (the machine is shared: figures under load are not comparable).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { writeSyntheticHistory } from '../backtest/tape/synthetic-history.ts';
import type { BenchResult } from './bench-result.ts';
import { COMPILED_CLI, ROOT, ensureCompiledCli } from './compiled-cli.ts';

const TRADES = 1_000_000;
const RUNS = 3;
const SYMBOLS = ['SYN-A', 'SYN-B', 'SYN-C'];
const PARAMS = `symbols: [${SYMBOLS.join(', ')}]\nhalfSpread: "0.01"\nquoteQty: "5"\nmaxInventory: "40"\nskewPerContract: "0.002"\n`;
const USAGE_PRELOAD = path.join(ROOT, 'bench', 'process-usage.mjs');

interface ProcessRun {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssMB: number;
}

const load = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Runs `node <args>` from the repository root, timed whole; its CPU and peak RSS come from the preload. */
function timedNode(args: readonly string[], dir: string): ProcessRun {
  const usageFile = path.join(dir, 'usage.json');
  rmSync(usageFile, { force: true });
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--import', USAGE_PRELOAD, ...args], {
    cwd: ROOT,
    env: { ...process.env, TRADEBOT_BENCH_USAGE_FILE: usageFile },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(-800)}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpuSeconds: number; maxRssKB: number };
  return { seconds, cpuSeconds: usage.cpuSeconds, peakRssMB: Math.round(usage.maxRssKB / 1024) };
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

async function oneOff(dir: string, name: string, moveProbability: number, seed: number): Promise<BenchResult> {
  const tape = path.join(dir, `${name}.jsonl`);
  await writeSyntheticHistory(tape, { trades: TRADES, symbols: SYMBOLS, seed, moveProbability });
  const params = path.join(dir, 'params.yaml');
  writeFileSync(params, PARAMS);
  const out = path.join(dir, `out-${name}`);
  const backtestArgs = [COMPILED_CLI, 'backtest', '--data', tape, '--params', params, '--out', out, '--log-level', 'warn'];
  timedNode(['bench/bare-loop.mjs', tape], dir); // the page cache warmed for both sides
  const loadBefore = load();
  const runs: ProcessRun[] = [];
  const bare: ProcessRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(timedNode(['bench/bare-loop.mjs', tape], dir));
    runs.push(timedNode(backtestArgs, dir));
  }
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Record<string, unknown>;
  if (report['events'] !== TRADES) throw new Error(`the backtest replayed ${String(report['events'])} of ${TRADES} trades`);
  rmSync(tape);
  const seconds = median(runs.map((r) => r.seconds));
  const baselineSeconds = median(bare.map((r) => r.seconds));
  const value = Math.round(TRADES / seconds);
  const baselineValue = Math.round(TRADES / baselineSeconds);
  return {
    bench: name === 'busy' ? 'backtest (one-off process)' : 'backtest (one-off process, quiet tape)',
    unit: 'events/s',
    value,
    baseline: 'bare node process: readline + JSON.parse of the same file',
    baselineValue,
    ratio: Math.round((value / baselineValue) * 1000) / 1000,
    trades: TRADES,
    tape: name,
    moveProbability,
    seconds: round2(seconds),
    runSeconds: runs.map((r) => round2(r.seconds)),
    cpuSeconds: runs.map((r) => round2(r.cpuSeconds)),
    peakRssMB: runs.map((r) => r.peakRssMB),
    baselineSeconds: round2(baselineSeconds),
    baselineRunSeconds: bare.map((r) => round2(r.seconds)),
    baselineCpuSeconds: bare.map((r) => round2(r.cpuSeconds)),
    bookEvents: report['bookEvents'],
    fills: report['fills'],
    orders: report['orders'],
    goalSeconds: name === 'busy' ? 2.5 : 1.5,
    runs: RUNS,
    statistic: 'median',
    load1m: [loadBefore, load()],
  };
}

export default async function bench(): Promise<BenchResult[]> {
  ensureCompiledCli();
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-bench-backtest-process-'));
  try {
    return [await oneOff(dir, 'busy', 0.1, 12), await oneOff(dir, 'quiet', 0.01, 11)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
