/**
 * Momentum taker: follows short-term price moves with aggressive IOC orders.
 *
 * It keeps the last `lookback` mids per symbol. When the mid has risen by at least `threshold` over the
 * window it buys `qty` at the offer (IOC, so it never rests); when it has fallen as much it sells at the
 * bid. Position is capped at `maxPosition` either way, and after a trade it waits `cooldownMs` of engine
 * time before trading that symbol again. Stale books are ignored. The windows are per-run state (`ctx.state`).
 *
 * Params (YAML):
 *   symbols: [FED-CUT-2026-12]   lookback: 10   threshold: "0.02"   qty: "2"   maxPosition: "20"   cooldownMs: 2000
 */
import { decimal, defineStrategy, symbols, z, type Decimal } from '../src/strategy.ts';

const params = z.strictObject({
  symbols: symbols(),
  lookback: z.number().int().min(2).default(10),
  threshold: decimal({ positive: true }).prefault('0.02'),
  qty: decimal({ positive: true }).prefault('2'),
  maxPosition: decimal({ positive: true }).prefault('20'),
  cooldownMs: z.number().int().min(0).default(2000),
});

/** The momentum signal: +1 buy, -1 sell, 0 nothing, from the oldest and newest mid of the window. */
export function momentumSignal(mids: readonly Decimal[], threshold: Decimal): -1 | 0 | 1 {
  const first = mids[0];
  const last = mids[mids.length - 1];
  if (first === undefined || last === undefined) return 0;
  const move = last.minus(first);
  if (move.gte(threshold)) return 1;
  if (move.lte(threshold.neg())) return -1;
  return 0;
}

/** Per symbol: the last mids and when it last traded (engine time). */
interface Window {
  readonly mids: Decimal[];
  lastTradeAt: number;
}

export default defineStrategy({
  name: 'momentum-taker',
  description: 'Takes liquidity in the direction of short-term moves',
  params,
  state: () => ({ windows: new Map<string, Window>() }),
  onBook(ctx, book) {
    if (book.stale || book.mid === undefined) return;
    const w = ctx.state.windows.get(book.symbol) ?? { mids: [], lastTradeAt: Number.NEGATIVE_INFINITY };
    ctx.state.windows.set(book.symbol, w);
    w.mids.push(book.mid);
    if (w.mids.length > ctx.params.lookback) w.mids.shift();
    if (w.mids.length < ctx.params.lookback || ctx.now() - w.lastTradeAt < ctx.params.cooldownMs) return;
    if (ctx.openOrders(book.symbol).length > 0) return;
    const signal = momentumSignal(w.mids, ctx.params.threshold);
    const position = ctx.position(book.symbol);
    if (signal === 1 && book.bestOffer !== undefined && position.plus(ctx.params.qty).lte(ctx.params.maxPosition)) {
      ctx.place({
        symbol: book.symbol,
        side: 'BUY',
        qty: ctx.params.qty,
        price: book.bestOffer,
        timeInForce: 'IMMEDIATE_OR_CANCEL',
        label: 'momentum',
      });
      w.lastTradeAt = ctx.now();
    } else if (signal === -1 && book.bestBid !== undefined && position.minus(ctx.params.qty).gte(ctx.params.maxPosition.neg())) {
      ctx.place({
        symbol: book.symbol,
        side: 'SELL',
        qty: ctx.params.qty,
        price: book.bestBid,
        timeInForce: 'IMMEDIATE_OR_CANCEL',
        label: 'momentum',
      });
      w.lastTradeAt = ctx.now();
    }
  },
});
