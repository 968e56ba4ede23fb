/**
 * `history fetch` against the embedded exchange, through the real gateway client: page by page into a
 * file that replays, resumable after an interruption (stopped by an AbortSignal after a few pages, even
 * with half a page written), busted trades kept.
 */
import { readFileSync, appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../backtest/config.ts';
import { startEmbeddedHistory, type EmbeddedHistory } from '../../backtest/history/embedded-sim.ts';
import { fetchHistory } from '../../backtest/history/fetch-history.ts';
import { parseHeader } from '../../backtest/history/format.ts';
import { TapeReader } from '../../backtest/tape/tape-reader.ts';
import type { Trade } from '../../src/sim/matching/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { tempDir } from './helpers/history-file.ts';

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

const fetch = (out: string, extra: { signal?: AbortSignal; onPage?: (pages: number) => void } = {}) =>
  fetchHistory({
    source: embedded.source,
    symbols: SYMBOLS,
    from: FROM,
    to: TO,
    out,
    pageSize: 25,
    pauseMs: 0,
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
    onPage: (state) => extra.onPage?.(state.pages),
  });

describe('history fetch', () => {
  it('writes the header and every page of the trade search, busted trades kept', async () => {
    const out = path.join(tempDir(), 'h.jsonl');
    const result = await fetch(out);
    const expected = embedded.sim.core.trades().filter((t) => SYMBOLS.includes(t.symbol) && t.time >= FROM && t.time < TO);
    expect(expected.length).toBeGreaterThan(60);
    expect(result.state).toMatchObject({ done: true, trades: expected.length, busted: 1, nextPageToken: '' });
    expect(result.state.pages).toBeGreaterThan(2);
    const [first, ...lines] = readFileSync(out, 'utf8').trimEnd().split('\n');
    const header = parseHeader(first as string, out);
    expect(header).toMatchObject({ kind: 'history', source: 'gateway', symbols: SYMBOLS, from: FROM, to: TO });
    expect(header.instruments.map((i) => i.symbol)).toEqual(SYMBOLS);
    const trades = lines.map((l) => JSON.parse(l) as { type: string; trade: { id: string; state?: string } });
    expect(trades.map((t) => t.trade.id)).toEqual(expected.map((t) => t.id));
    expect(trades.filter((t) => t.trade.id === bustedId).map((t) => t.trade.state)).toEqual(['TRADE_STATE_NEW', 'TRADE_STATE_BUSTED']);
    const tape = await TapeReader.open(out);
    let replayed = 0;
    for await (const batch of tape.batches()) replayed += batch.count;
    expect(replayed).toBe(expected.length - 2);
    expect(tape.stats).toMatchObject({ busted: 1, fullParses: 0 });
  });

  it('resumes an interrupted fetch from its state file and ends with the same file', async () => {
    const dir = tempDir();
    const whole = path.join(dir, 'whole.jsonl');
    await fetch(whole);
    const out = path.join(dir, 'resumed.jsonl');
    const abort = new AbortController();
    await expect(fetch(out, { signal: abort.signal, onPage: (pages) => pages === 2 && abort.abort() })).rejects.toMatchObject({ code: 'BACKTEST_HISTORY_ABORTED' });
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

  it('refuses to overwrite a file it did not start, unless forced', async () => {
    const out = path.join(tempDir(), 'other.jsonl');
    appendFileSync(out, 'precious\n');
    await expect(fetch(out)).rejects.toMatchObject({ code: 'BACKTEST_HISTORY_EXISTS' });
    expect(existsSync(`${out}.state.json`)).toBe(false);
  });
});
