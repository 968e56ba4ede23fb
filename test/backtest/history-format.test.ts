/**
 * The history file formats (history/format.ts): the version 2 header names its format, version 1 files (the
 * exchange's full records, no format) still load, anything else is refused naming what is read; the compact
 * lines the history writer makes from the exchange's records are the synthetic writer's; and the same trades
 * in the compact format, the full format and a version 1 file replay to a byte-identical report.json, in the
 * replay thread and on the tape worker.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compactTradeOf, encodeCompactTradeLine } from '../../backtest/history/compact-trade.ts';
import { encodeHeader, parseHeader, type HistoryHeader } from '../../backtest/history/format.ts';
import { stableStringify } from '../../backtest/results/stable-json.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { syntheticInstrument, writeSyntheticHistory, type SyntheticOptions } from '../../backtest/tape/synthetic-history.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { familyA, scalesOf } from '../../src/domain/index.ts';
import { loadStrategy } from '../../src/engine/strategy/loader.ts';
import { isTradebotError } from '../../src/errors.ts';
import { T0, tempDir, testConfig } from './helpers/history-file.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const header: HistoryHeader = {
  kind: 'history',
  format: 'compact',
  source: 'gateway',
  symbols: ['SYN-A'],
  from: T0,
  to: T0 + 60_000,
  instruments: [syntheticInstrument('SYN-A')],
};

function headerError(json: Record<string, unknown>): string {
  try {
    parseHeader(JSON.stringify(json), 'h.jsonl');
  } catch (error) {
    if (isTradebotError(error) && error.code === 'BACKTEST_BAD_HEADER') return error.message;
    throw error;
  }
  throw new Error(`header accepted: ${JSON.stringify(json)}`);
}

/** `file` in folder `name` of the test's dir (report.json names the file, so the reports to compare share it). */
function fileIn(name: string): string {
  const folder = path.join(dir as string, name);
  mkdirSync(folder);
  return path.join(folder, 'tape.jsonl');
}

describe('history headers', () => {
  it('write version 2 with the format, and read it back', () => {
    for (const format of ['compact', 'full'] as const) {
      const line = encodeHeader({ ...header, format });
      expect(line).toMatch(new RegExp(`^\\{"type":"header","version":2,"format":"${format}","source":"gateway",`));
      expect(parseHeader(line, 'h.jsonl')).toEqual({ ...header, format });
    }
    // a recording has none
    expect(encodeHeader({ ...header, kind: 'recording', format: undefined })).not.toContain('format');
  });

  it('carry the settlements the exchange showed (history fetch, #22), and refuse bad ones', () => {
    const settlements = [{ symbol: 'SYN-A', state: 'INSTRUMENT_STATE_EXPIRED' as const, settlementPx: new Decimal(1) }];
    const line = encodeHeader({ ...header, settlements });
    expect(line).toContain('"settlements":[{"symbol":"SYN-A","state":"INSTRUMENT_STATE_EXPIRED","settlementPx":"1"}]');
    expect(parseHeader(line, 'h.jsonl')).toEqual({ ...header, settlements });
    const json = JSON.parse(line) as Record<string, unknown>;
    expect(headerError({ ...json, settlements: [{ symbol: 'OTHER', state: 'INSTRUMENT_STATE_EXPIRED', settlementPx: '1' }] })).toContain(
      "settlements[0].symbol must be one of the header's symbols",
    );
    expect(headerError({ ...json, settlements: [{ symbol: 'SYN-A', state: 'INSTRUMENT_STATE_EXPIRED', settlementPx: 1 }] })).toContain(
      'settlements[0].settlementPx must be a decimal string from 0 to 1, got 1',
    );
    expect(headerError({ ...json, settlements: [{ symbol: 'SYN-A', state: 'GONE', settlementPx: '1' }] })).toContain(
      'settlements[0].state must be an instrument state',
    );
  });

  it('read version 1 files as the full format', () => {
    const v1 = JSON.parse(encodeHeader({ ...header, format: 'full' })) as Record<string, unknown>;
    delete v1['format'];
    v1['version'] = 1;
    expect(parseHeader(JSON.stringify(v1), 'h.jsonl')).toEqual({ ...header, format: 'full' });
  });

  it('refuse an unknown version or format, naming what is read', () => {
    const v2 = JSON.parse(encodeHeader(header)) as Record<string, unknown>;
    expect(headerError({ ...v2, version: 3 })).toContain(
      'history version 3: this tradebot reads versions 1 and 2 (the file is newer: update tradebot)',
    );
    expect(headerError({ ...v2, format: 'tiny' })).toContain('format must be "compact" or "full", got "tiny"');
    const { format: _format, ...noFormat } = v2;
    expect(headerError(noFormat)).toContain('format must be "compact" or "full", got undefined');
    expect(headerError({ ...v2, version: 1 })).toContain('version 1 histories are full-format, got format "compact"');
    expect(headerError({ ...v2, kind: 'recording', version: 2 })).toContain('a recording has no format');
  });
});

