/**
 * The market data update of a symbol as its gRPC message, built straight from the matching engine's raw
 * scaled integers: exactly what `grpcCodecs.marketDataStream.encode({kind: 'update', ...marketSnapshot(...)})`
 * produces (a test pins the equivalence), without turning every level into a Decimal and back. The
 * market data stream sends one of these per book change, so this is the server's hot path; the scaled
 * integers on the wire are the engine's own (notional is already raw price x raw quantity, the commission
 * scale). proto3 defaults (zero prices, empty lists) are omitted, as the codecs omit them.
 */
import { formatTimestamp } from '../../domain/time.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import type { Json } from './calls.ts';

function put(target: Json, key: string, raw: number | undefined): void {
  if (raw !== undefined && raw !== 0) target[key] = String(raw);
}

function levels(list: readonly { price: number; qty: number }[]): Json[] {
  const out = new Array<Json>(list.length);
  for (let i = 0; i < list.length; i++) {
    const l = list[i] as { price: number; qty: number };
    const level: Json = {};
    put(level, 'px', l.price);
    put(level, 'qty', l.qty);
    out[i] = level;
  }
  return out;
}

/** `{update: {...}}` for `symbol` at `depth` levels, or undefined for an unknown symbol. */
export function marketUpdateMessage(core: ExchangeCore, symbol: string, depth: number): Json | undefined {
  if (core.instrument(symbol) === undefined) return undefined;
  const book = core.engine.depth(symbol, depth);
  const s = core.stats(symbol);
  const stats: Json = {};
  put(stats, 'open_px', s.open);
  put(stats, 'low_px', s.low);
  put(stats, 'high_px', s.high);
  put(stats, 'last_trade_px', s.last);
  put(stats, 'settlement_px', s.settlement);
  put(stats, 'shares_traded', s.sharesTraded);
  put(stats, 'notional_traded', s.notionalTraded);
  put(stats, 'open_interest', core.ledger.openInterest(symbol));
  const update: Json = { symbol, state: core.instrumentState(symbol), stats, transact_time: formatTimestamp(core.clock.now()) };
  if (book.bids.length > 0) update['bids'] = levels(book.bids);
  if (book.offers.length > 0) update['offers'] = levels(book.offers);
  return { update };
}
