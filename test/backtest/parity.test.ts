/**
 * Parity: a strategy run live against the embedded exchange with recording on, then the recording replayed
 * by the backtest, makes the same decisions in the same order, and its fills agree with the live ones.
 *
 * Decisions. The strategy (`trade-follower`, below) requotes around every trade it sees: cancel
 * everything, then a post-only bid one tick under and an offer one tick over the trade price, never through
 * its own previous quotes. It decides from the market events and the engine time it is given, which a
 * recording reproduces exactly (the same book updates, in the same order, at the same times): the
 * comparison is exact, every intent, in order, decided at the time the live bot received the event.
 * Why not any strategy: a decision that depends on the bot's own order states or position at the instant
 * of a book update cannot be reproduced exactly by any replay. Live, the market stream, the order stream
 * and the HTTP answers are three connections; whether the fill of a trade arrives just before or just after
 * the book update that shows the trade (or an acknowledgement before or after the update showing the new
 * quote) is decided by socket scheduling, and the HTTP answers are not among the events a recording holds.
 * Replay delivers simulated answers after the configured latency and a trade's fills right before the
 * update that reveals it. Risk rules read those states too (self-match prevention holds an order that
 * would cross the bot's resting one until that one is cancelled), which is why the strategy never quotes
 * through its previous quotes.
 *
 * Fills. The replayed fills are the backtest's own (the fill model, fed the recorded market without the
 * live bot's quotes and fills). Market data is aggregated by price (L2): when orders at the bot's price are
 * cancelled after the bot joined the queue, the data cannot say whether they were ahead of it or behind.
 * So the live fills are bracketed, order by order: the replay with the pessimistic queue estimate (`level`,
 * fraction 1: everyone shown at the price is ahead, and a shrinking level took its cancels from behind
 * the bot) fills each order at most as much as live, the replay assuming no queue (`none`) at least as
 * much; where both agree (the queue was not ambiguous) the fills must equal the live ones exactly, in
 * order. Every replayed fill happens when the bot received the book update that revealed the trade: for
 * the exact fills, the update showing the very trade that filled the live order (by exchange time). That
 * is the only time difference: the latency of the market data (a live fill carries the exchange's time).
 *
 * The activity is stepped by the test and each step waits until the session is quiet (every exchange event
 * received, no call in flight), so the live run's orders are at the exchange before the next trade, as they
 * are in the replay with a 1 ms latency. The bot's clock is injected and moves 500 ms per step (see
 * helpers/live-session.ts): the live run's engine times, hence its risk rate limits, do not depend on how
 * fast this machine steps.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backtestSection, type BacktestConfig } from '../../backtest/config.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import type { TradebotConfig } from '../../src/config/index.ts';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import { capturing, type Capture, type CapturedFill } from './helpers/intent-capture.ts';
import { tempDir } from './helpers/history-file.ts';
import { SESSION_SYMBOL, startLiveSession, type LiveSession } from './helpers/live-session.ts';

const TICK = new Decimal('0.01');

/** A fresh definition per run (it keeps its last trade price per symbol). */
function tradeFollower() {
  const previous = new Map<string, Decimal>();
  return defineStrategy({
    name: 'trade-follower',
    description: 'Requotes one tick around every trade, never through its previous quotes',
    params: z.strictObject({ symbols: z.array(z.string()).min(1), qty: z.number().int().positive() }),
    onTrade(ctx, trade) {
      ctx.cancelAll(trade.symbol);
      const before = previous.get(trade.symbol) ?? trade.price;
      previous.set(trade.symbol, trade.price);
      // the previous quotes were one tick around `before`: the new bid stays at or under it, the offer at or over it
      const bid = Decimal.min(trade.price.minus(TICK), before);
      const offer = Decimal.max(trade.price.plus(TICK), before);
      if (bid.gte('0.01')) ctx.place({ symbol: trade.symbol, side: 'BUY', qty: ctx.params.qty, price: bid, postOnly: true, label: 'bid' });
      if (offer.lte('0.99'))
        ctx.place({ symbol: trade.symbol, side: 'SELL', qty: ctx.params.qty, price: offer, postOnly: true, label: 'offer' });
    },
    onStop(ctx) {
      ctx.cancelAll();
    },
  });
}

const PARAMS = { symbols: [SESSION_SYMBOL], qty: 3 };
const STEPS = 60;

let session: LiveSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

interface RecordedBook {
  /** When the bot received it (engine ms). */
  readonly received: number;
  /** The exchange's time of the update. */
  readonly exchange: number;
}

/** The recorded book updates of `symbol` that revealed a trade (session volume rose), in recording order; and every book's receive time. */
function recordedBooks(file: string, symbol: string): { trades: RecordedBook[]; received: Set<number> } {
  const trades: RecordedBook[] = [];
  const received = new Set<number>();
  let shares: number | undefined;
  for (const line of readFileSync(file, 'utf8').trimEnd().split('\n').slice(1)) {
    const record = JSON.parse(line) as {
      type: string;
      time: number;
      event?: { type: string; book?: { symbol?: string; transactTime?: string; stats?: { sharesTraded?: string } } };
    };
    const book = record.event?.book;
    if (record.type !== 'market' || record.event?.type !== 'book' || book?.symbol !== symbol) continue;
    received.add(record.time);
    const now = Number(book.stats?.sharesTraded ?? '0');
    if (shares !== undefined && now > shares) trades.push({ received: record.time, exchange: Date.parse(book.transactTime ?? '') });
    shares = now;
  }
  return { trades, received };
}

