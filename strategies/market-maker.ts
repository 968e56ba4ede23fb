/**
 * Two-sided market maker with inventory skew (the demo strategy of `npm start`).
 *
 * On every fresh book it quotes one bid and one offer around the mid: `halfSpread` away, shifted against
 * its inventory by `skewPerContract` per contract held (long -> both quotes lower, so it sells more
 * readily; short -> higher), sized `quoteQty`, and stops quoting the side that would push its position
 * past `maxInventory`. Prices come from the instrument's reference data (`ctx.instrument`): snapped to its
 * tick (bids down, offers up), kept within its price limits (and `minPrice` / `maxPrice` when set), and never
 * through the other side of the book, so a post-only quote is never rejected for taking liquidity. Quotes are
 * replaced only when the wanted price moved by at least `requoteTicks` ticks, so queue priority is kept, and
 * not while the book shows the quote already (partly) taken: its fill is on the way on the order stream. Stale
 * books (feed down) pull the quotes.
 *
 * Params (YAML):
 *   symbols: [RAIN-NYC-2026-12-01]   halfSpread: "0.02"   quoteQty: "5"   maxInventory: "50"
 *   skewPerContract: "0.001"   requoteTicks: 1   minPrice: "0.05" (optional)   maxPrice: "0.95" (optional)
 */
import {
  Decimal,
  clampToLimits,
  decimal,
  defineStrategy,
  symbols,
  toTick,
  z,
  type BookView,
  type InstrumentView,
  type OrderView,
  type StrategyContext,
} from '../src/strategy.ts';

const params = z.strictObject({
  symbols: symbols(),
  halfSpread: decimal({ min: '0' }).prefault('0.02'),
  quoteQty: decimal({ positive: true }).prefault('5'),
  maxInventory: decimal({ min: '0' }).prefault('50'),
  skewPerContract: decimal({ min: '0' }).prefault('0.001'),
  requoteTicks: z.number().int().min(0).default(1),
  /** Optional bounds tighter than the instrument's price limits. */
  minPrice: decimal({ positive: true }).optional(),
  maxPrice: decimal({ positive: true }).optional(),
});
export type Params = z.output<typeof params>;

/** What the quoting rule reads of the book: the mid and the best price on each side (when there is one). */
export type Touch = Pick<BookView, 'mid' | 'bestBid' | 'bestOffer'> & { readonly mid: Decimal };
export type QuoteInstrument = Pick<InstrumentView, 'tickSize' | 'lowPriceLimit' | 'highPriceLimit'>;

/**
 * The bid and offer the maker wants for this book, inventory and instrument (undefined: don't quote that
 * side). A bid is always below the best offer and an offer above the best bid, so post-only quotes rest.
 */
export function targetQuotes(
  p: Params,
  touch: Touch,
  inventory: Decimal,
  instrument: QuoteInstrument,
): { bid: Decimal | undefined; offer: Decimal | undefined } {
  const low =
    p.minPrice === undefined ? instrument.lowPriceLimit : Decimal.max(instrument.lowPriceLimit, toTick(instrument, p.minPrice, 'up'));
  const high =
    p.maxPrice === undefined ? instrument.highPriceLimit : Decimal.min(instrument.highPriceLimit, toTick(instrument, p.maxPrice, 'down'));
  const limits = { lowPriceLimit: low, highPriceLimit: high };
  const center = touch.mid.minus(inventory.times(p.skewPerContract));
  let bid: Decimal | undefined = clampToLimits(limits, toTick(instrument, center.minus(p.halfSpread), 'down'));
  let offer: Decimal | undefined = clampToLimits(limits, toTick(instrument, center.plus(p.halfSpread), 'up'));
  // Post-only: never at or through the other side of the book (a tick inside it at best).
  if (touch.bestOffer !== undefined && bid.gte(touch.bestOffer)) bid = touch.bestOffer.minus(instrument.tickSize);
  if (touch.bestBid !== undefined && offer.lte(touch.bestBid)) offer = touch.bestBid.plus(instrument.tickSize);
  if (bid.lt(low)) bid = undefined;
  if (offer.gt(high)) offer = undefined;
  if (bid !== undefined && offer !== undefined && !bid.lt(offer)) return { bid: undefined, offer: undefined };
  return {
    bid: bid === undefined || inventory.plus(p.quoteQty).gt(p.maxInventory) ? undefined : bid,
    offer: offer === undefined || inventory.minus(p.quoteQty).lt(p.maxInventory.neg()) ? undefined : offer,
  };
}

/**
 * True when the book shows less resting at the order's price than the order itself (or, within the depth
 * the book shows, nothing at that price): someone took it, and the fill is still on its way on the order
 * stream. Replacing or cancelling it now would only be answered "too late to cancel".
 */
