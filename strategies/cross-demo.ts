/**
 * Cross demo: moves inventory between two accounts of the firm with `insert_order_cross`.
 *
 * Every `everyMs` of engine time it crosses `qty` contracts of `symbol` at the current mid (rounded to the
 * tick) from `sellAccount` to `buyAccount`, all-or-none, at most `maxCrosses` times. A cross needs a
 * two-sided book so its price is fair; with a stale book it waits.
 *
 * Params (YAML):
 *   symbol: RAIN-NYC-2026-12-01   buyAccount: firms/demo/accounts/alice-main
 *   sellAccount: firms/demo/accounts/alice-hedge   qty: "3"   everyMs: 5000   maxCrosses: 5   tickSize: "0.01"
 */
import { z } from 'zod';
import { defineStrategy } from '../src/engine/strategy/define-strategy.ts';
import { roundToTick } from '../src/domain/decimal.ts';
import { decimal } from '../src/config/fields.ts';

const params = z.strictObject({
  symbol: z.string().min(1),
  buyAccount: z.string().regex(/^firms\/[^/]+\/accounts\/[^/]+$/, 'expected firms/<firm>/accounts/<account>'),
  sellAccount: z.string().regex(/^firms\/[^/]+\/accounts\/[^/]+$/, 'expected firms/<firm>/accounts/<account>'),
  qty: decimal({ positive: true }).prefault('3'),
  everyMs: z.number().int().positive().default(5000),
  maxCrosses: z.number().int().positive().default(5),
  tickSize: decimal({ positive: true }).prefault('0.01'),
});

const sent = new WeakMap<object, number>();

export default defineStrategy({
  name: 'cross-demo',
  description: 'Crosses inventory between two firm accounts at the mid',
  params,
  onStart(ctx) {
    if (ctx.params.buyAccount === ctx.params.sellAccount) throw new Error('cross-demo: buyAccount and sellAccount must differ');
    ctx.every('cross', ctx.params.everyMs);
  },
  onTimer(ctx) {
    const count = sent.get(ctx) ?? 0;
    if (count >= ctx.params.maxCrosses) return;
    const book = ctx.book(ctx.params.symbol);
    if (book === undefined || book.stale || book.mid === undefined) return;
    const price = roundToTick(book.mid, ctx.params.tickSize, 'nearest');
    ctx.cross({ symbol: ctx.params.symbol, qty: ctx.params.qty, price, buyAccount: ctx.params.buyAccount, sellAccount: ctx.params.sellAccount, allOrNone: true });
    sent.set(ctx, count + 1);
  },
});
