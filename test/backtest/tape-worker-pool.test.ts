/**
 * The tape worker pool (tape-worker-pool.ts): a replay after a clean one gets the same, warm worker (and the
 * same trades and counts as the in-thread reader); a worker whose replay was closed early or aborted, or
 * whose job failed (a bad line in the middle of a file, an unknown symbol), is terminated and never
 * reused, and the next replay still works; the pool keeps at most MAX_IDLE_TAPE_WORKERS and keeps tsx-entry
 * workers apart from bundled ones; and a process that replayed on a pooled worker exits on its own.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeHeader, parseHeader } from '../../backtest/history/format.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { syntheticCompactLine, syntheticInstrument, writeSyntheticHistory } from '../../backtest/tape/synthetic-history.ts';
import { TapeReader } from '../../backtest/tape/tape-reader.ts';
import { TapeThread } from '../../backtest/tape/tape-thread.ts';
import {
  closeTapeWorkerPool,
  MAX_IDLE_TAPE_WORKERS,
  tapeWorkerPoolStats,
  type TapeWorkerPoolStats,
} from '../../backtest/tape/tape-worker-pool.ts';
import { tempDir, testConfig, T0 } from './helpers/history-file.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = path.join(ROOT, 'test', 'backtest', 'helpers', 'pool-exit-probe.ts');

let dir: string;
beforeEach(async () => {
  await closeTapeWorkerPool();
  dir = tempDir();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
afterAll(closeTapeWorkerPool);

interface Read {
  readonly trades: number[][];
  readonly stats: Record<string, number>;
}

function rows(
  b: {
    count: number;
    sym: ArrayLike<number>;
    price: ArrayLike<number>;
    qty: ArrayLike<number>;
    buy: ArrayLike<number>;
    time: ArrayLike<number>;
    line: ArrayLike<number>;
  },
  into: number[][],
): void {
  for (let i = 0; i < b.count; i++)
    into.push([b.sym[i] as number, b.price[i] as number, b.qty[i] as number, b.buy[i] as number, b.time[i] as number, b.line[i] as number]);
}

function open(file: string, thread: 'worker' | 'main', handover: number | undefined = 0): Promise<TapeReader> {
  return TapeReader.open(file, {
    thread,
    supersedeWindow: 50,
    readerOptions: { chunkBytes: 64 * 1024 },
    ...(handover === undefined ? {} : { handover }),
  });
}

async function drain(tape: TapeReader): Promise<Read> {
  const trades: number[][] = [];
  try {
    for await (const b of tape.batches()) rows(b, trades);
  } finally {
    await tape.close();
  }
  return { trades, stats: { ...tape.stats } };
}

/** Reads the whole file; on the worker from line 1 by default (handover 0), so every read has a job. */
async function readAll(file: string, thread: 'worker' | 'main', handover: number | undefined = 0): Promise<Read> {
  return drain(await open(file, thread, handover));
}

/** What changed in the pool's counters since `before`. */
function since(before: TapeWorkerPoolStats): TapeWorkerPoolStats {
  const now = tapeWorkerPoolStats();
  return {
    started: now.started - before.started,
    reused: now.reused - before.reused,
    discarded: now.discarded - before.discarded,
    idle: now.idle,
  };
}

async function history(name: string, trades: number): Promise<string> {
  const file = path.join(dir, name);
  await writeSyntheticHistory(file, { trades, symbols: ['SYN-A', 'SYN-B'], seed: 6, bustEvery: 40 });
  return file;
}

