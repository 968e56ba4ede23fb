/**
 * One history line -> the few facts replay needs (TradeFields: id hash, symbol, raw price and quantity,
 * aggressor side, time, whether the trade stands), keeping Decimal, full decoding and per-line objects
 * off the hot path (the parser fills one reused TradeFields).
 *
 * Fast path (lazy): the line, decoded latin1, is read in the canonical layout the trade codec writes:
 * `{"type":"trade","trade":{"id":"…","aggressor":{…"order":{…"symbol":"…","side":"SIDE_…"…},…"lastPx":"…",
 * "lastShares":"…",…"transactTime":"…Z"},"passive":{…` by one sticky regular expression over the aggressor
 * execution (values checked canonical: digit strings without leading zeros, a `…Z` timestamp, and the
 * execution must end right after its transactTime); the trade's `state` is read from the end. Anything else (other key order, numbers instead of strings, leg prices, an offset timestamp) takes
 * the full path: JSON.parse and the family's strict `trade` codec. Both give the same facts (tested on the
 * sample history).
 */
import type { Instrument, Trade } from '../../src/domain/index.ts';
import { familyA, gateway, decimalToRawInt, scalesOf, type InstrumentScales } from '../../src/domain/index.ts';
import { describeError } from '../../src/errors.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import type { HistorySource } from '../history/format.ts';
import { parseIsoUtcAt } from './iso-time.ts';

/** The facts of one trade record; `key` is a 53-bit hash of the trade id (supersede matching). */
export interface TradeFields {
  key: number;
  symbol: string;
  /** Raw (scaled) price and quantity, as on the wire. */
  price: number;
  qty: number;
  /** The aggressor bought (lifted an offer); false: it sold into a bid. */
  buy: boolean;
  time: number;
  /** False for TRADE_STATE_BUSTED and TRADE_STATE_REJECTED: the trade did not stand. */
  stands: boolean;
}

export function newTradeFields(): TradeFields {
  return { key: 0, symbol: '', price: 0, qty: 0, buy: false, time: 0, stands: true };
}

const NOT_STANDING = new Set(['TRADE_STATE_BUSTED', 'TRADE_STATE_REJECTED']);
const PREFIX = '{"type":"trade","trade":{"id":"';
const AGGRESSOR = '","aggressor":{';

/**
 * The aggressor execution's facts in the canonical layout, from its start: order symbol and side (adjacent
 * in the order), lastPx and lastShares (adjacent), then transactTime, which must end the execution
 * (`"},"passive":{` follows). Sticky, so it reads only this execution.
 */
const AGGRESSOR_FACTS: Record<HistorySource, RegExp> = {
  familyA: /[^]*?"symbol":"([^"\\]*)","side":"SIDE_(BUY|SELL)"[^]*?"lastPx":"(\d{1,15})","lastShares":"(\d{1,15})"[^]*?"transactTime":"([^"]{20,40})"\},"passive":\{/y,
  gateway: /[^]*?"symbol":"([^"\\]*)","side":"SIDE_(BUY|SELL)"[^]*?"last_px":"(\d{1,15})","last_shares":"(\d{1,15})"[^]*?"transact_time":"([^"]{20,40})"\},"passive":\{/y,
};
const STATE_KEY = '"state":"TRADE_STATE_';

const canonicalInt = (text: string): boolean => text.length === 1 || text.charCodeAt(0) !== 48;

/** 53-bit hash (FNV-1a 32 and a second 21-bit multiplicative hash) of s[from, to). */
export function idKey(s: string, from = 0, to = s.length): number {
  let a = 0x811c9dc5;
  let b = 0x1f3d5b79;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x5bd1e995) ^ (b >>> 13);
  }
  return (a >>> 0) * 2097152 + ((b >>> 0) & 0x1fffff);
}

export class TradeLineParser {
  private readonly facts: RegExp;
  private readonly codec: typeof familyA.trade;
  private readonly scales: Map<string, InstrumentScales>;
  /** Lines that needed the full path (diagnostics). */
  fullParses = 0;

