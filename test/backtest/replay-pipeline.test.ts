/**
 * The replay through the live pipeline (runBacktest with scripted strategies on hand-written tapes):
 * order latency in virtual time (orders sent from timers too), busted trades superseding, settlement of contracts expiring in the data,
 * and byte-identical reports for the same inputs.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Decimal } from '../../src/domain/decimal.ts';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { loadBacktestConfig } from '../../backtest/config.ts';
import { stableStringify } from '../../backtest/results/stable-json.ts';
import { formatSummary } from '../../backtest/results/summary.ts';
import { scripted, T0, tempDir, testConfig, writeHistory, type Row } from './helpers/history-file.ts';

const params = { symbols: ['SYN-A'] };
/** Offer at 0.45, then bid at 0.40: the strategy's first two-sided book comes at T0 + 2000. */
const OPEN: Row[] = [
  { at: 1000, price: 45, qty: 5, side: 'buy' },
  { at: 2000, price: 40, qty: 5, side: 'sell' },
];

/** Bids 5 at `price` once, on the first two-sided book; cancels on the first fill when asked. */
function bidOnce(price: string, options: { cancelOnFill?: boolean } = {}) {
  let placed = false;
  return scripted({
    onBook(ctx, book) {
      if (placed || book.mid === undefined) return;
      placed = true;
      ctx.place({ symbol: book.symbol, side: 'BUY', qty: 5, price, timeInForce: 'GOOD_TILL_CANCEL' });
    },
    onOrderUpdate(ctx, update) {
      if (options.cancelOnFill === true && update.type === 'fill' && update.order !== undefined && update.order.leavesQty.gt(0))
        ctx.cancel(update.order.clordId);
    },
  });
}

const fillTimes = (series: { fills: readonly { t: number; qty: string; price: string }[] }) =>
  series.fills.map((f) => [f.t - T0, f.qty, f.price]);

describe('latency', () => {
  it('fills an order sent at t only from tape trades after t + the insert latency', async () => {
    const file = writeHistory(path.join(tempDir(), 'h.jsonl'), [
      ...OPEN,
      { at: 2300, price: 41, qty: 10, side: 'sell' }, // at our price, but the order is still on its way
      { at: 2499, price: 40, qty: 10, side: 'sell' }, // through our price, still on its way
      { at: 2600, price: 41, qty: 3, side: 'sell' },
    ]);
    const config = testConfig({ latency: { insertMs: 500, cancelMs: 500 }, queueAheadModel: { model: 'none' } });
    const result = await runBacktest({ data: file, config, strategy: bidOnce('0.41'), params });
    expect(fillTimes(result.series)).toEqual([[2600, '3', '0.41']]);
  });

  it('lets fills reach an order until its cancel arrives, after the cancel latency', async () => {
    const file = writeHistory(path.join(tempDir(), 'h.jsonl'), [
      ...OPEN,
      { at: 2600, price: 41, qty: 3, side: 'sell' }, // first fill: the strategy cancels at 2600
      { at: 3000, price: 40, qty: 1, side: 'sell' }, // trade-through before the cancel arrives at 3100
      { at: 3200, price: 39, qty: 1, side: 'sell' },
    ]);
    // the optimistic trade-through (a 1-lot print through the bid fills what is left of it): this test is about the cancel's latency
    const config = testConfig({ latency: { insertMs: 500, cancelMs: 500 }, queueAheadModel: { model: 'none' }, tradeThrough: 'full' });
    const result = await runBacktest({ data: file, config, strategy: bidOnce('0.41', { cancelOnFill: true }), params });
    expect(fillTimes(result.series)).toEqual([
      [2600, '3', '0.41'],
      [3000, '2', '0.41'],
    ]);
    const zero = await runBacktest({
      data: file,
      config: testConfig({ latency: { insertMs: 500, cancelMs: 0 }, queueAheadModel: { model: 'none' } }),
      strategy: bidOnce('0.41', { cancelOnFill: true }),
      params,
    });
    expect(fillTimes(zero.series)).toEqual([[2600, '3', '0.41']]);
  });
});

/**
 * Bids 5 at `price` from a timer firing at T0 + `placeAt`, and cancels it from one firing at T0 + `cancelAt`
 * (ms; timers start with the run at T0: a timer firing at T0 + at needs a period of `at`).
 */
function timedBid(price: string, placeAt: number, cancelAt?: number) {
  return defineStrategy({
    name: 'timed-bid',
    params: z.strictObject({ symbols: z.array(z.string()) }),
    state: () => ({ clordId: undefined as string | undefined }),
    onStart(ctx) {
      ctx.every('place', placeAt);
      if (cancelAt !== undefined) ctx.every('cancel', cancelAt);
    },
    onTimer(ctx, name) {
      ctx.cancelTimer(name);
      if (name === 'place') ctx.state.clordId = ctx.place({ symbol: 'SYN-A', side: 'BUY', qty: 5, price, timeInForce: 'GOOD_TILL_CANCEL' });
      else if (ctx.state.clordId !== undefined) ctx.cancel(ctx.state.clordId);
    },
  });
}

