/**
 * A test strategy for long replays that only reads: it follows every book (mid, spread, last trade) and
 * every trade of its symbols and keeps a running summary, placing no orders. A replay with it exercises
 * the reader, the supersede window, the synthetic book, book events, the pipeline's books, risk refresh,
 * the portfolio marks and the metrics, and nothing that belongs to orders.
 */
import { z } from 'zod';
import { defineStrategy } from '../../../src/engine/strategy/define-strategy.ts';
import { ZERO, type Decimal } from '../../../src/domain/decimal.ts';

const state = new WeakMap<object, { books: number; trades: number; widest: Decimal }>();

export default defineStrategy({
  name: 'book-watcher',
  params: z.strictObject({ symbols: z.array(z.string()).min(1) }),
  onBook(ctx, book) {
    const s = state.get(ctx) ?? { books: 0, trades: 0, widest: ZERO };
    state.set(ctx, s);
    s.books++;
    if (book.bestBid !== undefined && book.bestOffer !== undefined && book.bestOffer.minus(book.bestBid).gt(s.widest))
      s.widest = book.bestOffer.minus(book.bestBid);
  },
  onTrade(ctx) {
    const s = state.get(ctx);
    if (s !== undefined) s.trades++;
  },
});
