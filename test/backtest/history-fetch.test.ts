/**
 * `history fetch` against the embedded exchange, through the real gateway client: page by page into a
 * file that replays, in the compact format (default) and the full one, resumable after an interruption
 * (stopped by an AbortSignal after a few pages, even with half a page written; through family A too, in a
 * new process), busted trades kept; both formats of the same fetch replay to a byte-identical report.json;
 * --force starts over whatever the state file says; damaged state files and files cut short are named.
 */
import { readFileSync, appendFileSync, existsSync, mkdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../backtest/config.ts';
import { startEmbeddedHistory, type EmbeddedHistory } from '../../backtest/history/embedded-sim.ts';
import { fetchHistory } from '../../backtest/history/fetch-history.ts';
import { parseHeader, type HistoryFormat } from '../../backtest/history/format.ts';
import { stableStringify } from '../../backtest/results/stable-json.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { loadStrategy } from '../../src/engine/strategy/loader.ts';
import { TapeReader } from '../../backtest/tape/tape-reader.ts';
import type { Trade } from '../../src/sim/matching/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { tempDir, testConfig } from './helpers/history-file.ts';

const FROM = Date.UTC(2026, 10, 30, 14, 0, 0);
const TO = Date.UTC(2026, 10, 30, 14, 10, 0);
const SYMBOLS = ['RAIN-NYC-2026-12-01', 'FED-CUT-2026-12'];

let embedded: EmbeddedHistory;
let bustedId: string;

beforeAll(async () => {
  const config = loadBacktestConfig('backtest/data/sample-sim.yaml');
  if (config.sim === undefined) throw new Error('sample-sim.yaml has no sim section');
  embedded = await startEmbeddedHistory(config.sim, FROM, TO, silentLogger());
  // the sim has no bust command: the exchange re-sends a busted trade with its id and state BUSTED
  const tape = embedded.sim.core.trades() as Trade[];
  const victim = tape.find((t) => t.symbol === 'FED-CUT-2026-12' && t.time > FROM + 60_000);
  if (victim === undefined) throw new Error('no trade to bust');
  bustedId = victim.id;
  tape.push(Object.create(victim, { state: { value: 'TRADE_STATE_BUSTED' } }) as Trade);
});

afterAll(async () => {
  await embedded?.source.close();
});

const fetch = (
  out: string,
  extra: { signal?: AbortSignal; onPage?: (pages: number) => void; format?: HistoryFormat; force?: boolean; pageSize?: number } = {},
) =>
  fetchHistory({
    source: embedded.source,
    symbols: SYMBOLS,
    from: FROM,
    to: TO,
    out,
    pageSize: extra.pageSize ?? 25,
    pauseMs: 0,
    ...(extra.force === true ? { force: true } : {}),
    ...(extra.format === undefined ? {} : { format: extra.format }),
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
    onPage: (state) => extra.onPage?.(state.pages),
  });

describe('history fetch', () => {
  it.each(['compact', 'full'] as const)(
    'writes the header and every page of the trade search, busted trades kept (%s format)',
    async (format) => {
      const out = path.join(tempDir(), 'h.jsonl');
      const result = await fetch(out, format === 'full' ? { format } : {});
      const expected = embedded.sim.core.trades().filter((t) => SYMBOLS.includes(t.symbol) && t.time >= FROM && t.time < TO);
      expect(expected.length).toBeGreaterThan(60);
      expect(result.state).toMatchObject({ done: true, trades: expected.length, busted: 1, nextPageToken: '' });
      expect(result.state.pages).toBeGreaterThan(2);
      const [first, ...lines] = readFileSync(out, 'utf8').trimEnd().split('\n');
      const header = parseHeader(first as string, out);
      expect(header).toMatchObject({ kind: 'history', format, source: 'gateway', symbols: SYMBOLS, from: FROM, to: TO });
      expect(JSON.parse(first as string)).toMatchObject({ version: 2, format });
      expect(header.instruments.map((i) => i.symbol)).toEqual(SYMBOLS);
      const trades = lines.map((l) => {
        const line = JSON.parse(l) as { type: string; trade?: { id: string; state?: string }; id?: string; state?: string };
        return format === 'full' ? (line.trade as { id: string; state?: string }) : line;
      });
      expect(trades.map((t) => t.id)).toEqual(expected.map((t) => t.id));
      expect(trades.filter((t) => t.id === bustedId).map((t) => t.state)).toEqual(['TRADE_STATE_NEW', 'TRADE_STATE_BUSTED']);
      const tape = await TapeReader.open(out);
      let replayed = 0;
      for await (const batch of tape.batches()) replayed += batch.count;
      expect(replayed).toBe(expected.length - 2);
      expect(tape.stats).toMatchObject({ busted: 1, fullParses: 0 });
    },
  );

  it('writes in compact lines the aggressor execution of the full records, and both replay to the same report.json', async () => {
    const dir = tempDir();
    const compactFile = path.join(dir, 'compact', 'h.jsonl');
    const fullFile = path.join(dir, 'full', 'h.jsonl');
    mkdirSync(path.dirname(compactFile));
    mkdirSync(path.dirname(fullFile));
    await fetch(compactFile);
    await fetch(fullFile, { format: 'full' });
    const [compactHeader, ...compact] = readFileSync(compactFile, 'utf8').trimEnd().split('\n');
    const [fullHeader, ...full] = readFileSync(fullFile, 'utf8').trimEnd().split('\n');
    expect({ ...parseHeader(compactHeader as string, 'c'), format: 'full' }).toEqual(parseHeader(fullHeader as string, 'f'));
    expect(compact).toHaveLength(full.length);
    full.forEach((line, i) => {
      const { trade } = JSON.parse(line) as {
        trade: {
          id: string;
          state?: string;
          aggressor: { order: { symbol: string; side: string }; last_px: string; last_shares: string; transact_time: string };
        };
      };
      const a = trade.aggressor;
      // the sample instruments: price scale 100, quantity scale 1
      const expected =
        `{"type":"trade","id":"${trade.id}","symbol":"${a.order.symbol}","price":"${new Decimal(a.last_px).div(100).toFixed()}",` +
        `"qty":"${a.last_shares}","side":"${a.order.side.slice('SIDE_'.length)}","time":"${a.transact_time}",` +
        `"state":"${trade.state ?? 'TRADE_STATE_UNDEFINED'}"}`;
      expect(compact[i]).toBe(expected);
    });
    expect(compact.some((l) => l.includes('TRADE_STATE_BUSTED'))).toBe(true);
    expect(compact.some((l) => l.includes('"price":"0.'))).toBe(true);
    const strategy = await loadStrategy('market-maker');
    const config = testConfig({ latency: { insertMs: 20, cancelMs: 20 } });
    const params = { symbols: SYMBOLS, halfSpread: '0.01', quoteQty: '2', maxInventory: '20' };
    const fromCompact = await runBacktest({ data: compactFile, config, strategy, params });
    const fromFull = await runBacktest({ data: fullFile, config, strategy, params });
    expect(fromCompact.report['fills']).toBeGreaterThan(0);
    expect(stableStringify(fromCompact.report)).toBe(stableStringify(fromFull.report));
  }, 60_000);

  it('resumes an interrupted fetch from its state file and ends with the same file', async () => {
    const dir = tempDir();
    const whole = path.join(dir, 'whole.jsonl');
    await fetch(whole);
    const out = path.join(dir, 'resumed.jsonl');
    const abort = new AbortController();
    await expect(fetch(out, { signal: abort.signal, onPage: (pages) => pages === 2 && abort.abort() })).rejects.toMatchObject({
      code: 'BACKTEST_HISTORY_ABORTED',
    });
    const state = JSON.parse(readFileSync(`${out}.state.json`, 'utf8')) as { pages: number; done: boolean; bytes: number };
    expect(state).toMatchObject({ pages: 2, done: false });
    appendFileSync(out, '{"type":"trade","trade":{"id":"half a page written when the pro'); // died mid-page
    let pagesAfter = 0;
    const resumed = await fetch(out, { onPage: (pages) => (pagesAfter = pages) });
    expect(resumed.resumed).toBe(true);
    expect(pagesAfter).toBe(resumed.state.pages);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    const again = await fetch(out);
    expect(again.state.done).toBe(true);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('refuses to resume an interrupted fetch in another format', async () => {
    const out = path.join(tempDir(), 'format.jsonl');
    const abort = new AbortController();
    await expect(fetch(out, { signal: abort.signal, onPage: () => abort.abort() })).rejects.toMatchObject({
      code: 'BACKTEST_HISTORY_ABORTED',
    });
    await expect(fetch(out, { format: 'full' })).rejects.toMatchObject({ code: 'BACKTEST_HISTORY_STATE_MISMATCH' });
    expect((await fetch(out)).state.done).toBe(true);
  });

  it('resumes without --format in the format the fetch was started in (a state file from before formats: full)', async () => {
    const dir = tempDir();
    const whole = path.join(dir, 'whole-full.jsonl');
    await fetch(whole, { format: 'full' });
    for (const legacy of [false, true]) {
      const out = path.join(dir, `resume-full-${legacy}.jsonl`);
      const abort = new AbortController();
      await expect(fetch(out, { format: 'full', signal: abort.signal, onPage: () => abort.abort() })).rejects.toMatchObject({
        code: 'BACKTEST_HISTORY_ABORTED',
      });
      if (legacy) {
        // what an older tradebot left: version 1, no format in the request
        const stateFile = `${out}.state.json`;
        const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { version: number; request: Record<string, unknown> };
        delete state.request['format'];
        writeFileSync(stateFile, JSON.stringify({ ...state, version: 1 }));
      }
      const result = await fetch(out);
      expect(result.resumed).toBe(true);
      expect(result.state.done).toBe(true);
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    }
  });

  it('refuses to overwrite a file it did not start, unless forced', async () => {
    const out = path.join(tempDir(), 'other.jsonl');
    appendFileSync(out, 'precious\n');
    await expect(fetch(out)).rejects.toMatchObject({ code: 'BACKTEST_HISTORY_EXISTS' });
    expect(existsSync(`${out}.state.json`)).toBe(false);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
    const forced = await fetch(out, { force: true });
    expect(forced).toMatchObject({ resumed: false, state: { done: true } });
    expect(readFileSync(out, 'utf8').startsWith('{"type":"header"')).toBe(true);
  });

  it('starts over with --force whatever the state file says: finished (the file since deleted), or another request', async () => {
    const dir = tempDir();
    const whole = path.join(dir, 'whole.jsonl');
    await fetch(whole);
    const out = path.join(dir, 'again.jsonl');
    await fetch(out);
    rmSync(out);
    // the state says done: without --force nothing would be written, so it says the file is gone
    await expect(fetch(out)).rejects.toMatchObject({
      code: 'BACKTEST_HISTORY_STATE_MISMATCH',
      message: expect.stringContaining('--force'),
    });
    const forced = await fetch(out, { force: true });
    expect(forced).toMatchObject({ resumed: false, state: { done: true } });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    // an interrupted fetch of another format: forced, it starts over in the one asked for
    const abort = new AbortController();
    const other = path.join(dir, 'other.jsonl');
    await expect(fetch(other, { format: 'full', signal: abort.signal, onPage: () => abort.abort() })).rejects.toMatchObject({
      code: 'BACKTEST_HISTORY_ABORTED',
    });
    expect((await fetch(other, { force: true })).resumed).toBe(false);
    expect(readFileSync(other, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('replaces the state of a fetch that failed before its first page without --force (a page size the exchange refused)', async () => {
    const dir = tempDir();
    const whole = path.join(dir, 'whole.jsonl');
    await fetch(whole);
    const out = path.join(dir, 'h.jsonl');
    await expect(fetch(out, { pageSize: 5000 })).rejects.toThrow();
    expect(JSON.parse(readFileSync(`${out}.state.json`, 'utf8'))).toMatchObject({ pages: 0 });
    const result = await fetch(out);
    expect(result).toMatchObject({ resumed: false, state: { done: true } });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('names a damaged state file and how to start over, and a history file cut shorter than its state says', async () => {
    const dir = tempDir();
    const damaged = {
      empty: '',
      text: 'not json at all',
      'no request': JSON.stringify({ version: 2, nextPageToken: 'x', pages: 1, trades: 1, skipped: 0, busted: 0, bytes: 10, done: false }),
    };
    for (const [name, text] of Object.entries(damaged)) {
      const out = path.join(dir, `${name.replace(' ', '-')}.jsonl`);
      writeFileSync(out, '{"type":"header"}\n');
      writeFileSync(`${out}.state.json`, text);
      const error = await fetch(out).catch((e: unknown) => e);
      expect(error, name).toMatchObject({ code: 'BACKTEST_HISTORY_STATE_MISMATCH', message: expect.stringContaining(`${out}.state.json`) });
      expect((error as Error).message).toContain('--force');
      expect((await fetch(out, { force: true })).state.done).toBe(true);
    }
    const out = path.join(dir, 'cut.jsonl');
    const abort = new AbortController();
    await expect(fetch(out, { signal: abort.signal, onPage: (pages) => pages === 2 && abort.abort() })).rejects.toMatchObject({
      code: 'BACKTEST_HISTORY_ABORTED',
    });
    const { bytes } = JSON.parse(readFileSync(`${out}.state.json`, 'utf8')) as { bytes: number };
    truncateSync(out, bytes - 10);
    await expect(fetch(out)).rejects.toMatchObject({
      code: 'BACKTEST_HISTORY_STATE_MISMATCH',
      message: expect.stringContaining('shorter'),
    });
  });

  it('fetches more pages than the venue allows a second, rate-limited under it (the exchange clock moves past the window)', async () => {
    const dir = tempDir();
    const whole = path.join(dir, 'whole.jsonl');
    const expected = (await fetch(whole)).state.trades;
    const out = path.join(dir, 'one-a-page.jsonl');
    const result = await fetch(out, { pageSize: 1 });
    expect(result.state.pages).toBeGreaterThan(100); // the venue's limit: 100 calls a second
    expect(result.state.trades).toBe(expected);
    expect(readFileSync(out, 'utf8').split('\n').slice(1)).toEqual(readFileSync(whole, 'utf8').split('\n').slice(1));
  }, 30_000);

  it('writes nothing for a symbol the exchange does not list', async () => {
    const out = path.join(tempDir(), 'typo.jsonl');
    await expect(
      fetchHistory({ source: embedded.source, symbols: ['RAIN-NYC-2026-12-1'], from: FROM, to: TO, out, pauseMs: 0 }),
    ).rejects.toMatchObject({ code: 'BACKTEST_BAD_OPTION' });
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.state.json`)).toBe(false);
  });
});

describe('history fetch through family A', () => {
  it('resumes in a new process (a new client, which has loaded no instrument yet) and ends with the same file', async () => {
    const config = loadBacktestConfig('backtest/data/sample-sim.yaml');
    if (config.sim === undefined) throw new Error('sample-sim.yaml has no sim section');
    const sim = config.sim;
    const dir = tempDir();
    const fetchFrom = async (out: string, extra: { signal?: AbortSignal; onPage?: (pages: number) => void } = {}) => {
      const history = await startEmbeddedHistory(sim, FROM, TO, silentLogger(), 'familyA');
      try {
        return await fetchHistory({
          source: history.source,
          symbols: SYMBOLS,
          from: FROM,
          to: TO,
          out,
          pageSize: 25,
          pauseMs: 0,
          ...(extra.signal === undefined ? {} : { signal: extra.signal }),
          onPage: (state) => extra.onPage?.(state.pages),
        });
      } finally {
        await history.source.close();
      }
    };
    const whole = path.join(dir, 'whole.jsonl');
    const complete = await fetchFrom(whole);
    expect(complete.state.trades).toBeGreaterThan(60);
    const out = path.join(dir, 'resumed.jsonl');
    const abort = new AbortController();
    await expect(fetchFrom(out, { signal: abort.signal, onPage: (pages) => pages === 2 && abort.abort() })).rejects.toMatchObject({
      code: 'BACKTEST_HISTORY_ABORTED',
    });
    const resumed = await fetchFrom(out);
    expect(resumed.resumed).toBe(true);
    expect(resumed.state).toMatchObject({ done: true, trades: complete.state.trades, skipped: complete.state.skipped });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  }, 60_000);
});