export function fillInFlight(book: Pick<BookView, 'bids' | 'offers'>, order: Pick<OrderView, 'side' | 'price' | 'leavesQty'>): boolean {
  const price = order.price;
  if (price === undefined) return false;
  const levels = order.side === 'BUY' ? book.bids : book.offers;
  const level = levels.find((l) => l.price.eq(price));
  if (level !== undefined) return level.qty.lt(order.leavesQty);
  const deepest = levels.at(-1)?.price;
  if (deepest === undefined) return true;
  return order.side === 'BUY' ? price.gte(deepest) : price.lte(deepest);
}

/** The smallest move worth a replace, `requoteTicks` (at least 1) ticks: worked out once per tick size, not on every book. */
const requoteDistances = new WeakMap<Decimal, Map<number, Decimal>>();
function requoteDistance(tick: Decimal, requoteTicks: number): Decimal {
  if (requoteTicks <= 1) return tick;
  let byTicks = requoteDistances.get(tick);
  if (byTicks === undefined) requoteDistances.set(tick, (byTicks = new Map()));
  let distance = byTicks.get(requoteTicks);
  if (distance === undefined) byTicks.set(requoteTicks, (distance = tick.times(requoteTicks)));
  return distance;
}

function syncSide(
  ctx: StrategyContext<Params>,
  book: BookView,
  tick: Decimal,
  side: 'BUY' | 'SELL',
  wanted: Decimal | undefined,
  mine: readonly OrderView[],
): void {
  const working = mine.filter((o) => o.side === side && o.status !== 'PENDING_CANCEL');
  const [keep, ...extra] = working;
  for (const order of extra) ctx.cancel(order.clordId);
  if (wanted === undefined) {
    if (keep) ctx.cancel(keep.clordId);
    return;
  }
  // Never quote through our own resting order on the other side (it may still be moving): wait a tick.
  const crossesOwn = mine.some(
    (o) => o.side !== side && o.price !== undefined && (side === 'BUY' ? wanted.gte(o.price) : wanted.lte(o.price)),
  );
  if (crossesOwn) return;
  if (keep === undefined) {
    ctx.place({ symbol: book.symbol, side, qty: ctx.params.quoteQty, price: wanted, postOnly: true, label: 'quote' });
    return;
  }
  if (keep.status === 'PENDING_NEW' || keep.status === 'PENDING_REPLACE' || keep.price === undefined || fillInFlight(book, keep)) return;
  // moved by at least requoteTicks ticks (compared as a distance: no division)
  const moved = keep.price.minus(wanted).abs();
  if (moved.gte(requoteDistance(tick, ctx.params.requoteTicks))) ctx.replace(keep.clordId, { price: wanted });
}

export default defineStrategy({
  name: 'market-maker',
  description: 'Two-sided quotes around the mid, skewed against inventory',
  params,
  onStart(ctx) {
    for (const symbol of ctx.symbols) {
      if (ctx.instrument(symbol) === undefined) ctx.log.warn({ symbol }, 'no reference data for this symbol: it is not quoted');
    }
  },
  onBook(ctx, book) {
    const mine = ctx.openOrders(book.symbol);
    const instrument = ctx.instrument(book.symbol);
    if (book.stale || book.mid === undefined || instrument === undefined) {
      for (const order of mine) if (order.status !== 'PENDING_CANCEL') ctx.cancel(order.clordId);
      return;
    }
    const { bid, offer } = targetQuotes(
      ctx.params,
      { mid: book.mid, bestBid: book.bestBid, bestOffer: book.bestOffer },
      ctx.position(book.symbol),
      instrument,
    );
    // Move the side that gets out of the way first, so a quote never crosses our own other quote.
    const restingBid = mine.find((o) => o.side === 'BUY')?.price;
    if (bid !== undefined && restingBid !== undefined && bid.gt(restingBid)) {
      syncSide(ctx, book, instrument.tickSize, 'SELL', offer, mine);
      syncSide(ctx, book, instrument.tickSize, 'BUY', bid, mine);
    } else {
      syncSide(ctx, book, instrument.tickSize, 'BUY', bid, mine);
      syncSide(ctx, book, instrument.tickSize, 'SELL', offer, mine);
    }
  },
  onOrderUpdate(ctx, update) {
    // formatting the fill costs even when the info level is off: ask first
    if (update.type === 'fill' && ctx.log.isLevelEnabled('info'))
      ctx.log.info(
        { symbol: update.fill.symbol, side: update.fill.side, qty: update.fill.qty.toString(), price: update.fill.price.toString() },
        'filled',
      );
    if (update.type === 'refused') ctx.log.debug({ code: update.code }, 'intent refused by risk');
  },
  onStop(ctx) {
    ctx.cancelAll();
  },
});
