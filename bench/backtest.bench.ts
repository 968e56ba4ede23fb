/**
 * Bench "backtest" (events/s): trades per wall-clock second through the whole backtest pipeline, as
 * `tradebot backtest` runs it: the history file streamed and parsed (the byte-level fast path, on the tape
 * worker thread after the first lines), the supersede window, the synthetic book, the live pipeline
 * (books, demo market-maker strategy, risk, execution adapter, order tracker, portfolio), simulated fills
 * on the matching engine, metrics and series; the worker's start-up is inside the timed run. The tape:
 * 1,000,000 synthetic trades over three symbols in the compact history format (what `history fetch` writes
 * by default, ~150 bytes a line), generated in a temp dir, whose best bid or offer moves on ~1.5 % of the
 * trades. Baseline: a bare loop over the same file with the same line reader that only decodes and
 * JSON.parses every line ("read+JSON.parse"), the median of three runs after a warm-up run. `value` is the
 * steady state, measured as the matching bench measures (warm-up, then the median): three warm-up replays of
 * the tape, then the median of five timed replays (`timedRunValues`). The pipeline's code (~16k book events
 * and ~23k venue requests per million trades) goes on tiering up in V8 over the first three million trades
 * of a process: in six processes of ten replays each, the third replay took 4-72 % longer than the median
 * of the fourth to the tenth (backtest/README.md). The warm-up replays are reported too: `firstRunValue`
 * (with `firstRunSeconds`, `firstRunLoad1m`: the JIT warmed by the baseline's loops only, what a one-off
 * `tradebot backtest` of a million trades gets), `secondRunValue` (a sweep's second run in a worker) and
 * `thirdRunValue`. A second result replays a busier compact tape (the top moves on ~15 % of trades:
 * many more strategy callbacks); a third, `backtest (full records)`, the same 1,000,000 trades as the main tape
 * in the full format (the exchange's whole records, ~1.7 KB a line, 1.6 GB: `history fetch --format full`),
 * one replay (after the others: the pipeline's code is warm, the worker's and the full fast path's are not),
 * against read+JSON.parse of that file; its `compactValue` is the compact tape replayed right after it (the
 * two formats compared at the same point of the warm-up). Extra fields: CPU figures and the 1-minute load average before and
 * after each measurement (the machine is shared: figures taken under load are not comparable), book events,
 * fills, peak RSS (the process, tape worker included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadBacktestConfig } from '../backtest/config.ts';
import { runBacktest } from '../backtest/run-backtest.ts';
import { readLineBatches } from '../backtest/tape/line-reader.ts';
import { writeSyntheticHistory } from '../backtest/tape/synthetic-history.ts';
import { loadStrategy } from '../src/engine/strategy/loader.ts';
import type { BenchResult } from './bench-result.ts';

const TRADES = 1_000_000;
const BUSY_TRADES = 200_000;
/** Runs of the baseline (the median is reported). */
const BASELINE_RUNS = 3;
/** Replays of the main tape before the timed ones: V8 is still tiering the pipeline up during the third. */
const WARM_UP_REPLAYS = 3;
/** Timed replays of the main tape (the median is `value`). */
const TIMED_REPLAYS = 5;

/** The run with the median of `key` (odd counts). */
function medianBy<T>(runs: readonly T[], key: (run: T) => number): T {
  return [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)] as T;
}
const SYMBOLS = ['SYN-A', 'SYN-B', 'SYN-C'];

const load = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

const cpuSeconds = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};

/** read+JSON.parse: the same reader, every line decoded and parsed, nothing else. */
async function parseOnly(file: string): Promise<{ lines: number; seconds: number; cpu: number; load: [number, number] }> {
  const loadBefore = load();
  const started = performance.now();
  const cpu = process.cpuUsage();
  let lines = 0;
  let check = 0;
  for await (const batch of readLineBatches(file)) {
    for (let i = 0; i < batch.count; i++) {
      const value = JSON.parse(batch.buf.toString('utf8', batch.starts[i], batch.ends[i])) as { type: string };
      check += value.type.length;
      lines++;
    }
  }
  if (check === 0) throw new Error('nothing parsed');
  return { lines: lines - 1, seconds: (performance.now() - started) / 1000, cpu: cpuSeconds(cpu), load: [loadBefore, load()] };
}

async function replay(file: string, trades: number): Promise<Record<string, number | number[]>> {
  const config = loadBacktestConfig('config/backtest.yaml');
  const strategy = await loadStrategy('market-maker');
  const params = { ...config.bot.params, symbols: SYMBOLS };
  const loadBefore = load();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await runBacktest({ data: file, config, strategy, params });
  const seconds = (performance.now() - started) / 1000;
  const used = cpuSeconds(cpu);
  const events = result.report['events'] as number;
  if (events !== trades) throw new Error(`replayed ${events} of ${trades} trades`);
  const bookEvents = result.report['bookEvents'] as number;
  return {
    value: Math.round(events / seconds),
    seconds: Math.round(seconds * 100) / 100,
    eventsPerCpuSecond: Math.round(events / used),
    bookEvents,
    bookEventRate: Math.round((bookEvents / events) * 10_000) / 10_000,
    fills: result.report['fills'] as number,
    orders: result.report['orders'] as number,
    peakRssMB: result.wall.peakRssMB,
    load1m: [loadBefore, load()],
  };
}

