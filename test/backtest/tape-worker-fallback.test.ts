/**
 * A tape worker that fails before it takes over (here: its script cannot be built): the replay thread reads
 * the whole tape itself, with the same trades and counts, the reader says why (TapeReader.workerFailure), and a
 * backtest logs it as a warning with the same report as an in-thread read. Before this, a broken worker only
 * made backtests slower, silently (the bundled build's first tape worker did exactly that).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, expect, it, vi } from 'vitest';
import { stableStringify } from '../../backtest/results/stable-json.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { writeSyntheticHistory } from '../../backtest/tape/synthetic-history.ts';
import { TapeReader } from '../../backtest/tape/tape-reader.ts';
import { closeTapeWorkerPool } from '../../backtest/tape/tape-worker-pool.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { loadStrategy } from '../../src/engine/strategy/loader.ts';
import { tempDir, testConfig } from './helpers/history-file.ts';

const BROKEN = 'the tape worker bundle is broken on purpose';
vi.mock('../../backtest/tape/worker-bundle.ts', () => ({
  tapeWorkerBundle: () => Promise.reject(new Error('the tape worker bundle is broken on purpose')),
}));

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
afterAll(closeTapeWorkerPool);

interface TapeRead {
  readonly trades: number[];
  readonly failure: string | undefined;
  readonly parsedOn: string;
}

async function readTrades(file: string, thread: 'worker' | 'main'): Promise<TapeRead> {
  const tape = await TapeReader.open(file, { thread, supersedeWindow: 50, readerOptions: { chunkBytes: 64 * 1024 } });
  const trades: number[] = [];
  try {
    for await (const b of tape.batches()) for (let i = 0; i < b.count; i++) trades.push(b.price[i] as number, b.time[i] as number);
  } finally {
    await tape.close();
  }
  return { trades, failure: tape.workerFailure, parsedOn: tape.parsedOn };
}

it('reads the whole tape on the replay thread when the worker fails to start, and says why', async () => {
  dir = tempDir();
  const file = path.join(dir, 'tape.jsonl');
  await writeSyntheticHistory(file, { trades: 5_000, symbols: ['SYN-A', 'SYN-B'], seed: 11 });
  const inThread = await readTrades(file, 'main');
  const fallback = await readTrades(file, 'worker');
  expect(inThread.trades.length).toBe(10_000);
  expect(fallback.trades).toEqual(inThread.trades);
  expect(inThread.failure).toBeUndefined();
  expect(fallback.failure).toContain(BROKEN);
  expect(fallback.parsedOn).toBe('replay thread');
}, 60_000);

it('a backtest whose tape worker failed warns, and reports what an in-thread read reports', async () => {
  dir = tempDir();
  const file = path.join(dir, 'tape.jsonl');
  await writeSyntheticHistory(file, { trades: 3_000, symbols: ['SYN-A'], seed: 12, moveProbability: 0.05 });
  const strategy = await loadStrategy('market-maker');
  const params = { symbols: ['SYN-A'], halfSpread: '0.01', quoteQty: '2', maxInventory: '20' };
  const lines: string[] = [];
  const out = new PassThrough();
  out.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ),
  );
  const logger = createLogger({ pretty: false, level: 'warn', destination: out });
  const options = { config: testConfig(), data: file, strategy, params };
  const viaWorker = await runBacktest({ ...options, tapeThread: 'worker', logger });
  const inThread = await runBacktest({ ...options, tapeThread: 'main' });
  expect(inThread.report['fills']).toBeGreaterThan(0);
  expect(stableStringify(viaWorker.report)).toBe(stableStringify(inThread.report));
  expect(viaWorker.wall.tapeParsedOn).toBe('replay thread'); // run.json says so too
  const warnings = lines.map((l) => JSON.parse(l) as { level: string; msg: string; reason?: string; file?: string });
  expect(warnings).toContainEqual(
    expect.objectContaining({
      level: 'warn',
      msg: expect.stringContaining('the tape worker failed') as unknown,
      reason: expect.stringContaining(BROKEN) as unknown,
      file,
    }),
  );
}, 60_000);
