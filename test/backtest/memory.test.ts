/**
 * Memory does not grow with the length of the history: a history of 120k trades is replayed through the
 * whole backtest pipeline in a child process (`node --expose-gc`, so a full collection can be forced), and
 * the heap still in use after that collection is recorded at every tenth of the file. The heap retained
 * while replaying the file's 80-100 % (on average ~2.4x the trades of its 30-50 %) must be within 1.5 MB of
 * the heap retained over its 30-50 % (averages of three samples each: single samples after a forced
 * collection vary by up to ~1 MB, compiled code included; the heap is ~20 MB; measured growth 0.1-0.6 MB,
 * while the production-sized execution-id memory filling up made 3 MB). Timing plays no part.
 *
 * The engine's bounded memories (finished orders, fill ids, execution ids; production sizes 10 000,
 * 100 000, 100 000) are set small in the probe, so they are full early: what grew after that would grow with
 * the history. Three strategies:
 *  1. helpers/book-watcher.ts reads every book and trade and places no orders: the tape batches, the
 *     synthetic book, book events, the pipeline's books and risk refresh, portfolio marks, equity sampling
 *     and the chart series (decimated). The file (~100 MB) is read and parsed on the tape worker thread,
 *     whose heap this does not see: its reader and supersede window are fixed-size, and it stays a bounded
 *     number of batches ahead (tape-thread.test.ts);
 *  2. helpers/requoter.ts keeps orders flowing (cancel and place on every move of the top: ~15k orders);
 *  3. the demo market maker (replaces its quotes; ~2k orders).
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
  await writeSyntheticHistory(file, { trades: TRADES, symbols: SYMBOLS, format: 'full', detail: 'minimal', moveProbability: 0.05 });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function probe(strategy: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', PROBE, strategy, file, ...SYMBOLS],
      { cwd: ROOT, timeout: 240_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error !== null) return reject(new Error(`memory probe failed: ${error.message}\n${stderr}`));
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Probe);
      },
    );
  });
}

/** Mean retained heap over the file's 30-50 % and over its 80-100 %, and the trades replayed at their middles. */
function growth(result: Probe): { n: number; kn: number; grewMB: number; describe: string } {
  const within = (from: number, to: number) => result.samples.filter((s) => s.at >= from - 1e-9 && s.at <= to + 1e-9);
  const early = within(0.3, 0.5);
  const late = within(0.8, 1);
  if (early.length !== 3 || late.length !== 3) throw new Error(`samples missing: ${JSON.stringify(result.samples)}`);
  const mean = (xs: readonly { heapUsedMB: number }[]) => xs.reduce((sum, x) => sum + x.heapUsedMB, 0) / xs.length;
  const grewMB = Math.round((mean(late) - mean(early)) * 100) / 100;
  const n = early[1]?.trades ?? 0;
  const kn = late[1]?.trades ?? 0;
  return {
    n,
    kn,
    grewMB,
    describe:
      `retained heap ${mean(early).toFixed(2)} MB around ${n} trades, ${mean(late).toFixed(2)} MB around ${kn} ` +
      `(orders ${result.orders}, fills ${result.fills}): ${JSON.stringify(result.samples)}`,
  };
}

describe('memory over the length of the history', () => {
  it.each([
    ['reading books and trades, no orders', 'test/backtest/helpers/book-watcher.ts', 0],
    ['with orders flowing (cancel and place on every move)', 'test/backtest/helpers/requoter.ts', 5_000],
    ['the demo market maker (quotes replaced)', 'market-maker', 500],
  ])(
    'replaying ~2.4x the trades retains no more heap: %s',
    async (_name, strategy, minOrders) => {
      const result = await probe(strategy);
      expect(result.events).toBe(TRADES);
      expect(result.orders).toBeGreaterThanOrEqual(minOrders);
      const g = growth(result);
      expect(g.kn / g.n).toBeGreaterThan(2);
      expect(g.grewMB, g.describe).toBeLessThanOrEqual(NOISE_MB);
    },
    240_000,
  );
});