  constructor(
    private readonly source: HistorySource,
    instruments: readonly Instrument[],
    private readonly file: string,
  ) {
    this.facts = AGGRESSOR_FACTS[source];
    this.codec = source === 'gateway' ? gateway.trade : familyA.trade;
    this.scales = new Map(instruments.map((i) => [i.symbol, scalesOf(i)]));
  }

  /** Fills `out` from line `lineNo` given as latin1 text, with a thunk for its UTF-8 text (full path). */
  parse(latin1: string, utf8: () => string, lineNo: number, out: TradeFields): void {
    if (!this.fast(latin1, out)) this.full(utf8(), lineNo, out);
  }

  /** The fast path alone; false (out untouched or partly written) when the line is not canonical. */
  fast(s: string, out: TradeFields): boolean {
    if (!s.startsWith(PREFIX)) return false;
    const idEnd = s.indexOf('"', PREFIX.length);
    if (idEnd <= PREFIX.length || !s.startsWith(AGGRESSOR, idEnd)) return false;
    const facts = this.facts;
    facts.lastIndex = idEnd + AGGRESSOR.length;
    const m = facts.exec(s);
    if (m === null) return false;
    const px = m[3] as string;
    const shares = m[4] as string;
    if (!canonicalInt(px) || !canonicalInt(shares)) return false;
    const at = parseIsoUtcAt(m[5] as string, 0);
    const qty = +shares;
    if (at !== at || qty <= 0) return false;
    const end = facts.lastIndex;
    const stateAt = s.lastIndexOf(STATE_KEY);
    let stands = true;
    if (stateAt >= end) {
      const value = stateAt + STATE_KEY.length - 'TRADE_STATE_'.length;
      // NEW, CLEARED, …: only BUSTED and REJECTED do not stand
      const c = s.charCodeAt(value + 12);
      if (c === 66 || c === 82) stands = !NOT_STANDING.has(s.slice(value, s.indexOf('"', value)));
    } else if (stateAt >= 0) {
      return false;
    }
    out.key = idKey(s, PREFIX.length, idEnd);
    out.symbol = m[1] as string;
    out.price = +px;
    out.qty = qty;
    out.buy = (m[2] as string).length === 3;
    out.time = at;
    out.stands = stands;
    return true;
  }

  /** The full path: JSON.parse and the strict codec. */
  full(text: string, lineNo: number, out: TradeFields): void {
    this.fullParses++;
    let trade: Trade;
    try {
      const json = JSON.parse(text) as { type?: unknown; trade?: unknown };
      if (json.type !== 'trade') throw new Error(`type is ${JSON.stringify(json.type)}, expected "trade"`);
      trade = this.codec.decode(json.trade, (symbol) => this.scales.get(symbol));
    } catch (error) {
      const unknown = /no instrument scales for symbol|SCALE_UNKNOWN_SYMBOL/.test(describeError(error));
      throw backtestError(
        unknown ? BacktestErrorCode.UNKNOWN_SYMBOL : BacktestErrorCode.BAD_LINE,
        `${this.file}:${lineNo}: not a ${this.source} trade line: ${describeError(error)}`,
        { cause: error },
      );
    }
    const aggressor = trade.aggressor;
    const symbol = aggressor.order.symbol;
    const scales = this.scales.get(symbol);
    const time = aggressor.transactTime ?? trade.passive.transactTime;
    if (scales === undefined) throw backtestError(BacktestErrorCode.UNKNOWN_SYMBOL, `${this.file}:${lineNo}: symbol ${symbol} has no instrument in the header`);
    if (time === undefined) throw backtestError(BacktestErrorCode.BAD_LINE, `${this.file}:${lineNo}: the trade has no transact time`);
    out.key = idKey(trade.id);
    out.symbol = symbol;
    out.price = decimalToRawInt(aggressor.lastPx, scales, 'price', 'lastPx');
    out.qty = decimalToRawInt(aggressor.lastShares, scales, 'qty', 'lastShares');
    out.buy = aggressor.order.side === 'SIDE_BUY';
    out.time = time;
    out.stands = !NOT_STANDING.has(trade.state);
  }
}
