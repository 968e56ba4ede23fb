/**
 * The compact trade line of a history file (format.ts): what replay needs of one trade record, in one fixed
 * key order,
 *
 *   {"type":"trade","id":"T…","symbol":"…","price":"0.25","qty":"1","side":"BUY"|"SELL",
 *    "time":"2026-11-30T14:00:02.000Z","state":"TRADE_STATE_NEW"}
 *
 * `price` / `qty`: the aggressor execution's lastPx / lastShares as decimal strings in domain units (the
 * shortest exact form, formatDecimal), checked to be exact at the instrument's scales; `side`: the aggressor
 * order's side; `time`: the aggressor execution's transact time, else the passive one's (what replay of a
 * full record takes); `state`: the trade's state. `encodeCompactTradeLine` writes it from a domain Trade (the
 * trade search's decoded record); `decodeCompactTrade` is the strict reading of any layout (the tape's full
 * path: every key required, no other key, each value checked), its errors naming the field.
 */
import { formatDecimal, isDecimalString, parseDecimal, type Decimal } from '../../src/domain/decimal.ts';
import { isMember, TRADE_STATES, type TradeState } from '../../src/domain/enums.ts';
import { decimalToRaw, type InstrumentScales } from '../../src/domain/scales.ts';
import { formatTimestamp, tryParseTimestamp, type EpochMs } from '../../src/domain/time.ts';
import type { Trade } from '../../src/domain/types/execution.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';

/** The keys of a compact trade line, in the order they are written. */
export const COMPACT_TRADE_KEYS = ['type', 'id', 'symbol', 'price', 'qty', 'side', 'time', 'state'] as const;

export type CompactSide = 'BUY' | 'SELL';

export interface CompactTrade {
  readonly id: string;
  readonly symbol: string;
  readonly price: Decimal;
  readonly qty: Decimal;
  /** The aggressor's side. */
  readonly side: CompactSide;
  readonly time: EpochMs;
  readonly state: TradeState;
}

/** The compact facts of a trade (the trade search's record); refuses one it cannot write exactly. */
export function compactTradeOf(trade: Trade, scales: InstrumentScales): CompactTrade {
  const aggressor = trade.aggressor;
  const fail = (why: string) =>
    backtestError(
      BacktestErrorCode.BAD_LINE,
      `trade ${trade.id}: ${why}; it cannot be written in the compact format: ` +
        'fetch this window with --format full (with --force to start over, or another --out)',
    );
  const side = aggressor.order.side === 'SIDE_BUY' ? 'BUY' : aggressor.order.side === 'SIDE_SELL' ? 'SELL' : undefined;
  if (side === undefined) throw fail(`the aggressor's side is ${aggressor.order.side}`);
  const time = aggressor.transactTime ?? trade.passive.transactTime;
  if (time === undefined) throw fail('it has no transact time');
  // exact at the instrument's scales (what replay converts them back with): throws naming the field otherwise
  decimalToRaw(aggressor.lastPx, scales, 'price', `trade ${trade.id} price`);
  decimalToRaw(aggressor.lastShares, scales, 'qty', `trade ${trade.id} qty`);
  return {
    id: trade.id,
    symbol: aggressor.order.symbol,
    price: aggressor.lastPx,
    qty: aggressor.lastShares,
    side,
    time,
    state: trade.state,
  };
}

/** A compact trade line (with its newline), keys in COMPACT_TRADE_KEYS order. */
export function encodeCompactTradeLine(t: CompactTrade): string {
  return (
    `{"type":"trade","id":${JSON.stringify(t.id)},"symbol":${JSON.stringify(t.symbol)},` +
    `"price":"${formatDecimal(t.price)}","qty":"${formatDecimal(t.qty)}","side":"${t.side}",` +
    `"time":"${formatTimestamp(t.time)}","state":"${t.state}"}\n`
  );
}

function field(o: Record<string, unknown>, key: string, what: string): string {
  const value = o[key];
  if (typeof value !== 'string')
    throw new Error(`${key}: expected ${what}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
  return value;
}

function decimal(o: Record<string, unknown>, key: string, nonNegative: boolean): Decimal {
  const text = field(o, key, 'a decimal string such as "0.25"');
  if (!isDecimalString(text) || (nonNegative && text.startsWith('-')))
    throw new Error(`${key}: expected a ${nonNegative ? 'non-negative ' : ''}decimal string such as "0.25", got ${JSON.stringify(text)}`);
  return parseDecimal(text, key);
}

/**
 * A parsed compact trade line, validated strictly: an object with exactly the keys of COMPACT_TRADE_KEYS (in
 * any order), type "trade", a non-empty id and symbol, decimal price and a non-negative decimal qty, side BUY or
 * SELL, an ISO 8601 time, a known trade state. Throws an Error whose message starts with the field at fault.
 */
export function decodeCompactTrade(json: unknown): CompactTrade {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not a JSON object');
  const o = json as Record<string, unknown>;
  if (o['type'] !== 'trade') throw new Error(`type: expected "trade", got ${JSON.stringify(o['type'])}`);
  for (const key of Object.keys(o)) {
    if (!(COMPACT_TRADE_KEYS as readonly string[]).includes(key))
      throw new Error(`${key}: not a key of a compact trade line (${COMPACT_TRADE_KEYS.join(', ')})`);
  }
  const id = field(o, 'id', 'the trade id string');
  if (id === '') throw new Error('id: expected the trade id, got ""');
  const symbol = field(o, 'symbol', 'the symbol string');
  if (symbol === '') throw new Error('symbol: expected the symbol, got ""');
  const price = decimal(o, 'price', false);
  const qty = decimal(o, 'qty', true);
  const side = field(o, 'side', '"BUY" or "SELL"');
  if (side !== 'BUY' && side !== 'SELL') throw new Error(`side: expected "BUY" or "SELL", got ${JSON.stringify(side)}`);
  const timeText = field(o, 'time', 'an ISO 8601 time');
  const time = tryParseTimestamp(timeText);
  if (time === undefined)
    throw new Error(`time: expected an ISO 8601 time such as "2026-11-30T14:00:02.000Z", got ${JSON.stringify(timeText)}`);
  const state = field(o, 'state', 'a trade state such as "TRADE_STATE_NEW"');
  if (!isMember(TRADE_STATES, state)) throw new Error(`state: expected one of ${TRADE_STATES.join(', ')}, got ${JSON.stringify(state)}`);
  return { id, symbol, price, qty, side, time, state };
}
