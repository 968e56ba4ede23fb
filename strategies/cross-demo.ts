/**
 * Cross demo: moves inventory between two accounts of the firm with `insert_order_cross`.
 *
 * Every `everyMs` of engine time it crosses `qty` contracts of `symbol` at the current mid, snapped to the
 * instrument's tick (from its reference data, `ctx.instrument`), from `sellAccount` to `buyAccount`,
 * all-or-none, at most `maxCrosses` times. A cross needs a two-sided book so its price is fair; with a stale
 * book it waits. The count of crosses sent is per-run state (`ctx.state`).
 *
 * Params (YAML):
 *   symbol: RAIN-NYC-2026-12-01   buyAccount: firms/demo/accounts/alice-main
 *   sellAccount: firms/demo/accounts/alice-hedge   qty: "3"   everyMs: 5000   maxCrosses: 5
 */
import { account, decimal, defineStrategy, toTick, z } from '../src/strategy.ts';

const params = z.strictObject({
  symbol: z.string().min(1),
  buyAccount: account(),
  sellAccount: account(),
  qty: decimal({ positive: true }).prefault('3'),
  everyMs: z.number().int().positive().default(5000),
  maxCrosses: z.number().int().positive().default(5),
});

export default defineStrategy({
  name: 'cross-demo',
  description: 'Crosses inventory between two firm accounts at the mid',
  params,
  state: () => ({ sent: 0 }),
  onStart(ctx) {
    if (ctx.params.buyAccount === ctx.params.sellAccount) throw new Error('cross-demo: buyAccount and sellAccount must differ');
    ctx.every('cross', ctx.params.everyMs);
  },
  onTimer(ctx) {
    if (ctx.state.sent >= ctx.params.maxCrosses) return;
    const book = ctx.book(ctx.params.symbol);
    const instrument = ctx.instrument(ctx.params.symbol);
    if (book === undefined || book.stale || book.mid === undefined || instrument === undefined) return;
    const price = toTick(instrument, book.mid, 'nearest');
    ctx.cross({
      symbol: ctx.params.symbol,
      qty: ctx.params.qty,
      price,
      buyAccount: ctx.params.buyAccount,
      sellAccount: ctx.params.sellAccount,
      allOrNone: true,
    });
    ctx.state.sent += 1;
  },
});
