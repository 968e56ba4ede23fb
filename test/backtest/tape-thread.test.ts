/**
 * The tape worker (tape-thread.ts / tape-worker.ts): the same trades, in the same batches' order, and the
 * same counts as the in-thread reader, busts, empty lines and lines that need the full parser included;
 * a bad line or an unknown symbol comes back as its TradebotError naming the line; the worker stays a
 * bounded number of batches ahead of the replay; closing early ends the worker; and a whole backtest
 * gives a byte-identical report either way.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { encodeHeader } from '../../backtest/history/format.ts';
import { stableStringify } from '../../backtest/results/stable-json.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import {
  syntheticCompactLine,
  syntheticInstrument,
  syntheticTradeLine,
  writeSyntheticHistory,
} from '../../backtest/tape/synthetic-history.ts';
import { TapeReader } from '../../backtest/tape/tape-reader.ts';
import { TapeThread, type TapeThreadOptions } from '../../backtest/tape/tape-thread.ts';
import { tapeWorkerBundle } from '../../backtest/tape/worker-bundle.ts';
import { closeTapeWorkerPool } from '../../backtest/tape/tape-worker-pool.ts';
import { parseHeader } from '../../backtest/history/format.ts';
import { tempDir, testConfig, T0 } from './helpers/history-file.ts';
import { loadStrategy } from '../../src/engine/strategy/loader.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
afterAll(closeTapeWorkerPool); // the workers of clean reads wait in the pool

interface Read {
  readonly trades: number[][];
  readonly stats: Record<string, number>;
}

async function readAll(
  file: string,
  thread: 'worker' | 'main',
  options: { chunkBytes?: number; supersedeWindow?: number; handover?: number } = {},
): Promise<Read> {
  const tape = await TapeReader.open(file, {
    thread,
    supersedeWindow: options.supersedeWindow ?? 50,
    readerOptions: { chunkBytes: options.chunkBytes ?? 64 * 1024 },
    ...(options.handover === undefined ? {} : { handover: options.handover }),
  });
  expect(tape.thread).toBe(thread);
  const trades: number[][] = [];
  try {
    for await (const b of tape.batches()) {
      for (let i = 0; i < b.count; i++)
        trades.push([
          b.sym[i] as number,
          b.price[i] as number,
          b.qty[i] as number,
          b.buy[i] as number,
          b.time[i] as number,
          b.line[i] as number,
        ]);
    }
  } finally {
    await tape.close();
  }
  return { trades, stats: { ...tape.stats } };
}

/** The same through a TapeThread with the given ring. */
async function readThread(file: string, options: TapeThreadOptions): Promise<Read> {
  const headerLine = readFileSync(file, 'utf8').split('\n', 1)[0] as string;
  const thread = new TapeThread(file, headerLine, parseHeader(headerLine, file), options);
  thread.start({ offset: 0, line: 1 });
  const trades: number[][] = [];
  let stats: Record<string, number> = {};
  try {
    for await (const { batch: b, stats: s } of thread.batches()) {
      for (let i = 0; i < b.count; i++)
        trades.push([
          b.sym[i] as number,
          b.price[i] as number,
          b.qty[i] as number,
          b.buy[i] as number,
          b.time[i] as number,
          b.line[i] as number,
        ]);
      stats = { ...s };
    }
  } finally {
    await thread.close();
  }
  return { trades, stats };
}

/**
 * A history (compact, or full family A records) with busts, duplicates, empty lines, zero quantities and lines
 * only the full parser reads.
 */
