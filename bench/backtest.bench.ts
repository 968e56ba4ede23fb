/**
 * Bench "backtest" (events/s): trades per wall-clock second through the whole backtest pipeline, as
 * `tradebot backtest` runs it: the history file streamed and parsed (the byte-level fast path, on the tape
 * worker thread after the first lines), the supersede window, the synthetic book, the live pipeline
 * (books, demo market-maker strategy, risk, execution adapter, order tracker, portfolio), simulated fills
 * on the matching engine, metrics and series; the worker's start-up is inside the timed run. The tape:
 * 1,000,000 trades over three symbols in the exchange's full family A form (~1.7 KB a line, like the
 * simulator's), generated in a temp dir, whose best bid or offer moves on ~1.5 % of the trades.
 * Baseline: a bare loop over the same file with the same line reader that only decodes and JSON.parses
 * every line ("read+JSON.parse"). A second result replays a busier tape (the top moves on ~15 % of
 * trades: many more strategy callbacks). `value` is the first replay in the process (the JIT warmed by
 * the baseline's loops only, as `tradebot backtest` runs once); `secondRunValue` the same replay again
 * (a sweep's later runs, a long session). Extra fields: CPU figures and the 1-minute load average before
 * and after each measurement (the machine is shared: figures taken under load are not comparable), book
 * events, fills, peak RSS (the process, tape worker included).
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
  try {
    const file = path.join(dir, 'tape.jsonl');
    const { bytes } = await writeSyntheticHistory(file, { trades: TRADES, symbols: SYMBOLS, seed: 11, moveProbability: 0.01 });
    await parseOnly(file); // warm the page cache and the JIT alike for both sides
    const baseline = await parseOnly(file);
    const baselineValue = Math.round(baseline.lines / baseline.seconds);
    const { value, ...main } = await replay(file, TRADES);
    // the same run again in this process, the pipeline's code now optimised by the JIT (value is the first)
    const again = await replay(file, TRADES);
    rmSync(file);
    const busyFile = path.join(dir, 'busy.jsonl');
    await writeSyntheticHistory(busyFile, { trades: BUSY_TRADES, symbols: SYMBOLS, seed: 12, moveProbability: 0.1 });
    const busyBaseline = await parseOnly(busyFile);
    const busyBaselineValue = Math.round(busyBaseline.lines / busyBaseline.seconds);
    const { value: busyValue, ...busy } = await replay(busyFile, BUSY_TRADES);
    const common = { baseline: 'read+JSON.parse', unit: 'events/s' };
    return [
      {
        bench: 'backtest',
        ...common,
        value: value as number,
        baselineValue,
        ratio: Math.round(((value as number) / baselineValue) * 1000) / 1000,
        trades: TRADES,
        fileMB: Math.round(bytes / 1048576),
        cores: availableParallelism(),
        baselinePerCpuSecond: Math.round(baseline.lines / baseline.cpu),
        baselineLoad1m: baseline.load,
        ...main,
        secondRunValue: again['value'],
        secondRunSeconds: again['seconds'],
        secondRunLoad1m: again['load1m'],
      },
      {
        bench: 'backtest (busy tape)',
        ...common,
        value: busyValue as number,
        baselineValue: busyBaselineValue,
        ratio: Math.round(((busyValue as number) / busyBaselineValue) * 1000) / 1000,
        trades: BUSY_TRADES,
        baselineLoad1m: busyBaseline.load,
        ...busy,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
