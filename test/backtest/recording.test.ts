/**
 * Recordings of live sessions: the recorder writes what the pipeline received (books, order events) as
 * JSON lines after a header and an end line, and replay drives the book directly from the recorded
 * updates: the strategy sees the recorded books, trades revealed by the updates fill resting orders,
 * aggressive orders take the recorded levels, all without the live bot's own quotes and fills (known from
 * the recorded order stream). Version 1 recordings load, unknown versions are refused with the fix; a
 * recording cut off mid-line replays to its last whole line; only the strategy's symbols are recorded, with
 * times that never go back. And
 * `tradebot run --record` against the embedded exchange writes one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openRecorder, type RecordedEvent } from '../../backtest/recording/recorder.ts';
import { engineDefinition } from '../../backtest/replay/instrument-defs.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { syntheticInstrument } from '../../backtest/tape/synthetic-history.ts';
import { Decimal, ZERO } from '../../src/domain/decimal.ts';
import { scalesOf, type InstrumentStats } from '../../src/domain/index.ts';
import type { BookEvent, OrderStreamEvent } from '../../src/domain/stream-events.ts';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { toDomainExecution } from '../../src/sim/exchange/to-domain.ts';
import { MatchingEngine, type Execution } from '../../src/sim/matching/index.ts';
import { captureOutput } from '../cli/helpers/output.ts';
import { scripted, T0, tempDir, testConfig } from './helpers/history-file.ts';

afterEach(() => vi.restoreAllMocks());

const px = (raw: number) => new Decimal(raw).div(100);
const stats = (last: number, shares: number): InstrumentStats => ({
  openPx: ZERO,
  closePx: ZERO,
  lowPx: ZERO,
  highPx: ZERO,
  lastTradePx: px(last),
  indicativeOpenPx: ZERO,
  settlementPx: ZERO,
  sharesTraded: new Decimal(shares),
  notionalTraded: ZERO,
  openInterest: ZERO,
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

const LIVE_BOT = 'firms/test/accounts/bot';
const instrument = syntheticInstrument('SYN-A');

/** Writes a recording: the stream openings, then the given events in order (books at their transactTime), then the end line. */
async function writeRecording(file: string, events: readonly (BookEvent | RecordedEvent)[], endAt?: number): Promise<void> {
  const recorder = openRecorder(file, { instruments: [instrument], symbols: ['SYN-A'], startTime: T0, now: () => T0 + (endAt ?? 0) });
  recorder.record({ stream: 'orders', time: T0, event: { type: 'connected', attempt: 1 } });
  recorder.record({ stream: 'orders', time: T0, event: { type: 'snapshot', orders: [], sessionId: 's' } });
  recorder.record({ stream: 'market', time: T0, event: { type: 'connected', attempt: 1 } });
  for (const e of events) recorder.record('stream' in e ? e : { stream: 'market', time: e.transactTime ?? T0, event: e });
  await recorder.close();
}

/** The live bot's executions as its order stream delivered them, made by a real matching engine. */
function liveExecutions(): { newOffer: Execution; passiveFill: Execution; aggressiveFill: Execution } {
  const engine = new MatchingEngine({ clock: { now: () => T0 }, idPrefix: 'LV' });
  engine.addInstrument(engineDefinition(instrument));
  const order = (account: string, side: 'SIDE_BUY' | 'SIDE_SELL', price: number, qty: number, ioc = false) =>
    engine.submit({
      symbol: 'SYN-A',
      side,
      type: 'ORDER_TYPE_LIMIT',
      price,
      orderQty: qty,
      account,
      timeInForce: ioc ? 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' : 'TIME_IN_FORCE_DAY',
    }).executions;
  const bots = (executions: readonly Execution[]) => executions.filter((e) => e.order.account === LIVE_BOT);
  const newOffer = bots(order(LIVE_BOT, 'SIDE_SELL', 45, 5))[0] as Execution;
  const passiveFill = bots(order('firms/other/accounts/taker', 'SIDE_BUY', 45, 3, true))[0] as Execution;
  order('firms/other/accounts/maker', 'SIDE_BUY', 40, 10);
  const aggressiveFill = bots(order(LIVE_BOT, 'SIDE_SELL', 40, 4, true)).find((e) => e.lastQty > 0) as Execution;
  return { newOffer, passiveFill, aggressiveFill };
}