async function mixedHistory(file: string, format: 'compact' | 'full' = 'full'): Promise<void> {
  await writeSyntheticHistory(file, {
    trades: 20_000,
    symbols: ['SYN-A', 'SYN-B', 'SYN-C'],
    seed: 5,
    format,
    detail: 'minimal',
    bustEvery: 9,
    moveProbability: 0.05,
  });
  const time = (k: number) => new Date(T0 + 10_000_000 + k * 10).toISOString();
  const tradeLine = (n: number, symbol: string, buy: boolean, price: number, qty: number, at: string) =>
    format === 'compact'
      ? syntheticCompactLine(n, symbol, buy, price, qty, at, 'TRADE_STATE_NEW')
      : syntheticTradeLine('full', n, symbol, buy, price, qty, at, 'TRADE_STATE_NEW');
  let extra = '\n';
  for (let k = 0; k < 300; k++) {
    const line = tradeLine(100_000 + k, k % 2 === 0 ? 'SYN-A' : 'SYN-B', k % 3 === 0, 40 + (k % 5), 1 + (k % 4), time(k));
    if (k % 10 === 0) {
      // other key order: only the full parser reads it
      const json = JSON.parse(line) as Record<string, unknown> & { trade: Record<string, unknown> };
      if (format === 'compact') {
        const { id, ...rest } = json;
        extra += `${JSON.stringify({ ...rest, id })}\n`;
      } else {
        const { passive, ...rest } = json.trade;
        extra += `${JSON.stringify({ type: 'trade', trade: { passive, ...rest } })}\n`;
      }
    } else if (k % 10 === 1) {
      extra += tradeLine(100_000 + k, 'SYN-A', true, 41, 0, time(k)); // zero quantity
    } else if (k % 10 === 2) {
      extra += `${line}${line}\n`; // a duplicate and an empty line
    } else {
      extra += line;
    }
  }
  appendFileSync(file, extra);
}