describe('latency of orders sent from timers', () => {
  // no trade between the timers and the prints: the requests must reach the exchange at their own times
  const rows: Row[] = [...OPEN, { at: 10_000, price: 40, qty: 10, side: 'sell' }, { at: 20_000, price: 40, qty: 10, side: 'sell' }];
  const config = testConfig({ latency: { insertMs: 50, cancelMs: 50 }, queueAheadModel: { model: 'none' } });

  it('acknowledges an insert sent from a timer after the insert latency, not at the next tape trade; later trades fill it', async () => {
    const file = writeHistory(path.join(tempDir(), 'h.jsonl'), rows);
    const result = await runBacktest({ data: file, config, strategy: timedBid('0.41', 3000), params });
    expect(fillTimes(result.series)).toEqual([[10_000, '5', '0.41']]);
  });

  it('lets a cancel sent from a timer arrive after the cancel latency, before a later trade through the price', async () => {
    const file = writeHistory(path.join(tempDir(), 'h.jsonl'), rows);
    const result = await runBacktest({ data: file, config, strategy: timedBid('0.41', 3000, 5000), params });
    expect(fillTimes(result.series)).toEqual([]);
    expect(result.report['orders']).toBe(1);
    // the same cancel 50 ms after the print reaches the exchange too late: the order fills
    const late = await runBacktest({ data: file, config, strategy: timedBid('0.41', 3000, 9_960), params });
    expect(fillTimes(late.series)).toEqual([[10_000, '5', '0.41']]);
  });
});

describe('timers of any period', () => {
  it('runs a timer whose period is not a whole number of milliseconds at each of its times (no hang)', async () => {
    const file = writeHistory(path.join(tempDir(), 'h.jsonl'), [...OPEN, { at: 3000, price: 41, qty: 1, side: 'sell' }]);
    const fired: number[] = [];
    const third = defineStrategy({
      name: 'third',
      params: z.strictObject({ symbols: z.array(z.string()) }),
      onStart: (ctx) => ctx.every('q', 1000 / 3),
      onTimer: (ctx) => void fired.push(ctx.now() - T0),
    });
    await runBacktest({ data: file, config: testConfig(), strategy: third, params });
    expect(fired.length).toBeGreaterThanOrEqual(9);
    expect(fired.slice(0, 3).map(Math.round)).toEqual([333, 667, 1000]);
  });
});

describe('busted trades', () => {
  const rows: Row[] = [...OPEN, { at: 3000, price: 39, qty: 1, side: 'sell', n: 3 }, { at: 4000, price: 46, qty: 1, side: 'buy', n: 4 }];

  // with the optimistic trade-through (a 1-lot print through the bid fills all 5): these tests are about busts
  it('replays a trade the tape later busts as if it never happened', async () => {
    const config = testConfig({ latency: { insertMs: 0, cancelMs: 0 }, queueAheadModel: { model: 'none' }, tradeThrough: 'full' });
    const kept = await runBacktest({
      data: writeHistory(path.join(tempDir(), 'a.jsonl'), rows),
      config,
      strategy: bidOnce('0.41'),
      params,
    });
    expect(fillTimes(kept.series)).toEqual([[3000, '5', '0.41']]);
    const busted = writeHistory(path.join(tempDir(), 'b.jsonl'), [
      ...rows,
      { at: 3000, price: 39, qty: 1, side: 'sell', n: 3, state: 'TRADE_STATE_BUSTED' },
    ]);
    const result = await runBacktest({ data: busted, config, strategy: bidOnce('0.41'), params });
    expect(result.series.fills).toEqual([]);
    expect(result.report['events']).toBe(3);
    expect(result.report['data']).toMatchObject({ records: 5, busted: 1, lateBusts: 0 });
  });

  it('counts a bust that comes later than the supersede window as late, and keeps the trade', async () => {
    const file = writeHistory(path.join(tempDir(), 'c.jsonl'), [
      ...rows,
      { at: 4000, price: 46, qty: 1, side: 'buy', n: 5 },
      { at: 3000, price: 39, qty: 1, side: 'sell', n: 3, state: 'TRADE_STATE_BUSTED' },
    ]);
    const config = testConfig({
      latency: { insertMs: 0, cancelMs: 0 },
      queueAheadModel: { model: 'none' },
      supersedeWindow: 1,
      tradeThrough: 'full',
    });
    const result = await runBacktest({ data: file, config, strategy: bidOnce('0.41'), params });
    expect(fillTimes(result.series)).toEqual([[3000, '5', '0.41']]);
    expect(result.report['data']).toMatchObject({ busted: 0, lateBusts: 1 });
  });
});