describe('the same trades in both formats', () => {
  const options: SyntheticOptions = { trades: 30_000, symbols: ['SYN-A', 'SYN-B'], seed: 8, bustEvery: 40, moveProbability: 0.05 };

  it('are the compact lines the history writer makes of the full records', async () => {
    dir = tempDir();
    const compact = fileIn('compact');
    const full = fileIn('full');
    await writeSyntheticHistory(compact, { ...options, trades: 3000 });
    await writeSyntheticHistory(full, { ...options, trades: 3000, format: 'full' });
    const [compactHeader, ...compactLines] = readFileSync(compact, 'utf8').split('\n');
    const [fullHeader, ...fullLines] = readFileSync(full, 'utf8').split('\n');
    const parsed = parseHeader(fullHeader as string, full);
    expect(parseHeader(compactHeader as string, compact)).toEqual({ ...parsed, format: 'compact' });
    const scales = new Map(parsed.instruments.map((i) => [i.symbol, scalesOf(i)]));
    const converted = fullLines.map((line) => {
      if (line === '') return '';
      const trade = familyA.trade.decode((JSON.parse(line) as { trade: unknown }).trade, (s) => scales.get(s));
      return encodeCompactTradeLine(
        compactTradeOf(trade, scales.get(trade.aggressor.order.symbol) ?? scalesOf(syntheticInstrument('X'))),
      ).trimEnd();
    });
    expect(converted.filter((l) => l.includes('BUSTED')).length).toBeGreaterThan(50);
    expect(converted).toEqual(compactLines);
  });

  it('replay to a byte-identical report.json, version 1 files and the tape worker included', async () => {
    dir = tempDir();
    const compact = fileIn('compact');
    const full = fileIn('full');
    const v1 = fileIn('v1');
    await writeSyntheticHistory(compact, options);
    await writeSyntheticHistory(full, { ...options, format: 'full' });
    const [fullHeader, ...rest] = readFileSync(full, 'utf8').split('\n');
    const oldHeader = JSON.parse(fullHeader as string) as Record<string, unknown>;
    delete oldHeader['format'];
    writeFileSync(v1, [JSON.stringify({ ...oldHeader, version: 1 }), ...rest].join('\n'));
    const strategy = await loadStrategy('market-maker');
    const config = testConfig({ latency: { insertMs: 20, cancelMs: 20 } });
    const params = { symbols: ['SYN-A', 'SYN-B'], halfSpread: '0.01', quoteQty: '2', maxInventory: '20' };
    const run = async (data: string, tapeThread: 'main' | 'worker') =>
      stableStringify((await runBacktest({ data, config, strategy, params, tapeThread })).report);
    const reference = await run(compact, 'main');
    const report = JSON.parse(reference) as { fills: number; data: { busted: number; fullParses: number; records: number } };
    expect(report.fills).toBeGreaterThan(0);
    expect(report.data.busted).toBeGreaterThan(500);
    expect(report.data.fullParses).toBe(0);
    expect(await run(full, 'main')).toBe(reference);
    expect(await run(v1, 'main')).toBe(reference);
    expect(await run(compact, 'worker')).toBe(reference);
    expect(await run(full, 'worker')).toBe(reference);
  }, 120_000);
});