async function replay(
  recording: string,
  config: TradebotConfig,
  queueAheadModel: Record<string, unknown>,
  tradeThrough: 'print' | 'full',
): Promise<Capture & { reportFills: unknown }> {
  const { strategy, capture } = capturing(tradeFollower());
  const backtest: BacktestConfig = {
    ...config,
    backtest: backtestSection().parse({ latency: { insertMs: 1, cancelMs: 1, replaceMs: 1 }, queueAheadModel, tradeThrough }),
  };
  const result = await runBacktest({ data: recording, config: backtest, strategy, params: PARAMS });
  return { ...capture, reportFills: result.report['fills'] };
}

const filledByOrder = (fills: readonly CapturedFill[]): Map<string, number> => {
  const out = new Map<string, number>();
  for (const f of fills) out.set(f.order, (out.get(f.order) ?? 0) + Number(f.qty));
  return out;
};
const describeFill = (f: CapturedFill) => `${f.order} ${f.side} ${f.qty} ${f.symbol}@${f.price}`;

describe('parity: live with recording, then the recording replayed', () => {
  it('makes the same decisions in the same order, and the replayed fills bracket (or equal) the live ones', async () => {
    const recording = path.join(tempDir(), 'session.jsonl');
    const live = capturing(tradeFollower());
    session = await startLiveSession({ strategy: live.strategy, params: PARAMS, recording, seed: 23, stepMs: 500 });
    for (let i = 0; i < STEPS; i++) await session.step();
    await session.stop();
    // the bounds: the whole level ahead and trade-through capped by the print (the default), nothing ahead and trade-through in full
    const pessimistic = await replay(recording, session.config, { model: 'level', fraction: '1' }, 'print');
    const optimistic = await replay(recording, session.config, { model: 'none' }, 'full');
    const books = recordedBooks(recording, SESSION_SYMBOL);

    // the session did trade: decisions on both sides, fills
    const places = live.capture.intents.filter((i) => i.what.startsWith('place')).length;
    expect(places).toBeGreaterThan(40);
    expect(live.capture.fills.length).toBeGreaterThan(5);

    // decisions: the same intents in the same order (both replays), decided when the live bot received the event
    expect(pessimistic.intents.map((i) => i.what)).toEqual(live.capture.intents.map((i) => i.what));
    expect(optimistic.intents.map((i) => i.what)).toEqual(live.capture.intents.map((i) => i.what));
    const stopAt = live.capture.intents.length - 1; // onStop's cancelAll: live at the stop, replay at the recording's end line
    live.capture.intents.slice(0, stopAt).forEach((intent, i) => {
      const at = pessimistic.intents[i]?.time ?? Number.NaN;
      expect(books.received.has(at), `intent ${i} ${intent.what}: replayed at the time a book update was received live`).toBe(true);
      expect(at, `intent ${i} ${intent.what}`).toBe(intent.time);
    });

    // fills: bracketed order by order; exact (and in order) where the two queue assumptions agree
    const low = filledByOrder(pessimistic.fills);
    const high = filledByOrder(optimistic.fills);
    const actual = filledByOrder(live.capture.fills);
    const orders = new Set([...low.keys(), ...high.keys(), ...actual.keys()]);
    const exact = [...orders].filter((o) => (low.get(o) ?? 0) === (high.get(o) ?? 0));
    for (const order of orders) {
      const filled = actual.get(order) ?? 0;
      expect(filled, `${order}: live ${filled}, replay between ${low.get(order) ?? 0} and ${high.get(order) ?? 0}`).toBeGreaterThanOrEqual(
        low.get(order) ?? 0,
      );
      expect(filled, `${order}: live ${filled}, replay between ${low.get(order) ?? 0} and ${high.get(order) ?? 0}`).toBeLessThanOrEqual(
        high.get(order) ?? 0,
      );
    }
    const exactLive = live.capture.fills.filter((f) => exact.includes(f.order));
    const exactReplay = pessimistic.fills.filter((f) => exact.includes(f.order));
    expect(exactLive.length).toBeGreaterThan(5);
    expect(exactReplay.map(describeFill)).toEqual(exactLive.map(describeFill));
    exactLive.forEach((fill, i) => {
      const at = exactReplay[i]?.time ?? Number.NaN;
      // the update the replay filled on: received at `at`, showing a trade at or after the live fill's, and the
      // trade update before it was earlier
      const k = books.trades.findIndex(
        (b, j) => b.received === at && b.exchange >= fill.time && (j === 0 || (books.trades[j - 1] as RecordedBook).exchange <= fill.time),
      );
      expect(k, `${describeFill(fill)}: replayed at ${at}, the live trade at exchange time ${fill.time}`).toBeGreaterThanOrEqual(0);
    });
    for (const f of [...pessimistic.fills, ...optimistic.fills])
      expect(
        books.trades.some((b) => b.received === f.time),
        describeFill(f),
      ).toBe(true);
    expect(pessimistic.reportFills).toBe(pessimistic.fills.length);
    console.info(
      `parity: ${live.capture.intents.length} intents (${places} places) identical; ` +
        `live ${live.capture.fills.length} fills on ${actual.size} orders; ` +
        `${exact.length} of ${orders.size} filled orders unambiguous (fills equal), ` +
        `replay fills ${pessimistic.fills.length} (level 1) .. ${optimistic.fills.length} (none)`,
    );
  }, 120_000);
});