export default async function bench(): Promise<BenchResult[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-bench-backtest-'));
  const common = { baseline: 'read+JSON.parse', unit: 'events/s' };
  const ratio = (value: number, baselineValue: number) => Math.round((value / baselineValue) * 1000) / 1000;
  try {
    const file = path.join(dir, 'tape.jsonl');
    const tape = { trades: TRADES, symbols: SYMBOLS, seed: 11, moveProbability: 0.01 };
    const { bytes } = await writeSyntheticHistory(file, tape);
    await parseOnly(file); // warm the page cache and the JIT alike for both sides
    const baselineRuns: Awaited<ReturnType<typeof parseOnly>>[] = [];
    for (let i = 0; i < BASELINE_RUNS; i++) baselineRuns.push(await parseOnly(file));
    const baseline = medianBy(baselineRuns, (r) => r.seconds);
    const baselineValue = Math.round(baseline.lines / baseline.seconds);
    // warm-up: the first replay in this process (as a one-off `tradebot backtest` runs), then the next ones
    // until V8 has tiered the pipeline up; then TIMED_REPLAYS timed replays, `value` their median
    const warmUp: Awaited<ReturnType<typeof replay>>[] = [];
    for (let i = 0; i < WARM_UP_REPLAYS; i++) warmUp.push(await replay(file, TRADES));
    const [first, second, third] = warmUp as [
      Awaited<ReturnType<typeof replay>>,
      Awaited<ReturnType<typeof replay>>,
      Awaited<ReturnType<typeof replay>>,
    ];
    const timed: Awaited<ReturnType<typeof replay>>[] = [];
    for (let i = 0; i < TIMED_REPLAYS; i++) timed.push(await replay(file, TRADES));
    const { value, ...main } = medianBy(timed, (r) => r['seconds'] as number);
    const busyFile = path.join(dir, 'busy.jsonl');
    await writeSyntheticHistory(busyFile, { trades: BUSY_TRADES, symbols: SYMBOLS, seed: 12, moveProbability: 0.1 });
    const busyBaseline = await parseOnly(busyFile);
    const busyBaselineValue = Math.round(busyBaseline.lines / busyBaseline.seconds);
    const { value: busyValue, ...busy } = await replay(busyFile, BUSY_TRADES);
    rmSync(busyFile);
    // the same trades as the main tape in the exchange's full records (~1.7 KB a line)
    const fullFile = path.join(dir, 'full.jsonl');
    const { bytes: fullBytes } = await writeSyntheticHistory(fullFile, { ...tape, format: 'full' });
    await parseOnly(fullFile);
    const fullBaseline = await parseOnly(fullFile);
    const fullBaselineValue = Math.round(fullBaseline.lines / fullBaseline.seconds);
    const { value: fullValue, ...full } = await replay(fullFile, TRADES);
    rmSync(fullFile);
    // the compact tape again right after, for a comparison at the same point of the JIT's warm-up
    const compactAfter = await replay(file, TRADES);
    return [
      {
        bench: 'backtest',
        ...common,
        value: value as number,
        baselineValue,
        ratio: ratio(value as number, baselineValue),
        trades: TRADES,
        format: 'compact',
        fileMB: Math.round(bytes / 1048576),
        cores: availableParallelism(),
        baselinePerCpuSecond: Math.round(baseline.lines / baseline.cpu),
        baselineLoad1m: baseline.load,
        ...main,
        firstRunValue: first['value'],
        firstRunSeconds: first['seconds'],
        firstRunLoad1m: first['load1m'],
        firstRunPeakRssMB: first['peakRssMB'],
        secondRunValue: second['value'],
        secondRunLoad1m: second['load1m'],
        thirdRunValue: third['value'],
        timedRunValues: timed.map((r) => r['value']),
      },
      {
        bench: 'backtest (busy tape)',
        ...common,
        value: busyValue as number,
        baselineValue: busyBaselineValue,
        ratio: ratio(busyValue as number, busyBaselineValue),
        trades: BUSY_TRADES,
        format: 'compact',
        baselineLoad1m: busyBaseline.load,
        ...busy,
      },
      {
        bench: 'backtest (full records)',
        ...common,
        value: fullValue as number,
        baselineValue: fullBaselineValue,
        ratio: ratio(fullValue as number, fullBaselineValue),
        trades: TRADES,
        format: 'full',
        fileMB: Math.round(fullBytes / 1048576),
        baselinePerCpuSecond: Math.round(fullBaseline.lines / fullBaseline.cpu),
        baselineLoad1m: fullBaseline.load,
        ...full,
        compactValue: compactAfter['value'],
        compactLoad1m: compactAfter['load1m'],
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
