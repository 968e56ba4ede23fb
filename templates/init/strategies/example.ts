/**
 * example: quotes `qty` either side of the mid, `halfSpread` away, on each symbol of `symbols`, and moves
 * the quotes when the mid moves. It stops bidding when long `maxPosition` and stops offering when short as
 * much. A starting point: change it, test it (test/example.test.ts), backtest it (`npm run backtest`) and run
 * it against the embedded exchange (`npm start`).
 */
import { decimal, defineStrategy, roundToTick, symbols, z, type BookView, type Decimal, type StrategyContext } from 'tradebot/strategy';

const params = z.strictObject({
  symbols: symbols(),
  halfSpread: decimal({ positive: true }).prefault('0.02'),
  qty: decimal({ positive: true }).prefault('1'),
  maxPosition: decimal({ positive: true }).prefault('10'),
  /** Move a quote only when its target is at least this many ticks away (fewer messages in a busy market). */
  requoteTicks: z.number().int().min(1).default(2),
});

type Params = z.output<typeof params>;
type Side = 'BUY' | 'SELL';

/** Places, moves or cancels this side's quote so that it rests at `price` (undefined: no quote). */
function quote(ctx: StrategyContext<Params>, symbol: string, side: Side, price: Decimal | undefined, tick: Decimal): void {
  const [current, ...extra] = ctx.openOrders(symbol).filter((order) => order.side === side && order.label === 'quote');
  for (const order of extra) ctx.cancel(order.clordId);
  if (current === undefined) {
    if (price !== undefined) ctx.place({ symbol, side, qty: ctx.params.qty, price, postOnly: true, label: 'quote' });
    return;
  }
  // a quote whose place, cancel or replace is still on its way is left alone until the exchange answers
  if (current.status === 'PENDING_NEW' || current.status === 'PENDING_CANCEL' || current.status === 'PENDING_REPLACE') return;
  if (price === undefined) ctx.cancel(current.clordId);
  else if (current.price === undefined || current.price.minus(price).abs().gte(tick.times(ctx.params.requoteTicks)))
    ctx.replace(current.clordId, { price });
}

/** The bid and offer for this book and position: on the tick, inside the limits, never crossing the book. */
export function targetQuotes(
  params: Params,
  book: BookView,
  position: Decimal,
  limits: { tickSize: Decimal; lowPriceLimit: Decimal; highPriceLimit: Decimal },
) {
  if (book.mid === undefined) return { bid: undefined, offer: undefined };
  const tick = limits.tickSize;
  let bid = roundToTick(book.mid.minus(params.halfSpread), tick, 'down');
  let offer = roundToTick(book.mid.plus(params.halfSpread), tick, 'up');
  if (book.bestOffer !== undefined && bid.gte(book.bestOffer)) bid = book.bestOffer.minus(tick);
  if (book.bestBid !== undefined && offer.lte(book.bestBid)) offer = book.bestBid.plus(tick);
  const canBuy = bid.gte(limits.lowPriceLimit) && position.plus(params.qty).lte(params.maxPosition);
  const canSell = offer.lte(limits.highPriceLimit) && position.minus(params.qty).gte(params.maxPosition.neg());
  return { bid: canBuy ? bid : undefined, offer: canSell ? offer : undefined };
}

export default defineStrategy({
  name: 'example',
  description: 'Quotes qty either side of the mid, halfSpread away',
  params,
  onBook(ctx, book) {
    const instrument = ctx.instrument(book.symbol);
    if (book.stale || instrument === undefined) return;
    const { bid, offer } = targetQuotes(ctx.params, book, ctx.position(book.symbol), instrument);
    quote(ctx, book.symbol, 'BUY', bid, instrument.tickSize);
    quote(ctx, book.symbol, 'SELL', offer, instrument.tickSize);
  },
  onOrderUpdate(ctx, update) {
    if (update.type === 'fill')
      ctx.log.info(`filled ${update.fill.side} ${update.fill.qty.toString()} ${update.fill.symbol} @ ${update.fill.price.toString()}`);
    if (update.type === 'refused') ctx.log.warn(`refused ${update.kind} on ${update.symbol ?? '?'}: ${update.code} ${update.message}`);
  },
});
