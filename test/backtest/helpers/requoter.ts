/**
 * A test strategy for long replays: whenever the top of a book moved it cancels its quotes and joins the
 * best bid and offer again (cancel and place, never replace, so no order lives long), which keeps
 * orders, acknowledgements, cancels and fills flowing through the whole pipeline.
 */
import { z } from 'zod';
import { defineStrategy } from '../../../src/engine/strategy/define-strategy.ts';

const last = new WeakMap<object, Map<string, string>>();

export default defineStrategy({
  name: 'requoter',
  params: z.strictObject({ symbols: z.array(z.string()).min(1), qty: z.number().int().positive().default(2) }),
  onBook(ctx, book) {
    if (book.stale || book.bestBid === undefined || book.bestOffer === undefined) return;
    let seen = last.get(ctx);
    if (seen === undefined) {
      seen = new Map();
      last.set(ctx, seen);
    }
    const top = `${book.bestBid.toString()}/${book.bestOffer.toString()}`;
    if (seen.get(book.symbol) === top) return;
    seen.set(book.symbol, top);
    ctx.cancelAll(book.symbol);
    ctx.place({ symbol: book.symbol, side: 'BUY', qty: ctx.params.qty, price: book.bestBid, postOnly: true });
    ctx.place({ symbol: book.symbol, side: 'SELL', qty: ctx.params.qty, price: book.bestOffer, postOnly: true });
  },
});
