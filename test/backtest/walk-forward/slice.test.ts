// A walk-forward window's slice of a tape: the header's from/to set to the window, exactly the trade lines
// whose time lies in [from, to) copied byte for byte, a name made of the tape's and the window's, recordings
// refused; the slice cache cuts a slice once for concurrent runs and deletes the least recently used idle one.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTradeHeader, sliceName, writeSlice } from '../../../backtest/walk-forward/slice.ts';
import { SliceCache } from '../../../backtest/walk-forward/slice-cache.ts';
import { tempDir } from '../helpers/history-file.ts';

const SAMPLE = 'backtest/data/sample.jsonl';
const WINDOW = { from: Date.parse('2026-11-30T14:15:00.000Z'), to: Date.parse('2026-11-30T14:25:00.000Z') };

describe('writeSlice', () => {
  it('keeps the header (with the window as from/to) and the trade lines of the window, unchanged', async () => {
    const file = path.join(tempDir(), sliceName(SAMPLE, WINDOW));
    expect(path.basename(file)).toBe('sample.20261130T141500Z-20261130T142500Z.jsonl');
    const kept = await writeSlice(SAMPLE, WINDOW, file);
    const [header, ...trades] = readFileSync(file, 'utf8').trimEnd().split('\n');
    const original = readFileSync(SAMPLE, 'utf8').trimEnd().split('\n');
    const inWindow = original.slice(1).filter((line) => {
      const t = Date.parse((JSON.parse(line) as { time: string }).time);
      return t >= WINDOW.from && t < WINDOW.to;
    });
    expect(kept).toBe(inWindow.length);
    expect(kept).toBeGreaterThan(100);
    expect(trades).toEqual(inWindow);
    expect(JSON.parse(header ?? '{}')).toEqual({
      ...(JSON.parse(original[0] ?? '{}') as object),
      from: '2026-11-30T14:15:00.000Z',
      to: '2026-11-30T14:25:00.000Z',
    });
    expect((await readTradeHeader(file)).from).toBe(WINDOW.from);
  });

  it('refuses a recording, which has no trades to cut', async () => {
    const file = path.join(tempDir(), 'session.jsonl');
    const header = { type: 'header', version: 2, kind: 'recording', source: 'gateway', symbols: [] };
    const at = '2026-11-30T14:00:00.000Z';
    writeFileSync(file, `${JSON.stringify({ ...header, from: at, to: at, instruments: [] })}\n`);
    await expect(readTradeHeader(file)).rejects.toMatchObject({ code: 'WALK_FORWARD_RECORDING' });
  });
});

describe('SliceCache', () => {
  it('cuts a slice once for runs that ask together, and deletes the least recently used idle slice beyond its size', async () => {
    const cache = new SliceCache(path.join(tempDir(), 'slices'), 2);
    const [a, b] = await Promise.all([cache.acquire(SAMPLE, WINDOW), cache.acquire(SAMPLE, WINDOW)]);
    expect(a.file).toBe(b.file);
    a.release();
    b.release();
    const minute = 60_000;
    const second = await cache.acquire(SAMPLE, { from: WINDOW.from, to: WINDOW.to + minute });
    const third = await cache.acquire(SAMPLE, { from: WINDOW.from, to: WINDOW.to + 2 * minute });
    // three slices, room for two: the idle first one goes; the two held ones stay
    expect(existsSync(a.file)).toBe(false);
    expect([existsSync(second.file), existsSync(third.file)]).toEqual([true, true]);
    second.release();
    third.release();
    await cache.close();
    expect(existsSync(third.file)).toBe(false);
  });
});
