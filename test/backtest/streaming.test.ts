/**
 * Replay streams the history: a 200k-trade file is read chunk by chunk while the strategy already trades,
 * never loaded whole (a spy on the line reader records how far the file had been read at each point).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { readLineBatches, type LineReader } from '../../backtest/tape/line-reader.ts';
import { writeSyntheticHistory } from '../../backtest/tape/synthetic-history.ts';
import { scripted, tempDir, testConfig } from './helpers/history-file.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('streaming replay', () => {
  it('reads a 200k-trade history incrementally while replaying it', async () => {
    dir = tempDir();
    const file = path.join(dir, 'big.jsonl');
    const { bytes } = await writeSyntheticHistory(file, { trades: 200_000, symbols: ['SYN-A', 'SYN-B'], moveProbability: 0.01 });
    let bytesRead = 0;
    const reads: number[] = [];
    const spy: LineReader = (f, options) =>
      readLineBatches(f, {
        ...options,
        chunkBytes: 256 * 1024,
        onRead: (n) => {
          bytesRead = n;
          reads.push(n);
        },
      });
    const seenAtBook: number[] = [];
    const strategy = scripted({
      onBook: () => {
        seenAtBook.push(bytesRead);
      },
    });
    const result = await runBacktest({ data: file, config: testConfig(), strategy, params: { symbols: ['SYN-A', 'SYN-B'] }, reader: spy });
    expect(result.report['events']).toBe(200_000);
    expect(reads.length).toBeGreaterThan(bytes / (256 * 1024));
    // the strategy saw its first book once the first trades left the 10k-record supersede window (5 %)
    expect((seenAtBook[0] ?? Infinity) / bytes).toBeLessThan(0.1);
    // and books kept coming while the file was still being read, in step with it
    const midway = seenAtBook[Math.floor(seenAtBook.length / 2)] ?? 0;
    expect(midway / bytes).toBeGreaterThan(0.3);
    expect(midway / bytes).toBeLessThan(0.7);
  }, 60_000);
});
