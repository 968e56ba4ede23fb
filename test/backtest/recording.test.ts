/**
 * Recordings of live sessions: the recorder writes what the pipeline received (books, order events) as
 * JSON lines after a header, and replay drives the book directly from the recorded updates: the strategy
 * sees the recorded books, trades revealed by the updates fill resting orders, aggressive orders take
 * the recorded levels. And `tradebot run --record` against the embedded exchange writes one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRecorder } from '../../backtest/recording/recorder.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { syntheticInstrument } from '../../backtest/tape/synthetic-history.ts';
import { Decimal, ZERO } from '../../src/domain/decimal.ts';
import type { InstrumentStats } from '../../src/domain/index.ts';
import type { BookEvent } from '../../src/exchange/gateway/stream-events.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { captureOutput } from '../cli/helpers/output.ts';
import { scripted, T0, tempDir, testConfig } from './helpers/history-file.ts';

afterEach(() => vi.restoreAllMocks());

const px = (raw: number) => new Decimal(raw).div(100);
const stats = (last: number, shares: number): InstrumentStats => ({
  openPx: ZERO, closePx: ZERO, lowPx: ZERO, highPx: ZERO, lastTradePx: px(last), indicativeOpenPx: ZERO,
  settlementPx: ZERO, sharesTraded: new Decimal(shares), notionalTraded: ZERO, openInterest: ZERO,
});
const book = (bid: [number, number], ask: [number, number], last: number, shares: number, at: number): BookEvent => ({
  type: 'book',
  symbol: 'SYN-A',
  bids: [{ px: px(bid[0]), qty: new Decimal(bid[1]) }],
  offers: [{ px: px(ask[0]), qty: new Decimal(ask[1]) }],
  state: 'INSTRUMENT_STATE_OPEN',
  stats: stats(last, shares),
  transactTime: T0 + at,
});

async function writeRecording(file: string, books: readonly BookEvent[]): Promise<void> {
  const recorder = openRecorder(file, { instruments: [syntheticInstrument('SYN-A')], symbols: ['SYN-A'], startTime: T0 });
  recorder.record({ stream: 'orders', time: T0, event: { type: 'connected', attempt: 1 } });
  recorder.record({ stream: 'orders', time: T0, event: { type: 'snapshot', orders: [], sessionId: 's' } });
  recorder.record({ stream: 'market', time: T0, event: { type: 'connected', attempt: 1 } });
  for (const b of books) recorder.record({ stream: 'market', time: b.transactTime ?? T0, event: b });
  await recorder.close();
}

describe('recordings', () => {
  it('replays recorded books to the strategy, fills from the trades they reveal and takes their levels', async () => {
    const file = path.join(tempDir(), 'rec.jsonl');
    await writeRecording(file, [
      book([40, 10], [45, 7], 42, 100, 1000),
      book([41, 10], [45, 7], 41, 104, 2000), // 4 traded at 0.41 (below the mid: a seller) at our bid, nothing ahead of it
      book([40, 10], [45, 7], 40, 110, 3000), // 6 traded at 0.40: through our bid at 0.41
    ]);
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] as string) as Record<string, unknown>;
    expect(header).toMatchObject({ type: 'header', version: 1, kind: 'recording', source: 'familyA', symbols: ['SYN-A'] });
    const seen: string[] = [];
    let placed = false;
    const strategy = scripted({
      onBook(ctx, b) {
        seen.push(`${b.bestBid?.toString()}/${b.bestOffer?.toString()}`);
        if (placed) return;
        placed = true;
        ctx.place({ symbol: 'SYN-A', side: 'BUY', qty: 5, price: '0.41' });
        ctx.place({ symbol: 'SYN-A', side: 'BUY', qty: 9, price: '0.46', timeInForce: 'IMMEDIATE_OR_CANCEL' });
      },
    });
    const result = await runBacktest({ data: file, config: testConfig({ latency: { insertMs: 10, cancelMs: 10 }, queueAheadModel: { model: 'level', fraction: '1' } }), strategy, params: { symbols: ['SYN-A'] } });
    expect(seen).toEqual(['0.4/0.45', '0.41/0.45', '0.4/0.45']);
    expect(result.series.fills.map((f) => [f.t - T0, f.qty, f.price])).toEqual([
      [1010, '7', '0.45'],
      [2000, '4', '0.41'],
      [3000, '1', '0.41'],
    ]);
    expect(result.report['data']).toMatchObject({ kind: 'recording', books: 3, skippedEvents: 3 });
    expect(result.report['events']).toBe(3);
  });

  it('tradebot run --record writes the session a backtest can replay', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'session.jsonl');
    const io = captureOutput();
    const code = await runCli(['run', '--duration', '2', '--record', file, '--log-level', 'error']);
    expect(code, io.err()).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; event?: { type: string } });
    expect(lines[0]?.type).toBe('header');
    expect(lines.some((l) => l.type === 'market' && l.event?.type === 'book')).toBe(true);
    expect(lines.some((l) => l.type === 'orders' && l.event?.type === 'snapshot')).toBe(true);
    const replay = await runCli(['backtest', '--data', file, '--out', path.join(dir, 'out')]);
    expect(replay, io.err()).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'out', 'report.json'), 'utf8')) as { events: number; data: { kind: string } };
    expect(report.data.kind).toBe('recording');
    expect(report.events).toBeGreaterThan(0);
  }, 60_000);
});
