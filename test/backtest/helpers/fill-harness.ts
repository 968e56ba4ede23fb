/**
 * A fill engine over one instrument (raw prices 1..99, tick 1, lot 1) with its synthetic book and
 * volume window, driven by hand: `tape()` prints a trade the way replay does (passive fills first, then
 * the market model), `order()` sends a bot order. Time moves only when a test says so.
 */
import { FillEngine } from '../../../backtest/replay/fill-engine.ts';
import type { BotOutcome } from '../../../backtest/replay/fill-engine.ts';
import type { QueueAheadModel } from '../../../backtest/replay/queue-model.ts';
import type { TradeThroughFill } from '../../../backtest/replay/resting-orders.ts';
import { TapeBook } from '../../../backtest/replay/tape-book.ts';
import { VolumeWindow } from '../../../backtest/replay/volume-window.ts';
import type { Execution } from '../../../src/sim/matching/index.ts';
import type { OrderRequest } from '../../../src/sim/matching/types.ts';

export const SYMBOL = 'X';
export const BOT = 'firms/test/accounts/bot';

export interface FillHarness {
  readonly fill: FillEngine;
  readonly book: TapeBook;
  now: number;
  tape(price: number, qty: number, buyer: 'buy' | 'sell'): Execution[];
  order(side: 'BUY' | 'SELL', price: number | undefined, qty: number, extra?: Partial<OrderRequest>): BotOutcome;
}

export function fillHarness(queueModel: QueueAheadModel = { model: 'none' }, tradeThrough: TradeThroughFill = 'full'): FillHarness {
  const clock = { now: () => harness.now };
  const book = new TapeBook({ depth: 5, sizeWindowMs: 60_000, levelTtlMs: 3_600_000 });
  const volume = new VolumeWindow(queueModel.model === 'volume' ? queueModel.windowMs : 30_000);
  const fill = new FillEngine({
    clock,
    instruments: [{ symbol: SYMBOL, tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 99, priceScale: 100 }],
    models: new Map([[SYMBOL, book]]),
    volumes: new Map([[SYMBOL, volume]]),
    queueModel,
    tradeThrough,
  });
  let seq = 0;
  const harness: FillHarness = {
    fill,
    book,
    now: Date.UTC(2026, 10, 30, 14),
    tape(price, qty, buyer) {
      harness.now += 1000;
      const outcome = fill.onTrade(SYMBOL, price, qty, buyer === 'buy');
      book.onTrade(price, qty, buyer === 'buy', harness.now);
      volume.add(price, qty, harness.now);
      return [...(outcome?.executions ?? [])];
    },
    order(side, price, qty, extra = {}) {
      seq += 1;
      return fill.submit({
        symbol: SYMBOL,
        side: side === 'BUY' ? 'SIDE_BUY' : 'SIDE_SELL',
        type: price === undefined ? 'ORDER_TYPE_MARKET_TO_LIMIT' : 'ORDER_TYPE_LIMIT',
        ...(price === undefined ? {} : { price }),
        orderQty: qty,
        timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
        account: BOT,
        clordId: `c${seq}`,
        ...extra,
      });
    },
  };
  return harness;
}

/** [lastPx, lastQty] of each fill among `executions`. */
export const fillsOf = (executions: readonly Execution[]): [number, number][] =>
  executions.filter((e) => e.lastQty > 0).map((e) => [e.lastPx, e.lastQty]);
