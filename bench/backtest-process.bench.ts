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
 * 1-minute load average before and after (the machine is shared: figures under load are not comparable), and
 * each run's tapeParsedOn from run.json: a run whose tape worker failed (the replay thread then parses the
 * tape itself, slower) fails the bench instead of being timed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSyntheticHistory } from '../backtest/tape/synthetic-history.ts';
import type { BenchResult } from './bench-result.ts';
import { COMPILED_CLI, ensureCompiledCli } from './compiled-cli.ts';
import { load1m, median, round2, timedNode, type ProcessRun } from './timed-process.ts';

const TRADES = 1_000_000;
const RUNS = 3;
const SYMBOLS = ['SYN-A', 'SYN-B', 'SYN-C'];
/** The demo market maker's params on the three symbols (also bench/backtest-memory.bench.ts's). */
export const BUSY_PARAMS =
  `symbols: [${SYMBOLS.join(', ')}]\nhalfSpread: "0.01"\nquoteQty: "5"\n` + 'maxInventory: "40"\nskewPerContract: "0.002"\n';

async function oneOff(dir: string, name: string, moveProbability: number, seed: number): Promise<BenchResult> {
  const tape = path.join(dir, `${name}.jsonl`);
  await writeSyntheticHistory(tape, { trades: TRADES, symbols: SYMBOLS, seed, moveProbability });
  const params = path.join(dir, 'params.yaml');
  writeFileSync(params, BUSY_PARAMS);
  const out = path.join(dir, `out-${name}`);
  const backtestArgs = [COMPILED_CLI, 'backtest', '--data', tape, '--params', params, '--out', out, '--log-level', 'warn'];
  timedNode(['bench/bare-loop.mjs', tape], dir); // the page cache warmed for both sides
  const loadBefore = load1m();
  const runs: ProcessRun[] = [];
  const bare: ProcessRun[] = [];
  const parsedOn: unknown[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(timedNode(['bench/bare-loop.mjs', tape], dir));
    runs.push(timedNode(backtestArgs, dir));
    parsedOn.push((JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')) as Record<string, unknown>)['tapeParsedOn']);
  }
  // a backtest whose tape worker failed is slower, not wrong: measured that way, the figure would mislead
  if (parsedOn.some((p) => p !== 'worker'))
    throw new Error(`the tape worker did not parse every run's tape (run.json tapeParsedOn: ${parsedOn.join(', ')})`);
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
    tapeParsedOn: parsedOn,
    baselineSeconds: round2(baselineSeconds),
    baselineRunSeconds: bare.map((r) => round2(r.seconds)),
    baselineCpuSeconds: bare.map((r) => round2(r.cpuSeconds)),
    bookEvents: report['bookEvents'],
    fills: report['fills'],
    orders: report['orders'],
    goalSeconds: name === 'busy' ? 2.5 : 1.5,
    runs: RUNS,
    statistic: 'median',
    load1m: [loadBefore, load1m()],
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
