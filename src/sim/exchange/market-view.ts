/**
 * Market data as the simulator publishes it: an instrument's aggregated book up to a depth, its state and
 * session statistics (open interest from the ledger's positions), as a domain OrderBook (Decimal), ready for
 * either family's encoder or gRPC.
 */
import { Decimal, ZERO } from '../../domain/decimal.ts';
import type { OrderBook, InstrumentStats } from '../../domain/types/market.ts';
import type { ExchangeCore } from './exchange-core.ts';

export function marketSnapshot(core: ExchangeCore, symbol: string, depth: number): OrderBook | undefined {
  const instrument = core.instrument(symbol);
  if (instrument === undefined) return undefined;
  const { priceScale, qtyScale } = instrument.scales;
  const book = core.engine.depth(symbol, depth);
  const level = (l: { price: number; qty: number }) => ({
    px: new Decimal(l.price).div(priceScale),
    qty: new Decimal(l.qty).div(qtyScale),
  });
  const s = core.stats(symbol);
  const px = (raw: number | undefined) => (raw === undefined ? ZERO : new Decimal(raw).div(priceScale));
  const stats: InstrumentStats = {
    openPx: px(s.open),
    closePx: ZERO,
    lowPx: px(s.low),
    highPx: px(s.high),
    lastTradePx: px(s.last),
    indicativeOpenPx: ZERO,
    settlementPx: px(s.settlement),
    sharesTraded: new Decimal(s.sharesTraded).div(qtyScale),
    notionalTraded: new Decimal(s.notionalTraded).div(priceScale * qtyScale),
    openInterest: new Decimal(core.ledger.openInterest(symbol)).div(qtyScale),
  };
  return {
    symbol,
    bids: book.bids.map(level),
    offers: book.offers.map(level),
    state: core.instrumentState(symbol),
    stats,
    transactTime: core.clock.now(),
  };
}