describe('settlement', () => {
  const rows: Row[] = [...OPEN, { at: 6000, price: 44, qty: 2, side: 'buy' }, { at: 9000, price: 30, qty: 2, side: 'sell' }];
  /** Buys 5 at the offer (0.45) on the first book, and rests a bid at 0.41 that never fills. */
  const buyer = () => {
    let done = false;
    return scripted({
      onBook(ctx, book) {
        if (done || book.mid === undefined) return;
        done = true;
        ctx.place({ symbol: book.symbol, side: 'BUY', qty: 5, price: '0.45', timeInForce: 'IMMEDIATE_OR_CANCEL' });
        ctx.place({ symbol: book.symbol, side: 'BUY', qty: 1, price: '0.41' });
      },
    });
  };

  it('settles a contract expiring in the data at the configured price and ignores later trades', async () => {
    const file = writeHistory(path.join(tempDir(), 's.jsonl'), rows, { expiration: T0 + 8000 });
    const config = testConfig({
      latency: { insertMs: 0, cancelMs: 0 },
      commissions: { takerBps: '10', makerBps: '0' },
      settlement: { 'SYN-A': '1' },
    });
    const result = await runBacktest({ data: file, config, strategy: buyer(), params });
    expect(result.report['settlements']).toEqual([
      { symbol: 'SYN-A', time: new Date(T0 + 8000).toISOString(), price: '1', source: 'config' },
    ]);
    expect(result.report['positions']).toEqual({ 'SYN-A': '0' });
    // bought 5 at 0.45 (fee 10 bps of 2.25), settled at 1.00
    expect(result.report['pnl']).toEqual({ total: '2.74775', realized: '2.75', unrealized: '0' });
    expect(result.report['fees']).toBe('0.00225');
    expect(result.report['data']).toMatchObject({ afterSettlement: 1 });
    expect(result.report['events']).toBe(3);
  });

  it("settles at the price the exchange's data shows (the header's settlements, as history fetch records them)", async () => {
    const settlements = [{ symbol: 'SYN-A', state: 'INSTRUMENT_STATE_EXPIRED' as const, settlementPx: new Decimal(1) }];
    const file = writeHistory(path.join(tempDir(), 's.jsonl'), rows, { expiration: T0 + 8000, settlements });
    const config = testConfig({ latency: { insertMs: 0, cancelMs: 0 } });
    const result = await runBacktest({ data: file, config, strategy: buyer(), params });
    expect(result.report['settlements']).toEqual([
      { symbol: 'SYN-A', time: new Date(T0 + 8000).toISOString(), price: '1', source: 'exchange' },
    ]);
    expect(result.report['unsettled']).toBeUndefined();
    expect((result.report['pnl'] as { realized: string }).realized).toBe('2.75');
  });

  // #22: a contract used to settle at its last trade rounded (0.44 -> 0): an outcome invented by rounding
  it('leaves the position open, marked at the last price, when the data has no settlement price, and says why', async () => {
    const unknown = writeHistory(path.join(tempDir(), 's.jsonl'), rows, { expiration: T0 + 8000 });
    const zero = writeHistory(path.join(tempDir(), 'z.jsonl'), rows, {
      expiration: T0 + 8000,
      settlements: [{ symbol: 'SYN-A', state: 'INSTRUMENT_STATE_EXPIRED', settlementPx: new Decimal(0) }],
    });
    const config = testConfig({ latency: { insertMs: 0, cancelMs: 0 } });
    for (const [file, why] of [
      [unknown, 'the data has no settlement price for SYN-A (set backtest.settlement.SYN-A if you know the outcome)'],
      [zero, 'settlementPx 0, which the wire cannot tell from not settled yet'],
    ] as const) {
      const result = await runBacktest({ data: file, config, strategy: buyer(), params });
      expect(result.report['settlements']).toEqual([]);
      const [entry] = result.report['unsettled'] as { reason: string }[];
      expect(entry).toMatchObject({ symbol: 'SYN-A', expired: new Date(T0 + 8000).toISOString(), position: '5', markedAt: '0.44' });
      expect(entry?.reason).toContain(why);
      expect(formatSummary(result.report, result.wall)).toContain(
        `UNSETTLED  SYN-A expired ${new Date(T0 + 8000).toISOString()} with no settlement price: ` +
          'position 5 left open, marked at 0.44 (last price)',
      );
      expect(result.report['positions']).toEqual({ 'SYN-A': '5' });
      // bought 5 at 0.45, marked at the last trade 0.44; the resting bid expired with the instrument
      expect(result.report['pnl']).toEqual({ total: '-0.05', realized: '0', unrealized: '-0.05' });
      expect(result.report['data']).toMatchObject({ afterSettlement: 1 });
      expect(result.report['orders']).toBe(2);
    }
  });
});

describe('determinism', () => {
  it('writes the same report.json bytes for the same inputs', async () => {
    const config = loadBacktestConfig('config/backtest.yaml');
    const data = 'backtest/data/sample.jsonl';
    const a = await runBacktest({ data, config });
    const b = await runBacktest({ data, config });
    expect(stableStringify(a.report)).toBe(stableStringify(b.report));
    expect(JSON.stringify(a.series)).toBe(JSON.stringify(b.series));
    expect(a.report['fills']).toBeGreaterThan(0);
    expect(Object.keys(a.report)).not.toContain('wallSeconds');
  });
});