const orderEvent = (at: number, execution: Execution): RecordedEvent => ({
  stream: 'orders',
  time: T0 + at,
  event: { type: 'execution', execution: toDomainExecution(execution, scalesOf(instrument)), sessionId: 's' } satisfies OrderStreamEvent,
});

describe('recordings', () => {
  it('replays recorded books to the strategy, fills from the trades they reveal and takes their levels', async () => {
    const file = path.join(tempDir(), 'rec.jsonl');
    await writeRecording(file, [
      book([40, 10], [45, 7], 42, 100, 1000),
      book([41, 10], [45, 7], 41, 104, 2000), // 4 traded at 0.41 (below the mid: a seller) at our bid, nothing ahead of it
      book([40, 10], [45, 7], 40, 110, 3000), // 6 traded at 0.40: through our bid at 0.41
    ]);
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] as string) as Record<string, unknown>;
    expect(header).toMatchObject({ type: 'header', version: 2, kind: 'recording', source: 'familyA', symbols: ['SYN-A'] });
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
    const result = await runBacktest({
      data: file,
      config: testConfig({ latency: { insertMs: 10, cancelMs: 10 }, queueAheadModel: { model: 'level', fraction: '1' } }),
      strategy,
      params: { symbols: ['SYN-A'] },
    });
    expect(seen).toEqual(['0.4/0.45', '0.41/0.45', '0.4/0.45']);
    expect(result.series.fills.map((f) => [f.t - T0, f.qty, f.price])).toEqual([
      [1010, '7', '0.45'],
      [2000, '4', '0.41'],
      [3000, '1', '0.41'],
    ]);
    expect(result.report['data']).toMatchObject({ kind: 'recording', books: 3, orderEvents: 2, skippedEvents: 0 });
    expect(result.report['events']).toBe(3);
  });

  it("takes the live bot's own quotes out of the recorded levels and its own aggressive fills out of the revealed trades", async () => {
    const file = path.join(tempDir(), 'own.jsonl');
    const live = liveExecutions();
    await writeRecording(file, [
      orderEvent(900, live.newOffer), // the live bot's offer 5 @ 0.45 rests: the book's 7 @ 0.45 is 2 of others and 5 of its own
      book([40, 10], [45, 7], 42, 100, 1000),
      orderEvent(1990, live.passiveFill), // a taker bought 3 from the live bot's offer
      book([40, 10], [45, 4], 45, 103, 2000),
      orderEvent(2990, live.aggressiveFill), // the live bot sold 4 into the bid at 0.40 itself
      book([40, 6], [45, 4], 40, 107, 3000),
      book([40, 3], [45, 4], 40, 110, 4000), // someone else sold 3 at 0.40: through our bid at 0.41
    ]);
    let placed = false;
    const strategy = scripted({
      onBook(ctx) {
        if (placed) return;
        placed = true;
        ctx.place({ symbol: 'SYN-A', side: 'BUY', qty: 9, price: '0.46', timeInForce: 'IMMEDIATE_OR_CANCEL' });
        ctx.place({ symbol: 'SYN-A', side: 'BUY', qty: 5, price: '0.41' });
      },
    });
    const result = await runBacktest({
      data: file,
      config: testConfig({ latency: { insertMs: 10, cancelMs: 10 }, queueAheadModel: { model: 'level', fraction: '1' } }),
      strategy,
      params: { symbols: ['SYN-A'] },
    });
    // only the 2 of others at 0.45 can be taken; the live bot's own sale at 0.40 is not a trade through our bid, the later one is,
    // for the 3 it traded (tradeThrough print, the default since #22; in full it filled all 5 of the bid)
    expect(result.series.fills.map((f) => [f.t - T0, f.side, f.qty, f.price])).toEqual([
      [1010, 'BUY', '2', '0.45'],
      [4000, 'BUY', '3', '0.41'],
    ]);
    expect(result.report['data']).toMatchObject({ books: 4, orderEvents: 5 });
  });

  it('settles a contract when a recorded book shows it settled, after its expiry left it open', async () => {
    const file = path.join(tempDir(), 'settle.jsonl');
    const expiring = syntheticInstrument('SYN-A', T0 + 2500);
    const recorder = openRecorder(file, { instruments: [expiring], symbols: ['SYN-A'], startTime: T0, now: () => T0 + 5000 });
    recorder.record({ stream: 'market', time: T0, event: { type: 'connected', attempt: 1 } });
    const settled: BookEvent = {
      ...book([40, 10], [45, 7], 45, 100, 3000),
      bids: [],
      offers: [],
      state: 'INSTRUMENT_STATE_EXPIRED',
      stats: { ...stats(45, 100), settlementPx: new Decimal(1) },
    };
    for (const e of [book([40, 10], [45, 7], 42, 100, 1000), settled])
      recorder.record({ stream: 'market', time: e.transactTime ?? T0, event: e });
    await recorder.close();
    let placed = false;
    const strategy = scripted({
      onBook(ctx) {
        if (placed) return;
        placed = true;
        ctx.place({ symbol: 'SYN-A', side: 'BUY', qty: 5, price: '0.46', timeInForce: 'IMMEDIATE_OR_CANCEL' });
      },
    });
    const result = await runBacktest({
      data: file,
      config: testConfig({ latency: { insertMs: 10, cancelMs: 10 } }),
      strategy,
      params: { symbols: ['SYN-A'] },
    });
    expect(result.report['settlements']).toEqual([
      { symbol: 'SYN-A', time: new Date(T0 + 3000).toISOString(), price: '1', source: 'recording' },
    ]);
    expect(result.report['unsettled']).toBeUndefined();
    expect(result.report['pnl']).toEqual({ total: '2.75', realized: '2.75', unrealized: '0' });
  });

  it('runs to the end line of the recording and still reads version 1 recordings (no end line)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'end.jsonl');
    await writeRecording(file, [book([40, 10], [45, 7], 42, 100, 1000), book([41, 10], [45, 7], 42, 100, 2000)], 10_000);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1) as string)).toEqual({ type: 'end', time: T0 + 10_000 });
    const ticks: number[] = [];
    const timed = defineStrategy({
      name: 'timed',
      params: z.strictObject({ symbols: z.array(z.string()) }),
      onStart: (ctx) => ctx.every('tick', 1000),
      onTimer: (ctx) => void ticks.push(ctx.now() - T0),
    });
    await runBacktest({ data: file, config: testConfig(), strategy: timed, params: { symbols: ['SYN-A'] } });
    expect(ticks.at(-1)).toBe(10_000);

    const v1 = path.join(dir, 'v1.jsonl');
    const header = { ...(JSON.parse(lines[0] as string) as Record<string, unknown>), version: 1 };
    writeFileSync(v1, [JSON.stringify(header), ...lines.slice(1, -1)].join('\n') + '\n');
    ticks.length = 0;
    const old = await runBacktest({ data: v1, config: testConfig(), strategy: timed, params: { symbols: ['SYN-A'] } });
    expect(old.report['events']).toBe(2);
    expect(ticks.at(-1)).toBe(2000);

    const v3 = path.join(dir, 'v3.jsonl');
    writeFileSync(v3, [JSON.stringify({ ...header, version: 3 }), ...lines.slice(1)].join('\n') + '\n');
    await expect(runBacktest({ data: v3, config: testConfig(), strategy: timed, params: { symbols: ['SYN-A'] } })).rejects.toMatchObject({
      code: 'BACKTEST_BAD_HEADER',
      message: expect.stringMatching(
        /recording version 3: this tradebot reads versions 1 and 2 \(the file is newer: update tradebot\)/,
      ) as unknown,
    });
  });

  it('replays a recording cut off mid-line up to its last whole line, and still refuses a bad line inside one', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'whole.jsonl');
    await writeRecording(
      file,
      [book([40, 10], [45, 7], 42, 100, 1000), book([41, 10], [45, 7], 42, 100, 2000), book([41, 10], [44, 7], 42, 100, 3000)],
      10_000,
    );
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const strategy = scripted({});
    // the process died while writing the third book: no end line, half a line last
    const cut = path.join(dir, 'cut.jsonl');
    const third = lines.at(-2) as string;
    writeFileSync(cut, [...lines.slice(0, -2), third.slice(0, third.length / 2)].join('\n'));
    const result = await runBacktest({ data: cut, config: testConfig(), strategy, params: { symbols: ['SYN-A'] } });
    expect(result.report['events']).toBe(2);
    expect(result.report['data']).toMatchObject({ kind: 'recording', cutLine: lines.length - 1 });
    // the same half line with more after it is a damaged file, named by its line
    const damaged = path.join(dir, 'damaged.jsonl');
    writeFileSync(damaged, [...lines.slice(0, -2), third.slice(0, third.length / 2), ...lines.slice(-1)].join('\n') + '\n');
    await expect(runBacktest({ data: damaged, config: testConfig(), strategy, params: { symbols: ['SYN-A'] } })).rejects.toMatchObject({
      code: 'BACKTEST_BAD_LINE',
      message: expect.stringContaining(`damaged.jsonl:${lines.length - 1}:`),
    });
  });

  it('records only the strategy symbols, with times that never go back, and replays older recordings holding other symbols', async () => {
    const dir = tempDir();
    const other = syntheticInstrument('SYN-B');
    const file = path.join(dir, 'mixed.jsonl');
    const recorder = openRecorder(file, { instruments: [instrument, other], symbols: ['SYN-A'], startTime: T0, now: () => T0 + 5000 });
    const { newOffer } = liveExecutions();
    const mine = toDomainExecution(newOffer, scalesOf(instrument));
    const theirs = { ...mine, order: { ...mine.order, symbol: 'SYN-B' } };
    recorder.record({ stream: 'orders', time: T0, event: { type: 'snapshot', orders: [mine.order, theirs.order], sessionId: 's' } });
    recorder.record({ stream: 'orders', time: T0 + 1000, event: { type: 'execution', execution: theirs, sessionId: 's' } });
    recorder.record({ stream: 'market', time: T0 + 2000, event: book([40, 10], [45, 7], 42, 100, 2000) });
    recorder.record({ stream: 'market', time: T0 + 1999, event: book([41, 10], [45, 7], 42, 100, 1999) }); // the wall clock stepped back
    await recorder.close();
    const records = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            time?: number;
            event?: { type: string; orders?: { symbol: string }[] };
            instruments?: { symbol: string }[];
          },
      );
    expect(records[0]?.instruments?.map((i) => i.symbol)).toEqual(['SYN-A']);
    expect(records.slice(1).map((r) => [r.type, r.event?.type, (r.time ?? 0) - T0])).toEqual([
      ['orders', 'snapshot', 0],
      ['market', 'book', 2000],
      ['market', 'book', 2000],
      ['end', undefined, 5000],
    ]);
    expect(records[1]?.event?.orders?.map((o) => o.symbol)).toEqual(['SYN-A']);
    const replayed = await runBacktest({ data: file, config: testConfig(), strategy: scripted({}), params: { symbols: ['SYN-A'] } });
    expect(replayed.report['events']).toBe(2);
    // a recording made before recorders left other symbols out: the reader skips what it cannot decode
    const older = path.join(dir, 'older.jsonl');
    const wide = openRecorder(older, {
      instruments: [instrument, other],
      symbols: ['SYN-A', 'SYN-B'],
      startTime: T0,
      now: () => T0 + 5000,
    });
    wide.record({ stream: 'orders', time: T0, event: { type: 'snapshot', orders: [mine.order, theirs.order], sessionId: 's' } });
    wide.record({ stream: 'orders', time: T0 + 1000, event: { type: 'execution', execution: theirs, sessionId: 's' } });
    wide.record({ stream: 'market', time: T0 + 2000, event: book([40, 10], [45, 7], 42, 100, 2000) });
    await wide.close();
    const [head, ...rest] = readFileSync(older, 'utf8').split('\n');
    const header = JSON.parse(head as string) as { symbols: string[]; instruments: { symbol: string }[] };
    writeFileSync(
      older,
      [
        JSON.stringify({ ...header, symbols: ['SYN-A'], instruments: header.instruments.filter((i) => i.symbol === 'SYN-A') }),
        ...rest,
      ].join('\n'),
    );
    const result = await runBacktest({ data: older, config: testConfig(), strategy: scripted({}), params: { symbols: ['SYN-A'] } });
    expect(result.report['data']).toMatchObject({ kind: 'recording', skippedEvents: 1 });
  });

  it('tradebot run --record writes the session a backtest can replay', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'session.jsonl');
    const io = captureOutput();
    const code = await runCli(['run', '--duration', '2', '--record', file, '--log-level', 'error']);
    expect(code, io.err()).toBe(0);
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; event?: { type: string } });
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