describe('tape worker pool', () => {
  it('gives a second replay the worker the first one finished with, warm, and the same trades', async () => {
    const file = await history('reuse.jsonl', 20_000);
    const inThread = await readAll(file, 'main');
    const s0 = tapeWorkerPoolStats();
    const first = await readAll(file, 'worker');
    expect(since(s0)).toEqual({ started: 1, reused: 0, discarded: 0, idle: 1 });
    const second = await readAll(file, 'worker');
    expect(since(s0)).toEqual({ started: 1, reused: 1, discarded: 0, idle: 1 });
    // a hand-over from the replay thread's first lines works on a reused worker too
    const third = await readAll(file, 'worker', 7_000);
    expect(since(s0)).toEqual({ started: 1, reused: 2, discarded: 0, idle: 1 });
    for (const read of [first, second, third]) {
      expect(read.stats).toEqual(inThread.stats);
      expect(read.trades).toEqual(inThread.trades);
    }
  }, 60_000);

  it('terminates the worker of a replay closed early or aborted, and the next replay still works', async () => {
    const file = await history('early.jsonl', 20_000);
    const whole = await readAll(file, 'worker');
    const s0 = tapeWorkerPoolStats();
    expect(s0.idle).toBe(1);
    const tape = await open(file, 'worker');
    for await (const b of tape.batches()) if (b.count > 0) break; // stops after its first batch
    await tape.close();
    expect(since(s0)).toEqual({ started: 0, reused: 1, discarded: 1, idle: 0 });
    expect(await readAll(file, 'worker')).toEqual(whole);
    expect(since(s0)).toEqual({ started: 1, reused: 1, discarded: 1, idle: 1 });

    // a backtest aborted at its first batch: its tape worker (whether it had started its job or not) is not pooled
    const controller = new AbortController();
    const config = testConfig({ latency: { insertMs: 20, cancelMs: 20 } });
    const params = { symbols: ['SYN-A', 'SYN-B'], halfSpread: '0.01', quoteQty: '2', maxInventory: '20' };
    await runBacktest({
      data: file,
      config,
      strategy: 'market-maker',
      params,
      tapeThread: 'worker',
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(since(s0)).toEqual({ started: 1, reused: 2, discarded: 2, idle: 0 });
    expect(await readAll(file, 'worker')).toEqual(whole);
    expect(since(s0)).toEqual({ started: 2, reused: 2, discarded: 2, idle: 1 });
  }, 60_000);

  it('does not pool a worker whose job failed: a bad line in the middle of a file, an unknown symbol', async () => {
    const good = await history('good.jsonl', 5_000);
    const whole = await readAll(good, 'worker');
    // 60k trades with a broken line in the middle: the worker has handed over many commits before it fails
    const bad = await history('bad.jsonl', 60_000);
    const lines = readFileSync(bad, 'utf8').split('\n');
    const at = 30_001; // 1-based line number
    lines[at - 1] = '{"type":"trade","id":"T9","symbol":"SYN-A","price":"0.415","qty":';
    writeFileSync(bad, lines.join('\n'));
    const s0 = tapeWorkerPoolStats();
    await expect(readAll(bad, 'worker')).rejects.toMatchObject({
      code: 'BACKTEST_BAD_LINE',
      message: expect.stringContaining(`bad.jsonl:${at}:`),
    });
    expect(since(s0)).toEqual({ started: 0, reused: 1, discarded: 1, idle: 0 });
    expect(await readAll(good, 'worker')).toEqual(whole);
    expect(since(s0)).toEqual({ started: 1, reused: 1, discarded: 1, idle: 1 });

    const unknown = path.join(dir, 'unknown.jsonl');
    const t = new Date(T0 + 1000).toISOString();
    writeFileSync(
      unknown,
      encodeHeader({
        kind: 'history',
        format: 'compact',
        source: 'familyA',
        symbols: ['SYN-A'],
        from: T0,
        to: T0 + 60_000,
        instruments: [syntheticInstrument('SYN-A')],
      }) +
        syntheticCompactLine(1, 'SYN-A', true, 41, 1, t, 'TRADE_STATE_NEW') +
        syntheticCompactLine(2, 'SYN-Z', true, 41, 1, t, 'TRADE_STATE_NEW'),
    );
    await expect(readAll(unknown, 'worker')).rejects.toMatchObject({
      code: 'BACKTEST_UNKNOWN_SYMBOL',
      message: expect.stringContaining('unknown.jsonl:3'),
    });
    expect(since(s0)).toEqual({ started: 1, reused: 2, discarded: 2, idle: 0 });
    expect(await readAll(good, 'worker')).toEqual(whole);
    expect(since(s0)).toEqual({ started: 2, reused: 2, discarded: 2, idle: 1 });
  }, 60_000);

  it(`keeps at most ${MAX_IDLE_TAPE_WORKERS} idle workers, and tsx-entry workers apart from bundled ones`, async () => {
    const file = await history('cap.jsonl', 5_000);
    const s0 = tapeWorkerPoolStats();
    // three tapes open at once (each has its worker before any job can end), then read concurrently
    const tapes = await Promise.all([0, 1, 2].map(() => open(file, 'worker')));
    const reads = await Promise.all(tapes.map(drain));
    expect(reads[1]).toEqual(reads[0]);
    expect(reads[2]).toEqual(reads[0]);
    expect(since(s0)).toEqual({ started: 3, reused: 0, discarded: 1, idle: 2 });
    await closeTapeWorkerPool();
    expect(tapeWorkerPoolStats().idle).toBe(0);

    // a worker started through tsx (tape-worker.mjs) serves only replays that asked for that entry
    const headerLine = readFileSync(file, 'utf8').split('\n', 1)[0] as string;
    const viaTsx = async (): Promise<number[][]> => {
      const thread = new TapeThread(file, headerLine, parseHeader(headerLine, file), {
        supersedeWindow: 50,
        chunkBytes: 64 * 1024,
        entry: 'tsx',
      });
      thread.start({ offset: 0, line: 1 });
      const trades: number[][] = [];
      try {
        for await (const { batch } of thread.batches()) rows(batch, trades);
      } finally {
        await thread.close();
      }
      await thread.exited; // back in the pool
      return trades;
    };
    const s1 = tapeWorkerPoolStats();
    expect(await viaTsx()).toEqual(reads[0]?.trades);
    expect(since(s1)).toEqual({ started: 1, reused: 0, discarded: 0, idle: 1 });
    expect(await readAll(file, 'worker')).toEqual(reads[0]);
    expect(since(s1)).toEqual({ started: 2, reused: 0, discarded: 0, idle: 2 });
    expect(await viaTsx()).toEqual(reads[0]?.trades);
    expect(await readAll(file, 'worker')).toEqual(reads[0]);
    expect(since(s1)).toEqual({ started: 2, reused: 2, discarded: 0, idle: 2 });
  }, 60_000);

  it('lets the process exit on its own with a warm worker in the pool', async () => {
    const file = await history('exit.jsonl', 5_000);
    const whole = await readAll(file, 'main');
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      // the timeout (a hang) kills the child: its exit code is then null
      const child = execFile(process.execPath, ['--import', 'tsx', PROBE, file], { cwd: ROOT, timeout: 25_000 }, (_error, out, err) =>
        resolve({ code: child.exitCode, stdout: out, stderr: err }),
      );
    });
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      stats: TapeWorkerPoolStats;
      reads: { trades: number; lastLine: number }[];
    };
    expect(result.stats).toEqual({ started: 1, reused: 1, discarded: 0, idle: 1 });
    const expected = { trades: whole.trades.length, lastLine: whole.trades.at(-1)?.[5] };
    expect(result.reads).toEqual([expected, expected]);
  }, 30_000);
});
