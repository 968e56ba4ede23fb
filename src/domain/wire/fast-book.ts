/**
 * The fast path of the market data stream's hot message, a book update (`{"result": {"update": {...}}}` on
 * the gateway, `{update: {...}}` as a loaded gRPC message): hand-written checks of exactly the shapes the
 * table codec (tables/market.ts via stream-codec.ts) accepts without question, giving the same typed
 * MarketDataMessage with the same Decimal values (the same conversions: tryDecimalFromRaw, tryParseTimestamp)
 * without the generic table walk. Anything else (an error or heartbeat line, a missing or unknown symbol, a
 * value of another JSON type, an invalid value) returns undefined, and the caller decodes with the table
 * codec, which gives the result or the error with its field path: the fast path never decides that input is
 * bad. test/domain/wire/fast-book.test.ts checks the two agree, on generated updates and damaged ones.
 */
import { type Decimal, ZERO } from '../decimal.ts';
import { INSTRUMENT_STATES, type InstrumentState } from '../enums.ts';
import { type InstrumentScales, tryDecimalFromRaw } from '../scales.ts';
import { tryParseTimestamp } from '../time.ts';
import type { BookLevel, InstrumentStats, OrderBook } from '../types/market.ts';
import type { MarketDataMessage } from '../types/stream.ts';
import { isPlainObject } from './codec.ts';

export type ScaleLookup = (symbol: string) => InstrumentScales | undefined;

/** The market data message the fast path gives: a book update. */
export type BookUpdateMessage = Extract<MarketDataMessage, { readonly kind: 'update' }>;

const STATES: ReadonlySet<string> = new Set(INSTRUMENT_STATES);

/** A scaled integer at `digits` places as the table codec reads it; undefined: not for the fast path. */
function scaled(raw: unknown, digits: number): Decimal | undefined {
  if (raw === undefined || raw === null || raw === '0') return ZERO;
  return typeof raw === 'string' ? tryDecimalFromRaw(raw, digits) : undefined;
}

function levels(raw: unknown, scales: InstrumentScales): BookLevel[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return undefined;
  const out = new Array<BookLevel>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const level: unknown = raw[i];
    if (!isPlainObject(level)) return undefined;
    const px = scaled(level['px'], scales.priceDigits);
    const qty = scaled(level['qty'], scales.qtyDigits);
    if (px === undefined || qty === undefined) return undefined;
    out[i] = { px, qty };
  }
  return out;
}

/** Instrument stats in the table's field order; undefined: not for the fast path. */
function stats(raw: Record<string, unknown>, scales: InstrumentScales): InstrumentStats | undefined {
  const p = scales.priceDigits;
  const q = scales.qtyDigits;
  const openPx = scaled(raw['open_px'], p);
  const closePx = scaled(raw['close_px'], p);
  const lowPx = scaled(raw['low_px'], p);
  const highPx = scaled(raw['high_px'], p);
  const lastTradePx = scaled(raw['last_trade_px'], p);
  const indicativeOpenPx = scaled(raw['indicative_open_px'], p);
  const settlementPx = scaled(raw['settlement_px'], p);
  const sharesTraded = scaled(raw['shares_traded'], q);
  const notionalTraded = scaled(raw['notional_traded'], p + q);
  const openInterest = scaled(raw['open_interest'], q);
  if (
    openPx === undefined ||
    closePx === undefined ||
    lowPx === undefined ||
    highPx === undefined ||
    lastTradePx === undefined ||
    indicativeOpenPx === undefined ||
    settlementPx === undefined ||
    sharesTraded === undefined ||
    notionalTraded === undefined ||
    openInterest === undefined
  ) {
    return undefined;
  }
  return { openPx, closePx, lowPx, highPx, lastTradePx, indicativeOpenPx, settlementPx, sharesTraded, notionalTraded, openInterest };
}

/** Marks a field the fast path does not take (`undefined` is a valid decoded value of these fields). */
const SKIP = Symbol('skip');

function state(raw: unknown): InstrumentState | undefined | typeof SKIP {
  if (raw === undefined || raw === null) return undefined;
  return typeof raw === 'string' && STATES.has(raw) ? (raw as InstrumentState) : SKIP;
}

function time(raw: unknown): number | undefined | typeof SKIP {
  if (raw === undefined || raw === null) return undefined;
  return typeof raw === 'string' ? (tryParseTimestamp(raw) ?? SKIP) : SKIP;
}

/**
 * A book update body (snake_case keys, the symbol's scales from `lookup`) as the table codec decodes it,
 * or undefined when the table codec must decide.
 */
export function fastOrderBook(update: Record<string, unknown>, lookup: ScaleLookup): OrderBook | undefined {
  const symbol = update['symbol'];
  if (typeof symbol !== 'string') return undefined;
  const scales = lookup(symbol);
  if (scales === undefined) return undefined;
  const bids = levels(update['bids'], scales);
  const offers = levels(update['offers'], scales);
  const st = state(update['state']);
  const rawStats = update['stats'];
  let instrumentStats: InstrumentStats | undefined;
  if (rawStats !== undefined && rawStats !== null) {
    if (!isPlainObject(rawStats)) return undefined;
    instrumentStats = stats(rawStats, scales);
    if (instrumentStats === undefined) return undefined;
  }
  const transactTime = time(update['transact_time']);
  if (bids === undefined || offers === undefined || st === SKIP || transactTime === SKIP) return undefined;
  return { symbol, bids, offers, state: st, stats: instrumentStats, transactTime };
}

/** `{update: {...}}` (the gRPC message's loaded form, extra keys ignored) as a market data message, or undefined. */
export function fastMarketUpdate(result: Record<string, unknown>, lookup: ScaleLookup): BookUpdateMessage | undefined {
  const heartbeat = result['heartbeat'];
  const update = result['update'];
  if ((heartbeat !== undefined && heartbeat !== null) || !isPlainObject(update)) return undefined;
  const book = fastOrderBook(update, lookup);
  return book === undefined ? undefined : { kind: 'update', ...book };
}

/** A parsed gateway stream line `{"result": {"update": {...}}}` as a market data message, or undefined. */
export function fastMarketDataLine(line: unknown, lookup: ScaleLookup): BookUpdateMessage | undefined {
  if (!isPlainObject(line)) return undefined;
  const error = line['error'];
  const result = line['result'];
  if ((error !== undefined && error !== null) || !isPlainObject(result)) return undefined;
  return fastMarketUpdate(result, lookup);
}