describe('tape worker', () => {
  it.each(['full', 'compact'] as const)(
    'gives the same trades and counts as the in-thread reader (%s format)',
    async (format) => {
      dir = tempDir();
      const file = path.join(dir, 'mixed.jsonl');
      await mixedHistory(file, format);
      const inThread = await readAll(file, 'main');
      const worker = await readAll(file, 'worker', { handover: 0 });
      expect(inThread.trades.length).toBeGreaterThan(17_000);
      expect(inThread.stats['busted']).toBeGreaterThan(1000);
      expect(inThread.stats['fullParses']).toBeGreaterThan(0);
      expect(inThread.stats['empty']).toBeGreaterThan(0);
      expect(inThread.stats['duplicates']).toBeGreaterThan(0);
      expect(worker.stats).toEqual(inThread.stats);
      expect(worker.trades).toEqual(inThread.trades);
      // the replay thread reads the first lines, then the worker carries on with its window and counts
      // (busts on both sides of the line where it takes over), at a few lines, and as soon as it is up
      for (const handover of [7_000, 12_345, 19_999, undefined]) {
        const handedOver = await readAll(file, 'worker', handover === undefined ? {} : { handover });
        expect(handedOver.stats).toEqual(inThread.stats);
        expect(handedOver.trades).toEqual(inThread.trades);
      }
      // a ring much smaller than the file: it wraps around, and commits wait for room
      const small = await readThread(file, { supersedeWindow: 50, chunkBytes: 64 * 1024, ringTrades: 700, ringCommits: 3 });
      expect(small.stats).toEqual(inThread.stats);
      expect(small.trades).toEqual(inThread.trades);
      // the worker started through tsx (tape-worker.mjs) instead of from the esbuild bundle
      const viaTsx = await readThread(file, { supersedeWindow: 50, chunkBytes: 64 * 1024, entry: 'tsx' });
      expect(viaTsx.stats).toEqual(inThread.stats);
      expect(viaTsx.trades).toEqual(inThread.trades);
    },
    60_000,
  );

  it('starts its worker from the esbuild bundle, and ends cleanly when closed before the worker has started', async () => {
    const code = await tapeWorkerBundle();
    expect(code).toContain('TradeExtractor');
    expect(code).not.toMatch(/^import /m); // one plain script: nothing left for a loader
    dir = tempDir();
    const file = path.join(dir, 'short.jsonl');
    await writeSyntheticHistory(file, { trades: 100, symbols: ['SYN-A'], seed: 4 });
    const headerLine = readFileSync(file, 'utf8').split('\n', 1)[0] as string;
    for (const entry of ['bundle', 'tsx'] as const) {
      const thread = new TapeThread(file, headerLine, parseHeader(headerLine, file), { supersedeWindow: 10, entry });
      await thread.close();
      await thread.exited;
      expect(thread.ready).toBe(false);
      // the bundle's worker had not been created yet when closed: waiting for it fails instead of hanging
      if (entry === 'bundle')
        await expect(thread.whenReady()).rejects.toMatchObject({
          code: 'BACKTEST_DATA_UNREADABLE',
          message: expect.stringContaining('closed before it started'),
        });
    }
  }, 60_000);

  it.each(['full', 'compact'] as const)(
    'reports a bad line with its code and line number (%s format)',
    async (format) => {
      dir = tempDir();
      const file = path.join(dir, 'bad.jsonl');
      await writeSyntheticHistory(file, { trades: 3000, symbols: ['SYN-A'], seed: 2, format, detail: 'minimal' });
      appendFileSync(
        file,
        format === 'full'
          ? '{"type":"trade","trade":{"id":"T9","aggressor":\n'
          : '{"type":"trade","id":"T9","symbol":"SYN-A","price":"0.415","qty":"1","side":"BUY",' +
              '"time":"2026-12-01T00:00:00.000Z","state":"TRADE_STATE_NEW"}\n',
      );
      await expect(readAll(file, 'worker', { handover: 0 })).rejects.toMatchObject({
        code: 'BACKTEST_BAD_LINE',
        message: expect.stringContaining('bad.jsonl:3002:'),
      });
      await expect(readAll(file, 'worker', { handover: 1500 })).rejects.toMatchObject({
        code: 'BACKTEST_BAD_LINE',
        message: expect.stringContaining('bad.jsonl:3002:'),
      });
      await expect(readAll(file, 'main')).rejects.toMatchObject({
        code: 'BACKTEST_BAD_LINE',
        message: expect.stringContaining('bad.jsonl:3002:'),
      });
    },
    60_000,
  );

  it.each(['full', 'compact'] as const)(
    'reports a trade in a symbol the header does not have, naming its line (%s format)',
    async (format) => {
      dir = tempDir();
      const file = path.join(dir, 'unknown.jsonl');
      const header = encodeHeader({
        kind: 'history',
        format,
        source: 'familyA',
        symbols: ['SYN-A'],
        from: T0,
        to: T0 + 60_000,
        instruments: [syntheticInstrument('SYN-A')],
      });
      const t = new Date(T0 + 1000).toISOString();
      const line = format === 'full' ? syntheticTradeLine.bind(undefined, 'full') : syntheticCompactLine;
      writeFileSync(
        file,
        header + line(1, 'SYN-A', true, 41, 1, t, 'TRADE_STATE_NEW') + line(2, 'SYN-Z', true, 41, 1, t, 'TRADE_STATE_NEW'),
      );
      await expect(readAll(file, 'worker', { handover: 0 })).rejects.toMatchObject({
        code: 'BACKTEST_UNKNOWN_SYMBOL',
        message: expect.stringContaining('unknown.jsonl:3'),
      });
    },
    60_000,
  );

  it.each(['bundle', 'tsx'] as const)(
    'fails a read and whenReady() waiting when closed from outside, instead of hanging (%s worker)',
    async (entry) => {
      dir = tempDir();
      const file = path.join(dir, 'idle.jsonl');
      await writeSyntheticHistory(file, { trades: 100, symbols: ['SYN-A'], seed: 5 });
      const headerLine = readFileSync(file, 'utf8').split('\n', 1)[0] as string;
      const thread = new TapeThread(file, headerLine, parseHeader(headerLine, file), { supersedeWindow: 10, entry });
      await thread.whenReady();
      // never told where to start: nothing will ever be committed, so this read waits until the close
      const reading = expect(thread.batches().next()).rejects.toMatchObject({
        code: 'BACKTEST_DATA_UNREADABLE',
        message: expect.stringContaining('closed before the end of the file'),
      });
      await thread.close();
      await reading;
      await expect(thread.whenReady()).rejects.toMatchObject({ code: 'BACKTEST_DATA_UNREADABLE' });
      await thread.exited;
    },
    60_000,
  );

  it('stays a bounded number of batches ahead, and ends when closed early', async () => {
    dir = tempDir();
    const file = path.join(dir, 'long.jsonl');
    const { bytes } = await writeSyntheticHistory(file, { trades: 60_000, symbols: ['SYN-A'], seed: 3, format: 'full' });
    const headerLine = encodeHeader({
      kind: 'history',
      source: 'familyA',
      symbols: ['SYN-A'],
      from: T0,
      to: T0 + 1,
      instruments: [syntheticInstrument('SYN-A')],
    }).trimEnd();
    const thread = new TapeThread(file, headerLine, parseHeader(headerLine, file), {
      supersedeWindow: 10,
      chunkBytes: 64 * 1024,
      ringTrades: 2000,
      ringCommits: 4,
    });
    thread.start({ offset: 0, line: 1 });
    try {
      await thread.waited(1); // the ring filled and the worker stopped
      expect(thread.inFlight).toBeLessThanOrEqual(4);
      const seen: number[] = [];
      for await (const { batch, bytesRead } of thread.batches()) {
        seen.push(bytesRead);
        expect(batch.count).toBeGreaterThan(0);
        expect(thread.inFlight).toBeLessThanOrEqual(4);
        if (seen.length === 6) break;
      }
      await thread.waited(2); // room again, filled again
      expect(thread.inFlight).toBeLessThanOrEqual(4);
      expect(seen.every((b) => b < bytes / 4)).toBe(true);
    } finally {
      await thread.close();
    }
    await thread.exited;
  }, 60_000);

  it('refills the ring once a quarter of it is free, not only once the replay thread has emptied it', async () => {
    dir = tempDir();
    const file = path.join(dir, 'refill.jsonl');
    await writeSyntheticHistory(file, { trades: 20_000, symbols: ['SYN-A'], seed: 6 });
    const headerLine = readFileSync(file, 'utf8').split('\n', 1)[0] as string;
    // ~200 trades a commit: the 2000-trade ring holds ~10 commits, fewer than a quarter of the 64 slots
    const thread = new TapeThread(file, headerLine, parseHeader(headerLine, file), {
      supersedeWindow: 10,
      chunkBytes: 32 * 1024,
      ringTrades: 2000,
      ringCommits: 64,
    });
    thread.start({ offset: 0, line: 1 });
    try {
      await thread.waited(1); // the ring is full
      const full = thread.inFlight;
      expect(full).toBeGreaterThan(3);
      expect(full).toBeLessThan(16);
      const batches = thread.batches();
      let taken = 0;
      while (taken <= 700) {
        const next = await batches.next();
        expect(next.done).toBe(false);
        taken += next.done === true ? 0 : next.value.batch.count;
      }
      await batches.next(); // releases the commit taken last: well over a quarter of the ring is free now
      await thread.waited(2); // the writer filled it up again (it used to wait until every commit was released)
      expect(thread.inFlight).toBeGreaterThan(full / 2);
      await batches.return(undefined);
    } finally {
      await thread.close();
    }
    await thread.exited;
  }, 30_000);

  it('gives a byte-identical report.json to the in-thread reader', async () => {
    dir = tempDir();
    const file = path.join(dir, 'run.jsonl');
    await writeSyntheticHistory(file, { trades: 30_000, symbols: ['SYN-A', 'SYN-B'], seed: 8, bustEvery: 50, moveProbability: 0.05 });
    const strategy = await loadStrategy('market-maker');
    const config = testConfig({ latency: { insertMs: 20, cancelMs: 20 } });
    const params = { symbols: ['SYN-A', 'SYN-B'], halfSpread: '0.01', quoteQty: '2', maxInventory: '20' };
    const main = await runBacktest({ data: file, config, strategy, params, tapeThread: 'main' });
    const worker = await runBacktest({ data: file, config, strategy, params, tapeThread: 'worker' });
    expect(main.report['fills']).toBeGreaterThan(0);
    expect(stableStringify(worker.report)).toBe(stableStringify(main.report));
    // run.json says which thread parsed the tape
    expect(worker.wall.tapeParsedOn).toBe('worker');
    expect(main.wall.tapeParsedOn).toBe('replay thread');
  }, 120_000);
});
