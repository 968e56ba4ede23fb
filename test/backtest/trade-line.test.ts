/**
 * The lazy trade-line parser: its fast path (on the line's bytes) and the strict full path give the same
 * facts on every line of the sample history (compact lines) and on family A full records; lines in another
 * layout take the codec path; a broken line is a typed error naming its line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHeader } from '../../backtest/history/format.ts';
import { newTradeFields, TradeLineParser } from '../../backtest/tape/trade-line.ts';
import { syntheticInstrument, syntheticTradeLine } from '../../backtest/tape/synthetic-history.ts';
import path from 'node:path';
import { TapeReader } from '../../backtest/tape/tape-reader.ts';
import { isTradebotError } from '../../src/errors.ts';
import { tempDir, writeHistory } from './helpers/history-file.ts';

describe('TradeLineParser', () => {
  it('reads every line of the sample history the same way on its fast path and on its full path', () => {
    const [first, ...lines] = readFileSync('backtest/data/sample.jsonl', 'utf8').trimEnd().split('\n');
    const header = parseHeader(first as string, 'sample');
    const parser = new TradeLineParser(header.source, header.instruments, 'sample', header.format ?? 'full');
    expect(header.format).toBe('compact');
    expect(lines.length).toBeGreaterThan(500);
    lines.forEach((line, i) => {
      const fast = newTradeFields();
      const full = newTradeFields();
      expect(parser.fast(line, fast)).toBe(true);
      parser.full(line, i + 2, full);
      expect(fast).toEqual(full);
    });
  });

  it('reads family A lines (whole and minimal records) the same both ways, busted state included', () => {
    const parser = new TradeLineParser('familyA', [syntheticInstrument('SYN-A')], 'f', 'full');
    for (const form of ['full', 'minimal'] as const) {
      for (const state of ['TRADE_STATE_NEW', 'TRADE_STATE_BUSTED'] as const) {
        const line = syntheticTradeLine(form, 7, 'SYN-A', false, 41, 3, '2026-11-30T14:00:01.250Z', state).trimEnd();
        const fast = newTradeFields();
        const full = newTradeFields();
        expect(parser.fast(line, fast)).toBe(true);
        parser.full(line, 2, full);
        expect(fast).toEqual(full);
        expect(fast).toMatchObject({
          sym: 0,
          price: 41,
          qty: 3,
          buy: false,
          time: Date.UTC(2026, 10, 30, 14, 0, 1, 250),
          stands: state === 'TRADE_STATE_NEW',
        });
      }
    }
  });

  it('sends lines in another layout to the codec path', () => {
    const parser = new TradeLineParser('familyA', [syntheticInstrument('SYN-A')], 'f', 'full');
    const canonical = JSON.parse(syntheticTradeLine('full', 7, 'SYN-A', true, 41, 3, '2026-11-30T14:00:01Z', 'TRADE_STATE_NEW')) as {
      trade: Record<string, unknown>;
    };
    const { passive, ...rest } = canonical.trade;
    const reordered = JSON.stringify({ type: 'trade', trade: { passive, ...rest } });
    const numbers = JSON.stringify(canonical).replace('"lastPx":"41"', '"lastPx":41');
    for (const line of [reordered, numbers]) {
      const out = newTradeFields();
      expect(parser.fast(line, out)).toBe(false);
      const bytes = Buffer.from(line);
      parser.parse(bytes, 0, bytes.length, 2, out);
      expect(out).toMatchObject({ price: 41, qty: 3, buy: true, time: Date.UTC(2026, 10, 30, 14, 0, 1) });
    }
    expect(parser.fullParses).toBe(2);
  });

  it('names the line of a trade it cannot read, with a stable code', () => {
    const parser = new TradeLineParser('familyA', [syntheticInstrument('SYN-A')], 'data.jsonl', 'full');
    const attempt = (line: string) => {
      try {
        const bytes = Buffer.from(line);
        parser.parse(bytes, 0, bytes.length, 12, newTradeFields());
        return undefined;
      } catch (error) {
        return error;
      }
    };
    const broken = attempt('{"type":"trade","trade":{"id":');
    expect(isTradebotError(broken) && broken.code).toBe('BACKTEST_BAD_LINE');
    expect(String((broken as Error).message)).toContain('data.jsonl:12');
  });

  it('refuses a trade in a symbol the header has no instrument for, naming its line', async () => {
    const file = writeHistory(path.join(tempDir(), 'h.jsonl'), [
      { at: 1000, price: 41, qty: 1, side: 'buy' },
      { at: 2000, price: 41, qty: 1, side: 'buy', symbol: 'SYN-Z' },
    ]);
    const tape = await TapeReader.open(file);
    const read = async () => {
      for await (const batch of tape.batches()) void batch;
    };
    await expect(read()).rejects.toMatchObject({ code: 'BACKTEST_UNKNOWN_SYMBOL', message: expect.stringContaining('h.jsonl:3') });
  });
});
