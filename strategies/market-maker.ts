/**
 * Two-sided market maker with inventory skew (the demo strategy of `npm start`).
 *
 * On every fresh book it quotes one bid and one offer around the mid: `halfSpread` away, shifted against
 * its inventory by `skewPerContract` per contract held (long -> both quotes lower, so it sells more
 * readily; short -> higher), sized `quoteQty`, and stops quoting the side that would push its position
 * past `maxInventory`. Quotes are replaced only when the wanted price moved by at least `requoteTicks`
 * ticks, so queue priority is kept. Stale books (feed down) pull the quotes.
 *
 * Params (YAML):
 *   symbols: [RAIN-NYC-2026-12-01]   halfSpread: "0.02"   quoteQty: "5"   maxInventory: "50"
 *   skewPerContract: "0.001"   tickSize: "0.01"   requoteTicks: 1   minPrice: "0.01"   maxPrice: "0.99"
 */
import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../src/engine/strategy/define-strategy.ts';
import type { BookView, OrderView } from '../src/engine/strategy/views.ts';
import { Decimal } from '../src/domain/decimal.ts';
import { roundToTick } from '../src/domain/decimal.ts';
import { decimal } from '../src/config/fields.ts';


const params = z.strictObject({
  symbols: z.array(z.string().min(1)).min(1, 'name at least one symbol'),
  halfSpread: decimal().prefault('0.02'),
  quoteQty: decimal().prefault('5'),
  maxInventory: decimal().prefault('50'),
  skewPerContract: decimal().prefault('0.001'),
  tickSize: decimal().prefault('0.01'),
  requoteTicks: z.number().int().min(0).default(1),
  minPrice: decimal().prefault('0.01'),
  maxPrice: decimal().prefault('0.99'),
});
type Params = z.output<typeof params>;

/** The bid and offer the maker wants for this book and inventory (undefined: don't quote that side). */
export function targetQuotes(p: Params, mid: Decimal, inventory: Decimal): { bid: Decimal | undefined; offer: Decimal | undefined } {
  const center = mid.minus(inventory.times(p.skewPerContract));
  const clamp = (x: Decimal) => Decimal.max(p.minPrice, Decimal.min(p.maxPrice, x));
  const bid = clamp(roundToTick(center.minus(p.halfSpread), p.tickSize, 'down'));
  const offer = clamp(roundToTick(center.plus(p.halfSpread), p.tickSize, 'up'));
  return {
    bid: inventory.plus(p.quoteQty).gt(p.maxInventory) || !bid.lt(offer) ? undefined : bid,
    offer: inventory.minus(p.quoteQty).lt(p.maxInventory.neg()) || !bid.lt(offer) ? undefined : offer,
  };
}

function syncSide(ctx: StrategyContext<Params>, symbol: string, side: 'BUY' | 'SELL', wanted: Decimal | undefined, mine: readonly OrderView[]): void {
  const working = mine.filter((o) => o.side === side && o.status !== 'PENDING_CANCEL');
  const [keep, ...extra] = working;
  for (const order of extra) ctx.cancel(order.clordId);
  if (wanted === undefined) {
    if (keep) ctx.cancel(keep.clordId);
    return;
  }
  // Never quote through our own resting order on the other side (it may still be moving): wait a tick.
  const crossesOwn = mine.some((o) => o.side !== side && o.price !== undefined && (side === 'BUY' ? wanted.gte(o.price) : wanted.lte(o.price)));
  if (crossesOwn) return;
  if (keep === undefined) {
    ctx.place({ symbol, side, qty: ctx.params.quoteQty, price: wanted, postOnly: true, label: 'quote' });
    return;
  }
  if (keep.status === 'PENDING_NEW' || keep.status === 'PENDING_REPLACE' || keep.price === undefined) return;
  const moved = keep.price.minus(wanted).abs().div(ctx.params.tickSize);
  if (moved.gte(Math.max(1, ctx.params.requoteTicks))) ctx.replace(keep.clordId, { price: wanted });
}

export default defineStrategy({
  name: 'market-maker',
  description: 'Two-sided quotes around the mid, skewed against inventory',
  params,
  onBook(ctx, book: BookView) {
    const mine = ctx.openOrders(book.symbol);
    if (book.stale || book.mid === undefined) {
      for (const order of mine) if (order.status !== 'PENDING_CANCEL') ctx.cancel(order.clordId);
      return;
    }
    const { bid, offer } = targetQuotes(ctx.params, book.mid, ctx.position(book.symbol));
    // Move the side that gets out of the way first, so a quote never crosses our own other quote.
    const restingBid = mine.find((o) => o.side === 'BUY')?.price;
    if (bid !== undefined && restingBid !== undefined && bid.gt(restingBid)) {
      syncSide(ctx, book.symbol, 'SELL', offer, mine);
      syncSide(ctx, book.symbol, 'BUY', bid, mine);
    } else {
      syncSide(ctx, book.symbol, 'BUY', bid, mine);
      syncSide(ctx, book.symbol, 'SELL', offer, mine);
    }
  },
  onOrderUpdate(ctx, update) {
    if (update.type === 'fill') ctx.log.info({ symbol: update.fill.symbol, side: update.fill.side, qty: update.fill.qty.toString(), price: update.fill.price.toString() }, 'filled');
    if (update.type === 'refused') ctx.log.debug({ code: update.code }, 'intent refused by risk');
  },
  onStop(ctx) {
    ctx.cancelAll();
  },
});
