/**
 * Memory does not grow with the length of the history: a history of 120k trades is replayed through the
 * whole backtest pipeline in a child process (`node --expose-gc`, so a full collection can be forced), and
 * the heap still in use after that collection is recorded at every tenth of the file. The first 30 % of
 * the file is a replay of N trades, the whole file one of about 3.4 N: the heap retained at the end must not
 * be above the one at 30 % by more than noise (1.5 MB; the heap is ~18 MB). Timing plays no part.
 *
 * 1. A strategy that reads every book and trade and places no orders (helpers/book-watcher.ts): the reader,
 *    the supersede window, the synthetic book, book events, the pipeline's books and risk refresh, portfolio
 *    marks, equity sampling and the chart series (decimated) are all bounded.
 * 2. A strategy with orders flowing all the time (helpers/requoter.ts: ~15k orders, ~25k executions), with
 *    the engine's bounded histories set small where the backtest can set them (finished orders, fill ids,
 *    series points). MARKED `it.fails`: it fails today only because the OrderTracker remembers the id of
 *    every execution for deduplication up to 100 000 (`dedupeCapacity`, src/engine/orders/tracker.ts), which
 *    startPipeline does not let a caller set; heap snapshots of this run show that set as the only growing
 *    structure (~110 bytes an execution). Bounded, so memory stops growing after 100k executions, but a
 *    test cannot get there cheaply. Once startPipeline takes that capacity and runBacktest passes it (like
 *    finishedOrderHistory), set it small in helpers/memory-probe.ts and turn `it.fails` into `it`.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticHistory } from '../../backtest/tape/synthetic-history.ts';
import { tempDir } from './helpers/history-file.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = path.join(ROOT, 'test', 'backtest', 'helpers', 'memory-probe.ts');
const SYMBOLS = ['SYN-A', 'SYN-B'];
const TRADES = 120_000;
const NOISE_MB = 1.5;

interface Probe {
  readonly samples: readonly { at: number; trades: number; heapUsedMB: number }[];
  readonly events: number;
  readonly orders: number;
  readonly fills: number;
}

let dir: string;
let file: string;

beforeAll(async () => {
  dir = tempDir();
  file = path.join(dir, 'long.jsonl');
  await writeSyntheticHistory(file, { trades: TRADES, symbols: SYMBOLS, form: 'compact', moveProbability: 0.05 });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function probe(strategy: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', PROBE, strategy, file, ...SYMBOLS], { cwd: ROOT, timeout: 240_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error !== null) return reject(new Error(`memory probe failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Probe);
    });
  });
}

/** Heap retained after N trades (30 % of the file) and after all of them. */
function growth(result: Probe): { n: number; kn: number; grewMB: number; describe: string } {
  const atN = result.samples.find((s) => s.at >= 0.3 - 1e-9);
  const atEnd = result.samples.at(-1);
  if (atN === undefined || atEnd === undefined || atEnd.at < 0.999) throw new Error(`samples missing: ${JSON.stringify(result.samples)}`);
  const grewMB = Math.round((atEnd.heapUsedMB - atN.heapUsedMB) * 10) / 10;
  return { n: atN.trades, kn: atEnd.trades, grewMB, describe: `retained heap ${atN.heapUsedMB} MB after ${atN.trades} trades, ${atEnd.heapUsedMB} MB after ${atEnd.trades} (orders ${result.orders}, fills ${result.fills}): ${JSON.stringify(result.samples)}` };
}

describe('memory over the length of the history', () => {
  it('replaying 3.4x more trades retains no more heap (market data path, no orders)', async () => {
    const result = await probe('test/backtest/helpers/book-watcher.ts');
    expect(result.events).toBe(TRADES);
    const g = growth(result);
    expect(g.kn / g.n).toBeGreaterThan(3);
    expect(g.grewMB, g.describe).toBeLessThanOrEqual(NOISE_MB);
  }, 240_000);

  // Fails until the OrderTracker's execution-id dedupe capacity can be set through startPipeline (see the header).
  it.fails('replaying 3.4x more trades with orders flowing retains no more heap (engine histories bounded small)', async () => {
    const result = await probe('test/backtest/helpers/requoter.ts');
    expect(result.orders).toBeGreaterThan(5_000);
    const g = growth(result);
    expect(g.grewMB, g.describe).toBeLessThanOrEqual(NOISE_MB);
  }, 240_000);
});
