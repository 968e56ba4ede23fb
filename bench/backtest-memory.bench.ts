/**
 * Bench "backtest peak RSS (10M trades)" (MB): whether a backtest's memory stays flat as the history grows, as
 * a user gets it. One `tradebot backtest` through the compiled CLI (dist/) over 10,000,000 trades of the busy
 * synthetic tape (the best bid or offer moves on ~15 % of trades; three symbols, the demo market maker on all
 * of them), against the same over a 1,000,000-trade tape of the same generator and seed, in the same run: value = the 10M process's
 * peak RSS, baseline = the 1M process's, ratio = value / baseline. The goal of issue #14: ratio <= 1.2 (what
 * a replay keeps per trade, order or fill is bounded: backtest/README.md "Memory").
 * Extra fields: both runs' wall and CPU seconds, their book events and fills, and the load before and after.
 * The 10M tape is ~1.6 GB, written to the system's temp folder and deleted afterwards; the bench takes ~5 min.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSyntheticHistory } from '../backtest/tape/synthetic-history.ts';
import { BUSY_PARAMS } from './backtest-process.bench.ts';
import type { BenchResult } from './bench-result.ts';
import { COMPILED_CLI, ensureCompiledCli } from './compiled-cli.ts';
import { load1m, round2, timedNode, type ProcessRun } from './timed-process.ts';

const SYMBOLS = ['SYN-A', 'SYN-B', 'SYN-C'];
const SHORT = 1_000_000;
const LONG = 10_000_000;
/** The busy tape of bench "backtest (one-off process)": the same generator, seed and moves. */
const TAPE = { symbols: SYMBOLS, seed: 12, moveProbability: 0.1 };

interface Replay {
  readonly run: ProcessRun;
  readonly report: Record<string, unknown>;
}

function backtest(dir: string, trades: number): Replay {
  const tape = path.join(dir, `busy-${trades}.jsonl`);
  const out = path.join(dir, `out-${trades}`);
  const params = path.join(dir, 'params.yaml');
  writeFileSync(params, BUSY_PARAMS);
  const run = timedNode([COMPILED_CLI, 'backtest', '--data', tape, '--params', params, '--out', out, '--log-level', 'warn'], dir);
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Record<string, unknown>;
  if (report['events'] !== trades) throw new Error(`the backtest replayed ${String(report['events'])} of ${trades} trades`);
  rmSync(tape);
  return { run, report };
}

export default async function bench(): Promise<BenchResult> {
  ensureCompiledCli();
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-bench-backtest-memory-'));
  try {
    await writeSyntheticHistory(path.join(dir, `busy-${SHORT}.jsonl`), { trades: SHORT, ...TAPE });
    await writeSyntheticHistory(path.join(dir, `busy-${LONG}.jsonl`), { trades: LONG, ...TAPE });
    const loadBefore = load1m();
    const short = backtest(dir, SHORT);
    const long = backtest(dir, LONG);
    return {
      bench: 'backtest peak RSS (10M trades)',
      unit: 'MB',
      value: long.run.peakRssMB,
      baseline: 'the same backtest over 1M trades (same tape generator and seed)',
      baselineValue: short.run.peakRssMB,
      ratio: Math.round((long.run.peakRssMB / short.run.peakRssMB) * 1000) / 1000,
      goalRatio: 1.2,
      trades: [SHORT, LONG],
      seconds: [round2(short.run.seconds), round2(long.run.seconds)],
      cpuSeconds: [round2(short.run.cpuSeconds), round2(long.run.cpuSeconds)],
      bookEvents: [short.report['bookEvents'], long.report['bookEvents']],
      fills: [short.report['fills'], long.report['fills']],
      load1m: [loadBefore, load1m()],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
