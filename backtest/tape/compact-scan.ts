/**
 * The fast path of a compact history line (history/compact-trade.ts), on its raw bytes (no decoding, no
 * allocation), in the one layout `history fetch` writes:
 *
 *   {"type":"trade","id":"…","symbol":"…","price":"…","qty":"…","side":"BUY"|"SELL","time":"…Z","state":"TRADE_STATE_…"}
 *
 * Every key is matched in place, in this order, each right after the previous value: there is nothing to
 * search for. Values must be canonical: a plain printable-ASCII id without escapes, a header symbol without
 * escapes, non-negative decimals with at most the instrument's decimal places and at most 15 significant
 * digits once scaled (their raw integers are exact), a `…Z` timestamp (iso-time.ts), a known trade state, and
 * the line must end right after the state. Anything else (another key order, spaces, escapes, a negative
 * price, a symbol the header has none of) returns NOT_SURE and the caller takes the full path (JSON.parse and
 * strict validation, trade-line.ts), which gives the same facts on every line this path reads (tested).
 */
import { TRADE_STATES } from '../../src/domain/enums.ts';
import { parseIsoUtcBytes } from './iso-time.ts';
import { Scan, type LineScanner, type TradeFields } from './trade-scan.ts';

/** Decimal places of an instrument's prices and quantities (log10 of its scales). */
export interface ScaleDigits {
  readonly price: number;
  readonly qty: number;
}

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

const PREFIX = ascii('{"type":"trade","id":"');
const SYMBOL = ascii('","symbol":"');
const PRICE = ascii('","price":"');
const QTY = ascii('","qty":"');
const SIDE = ascii('","side":"');
const BUY = ascii('BUY","time":"');
const SELL = ascii('SELL","time":"');
const STATE = ascii('","state":"TRADE_STATE_');
/** Each trade state's name after `TRADE_STATE_` with the line's closing `"}`, and whether a trade in it stands. */
const STATES: readonly (readonly [Buffer, boolean])[] = TRADE_STATES.map((name) => [ascii(`${name.slice('TRADE_STATE_'.length)}"}`), name !== 'TRADE_STATE_BUSTED' && name !== 'TRADE_STATE_REJECTED'] as const);
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);
/** The shortest line there can be (one-byte id, symbol, price and quantity, a 20-byte time, state NEW). */
const MIN_LENGTH = 120;

function matchAt(u: Uint8Array, at: number, needle: Uint8Array): boolean {
  for (let k = 0; k < needle.length; k++) if (u[at + k] !== needle[k]) return false;
  return true;
}

export class CompactScanner implements LineScanner {
  private readonly symbols: readonly Buffer[];
  private readonly priceDigits: Int32Array;
  private readonly qtyDigits: Int32Array;
  /** Never set: a symbol the header has none of takes the full path, which names it. */
  readonly unknownSymbol = '';
  /** End of the last scanned decimal value (scratch). */
  private valueEnd = 0;

  constructor(symbols: readonly string[], digits: readonly ScaleDigits[]) {
    this.symbols = symbols.map((s) => Buffer.from(s, 'utf8'));
    this.priceDigits = Int32Array.from(digits, (d) => d.price);
    this.qtyDigits = Int32Array.from(digits, (d) => d.qty);
  }

  /** Reads line buf[start, end) into `out`. */
  scan(buf: Buffer, start: number, end: number, out: TradeFields): Scan {
    if (end - start < MIN_LENGTH || !matchAt(buf, start, PREFIX)) return Scan.NOT_SURE;
    // the id: plain printable ASCII (so its bytes are the decoded string's code units), hashed as idKey does
    let a = 0x811c9dc5;
    let b = 0x1f3d5b79;
    let i = start + PREFIX.length;
    for (;; i++) {
      if (i >= end) return Scan.NOT_SURE;
      const c = buf[i] as number;
      if (c === 34) break;
      if (c < 32 || c > 126 || c === 92) return Scan.NOT_SURE;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b + c, 0x5bd1e995) ^ (b >>> 13);
    }
    if (i === start + PREFIX.length || !matchAt(buf, i, SYMBOL)) return Scan.NOT_SURE;
    const key = (a >>> 0) * 2097152 + ((b >>> 0) & 0x1fffff);

    // the symbol: one of the header's, compared on its UTF-8 bytes (no escapes)
    const symbolStart = i + SYMBOL.length;
    let symbolEnd = symbolStart;
    for (;; symbolEnd++) {
      if (symbolEnd >= end) return Scan.NOT_SURE;
      const c = buf[symbolEnd] as number;
      if (c === 34) break;
      if (c < 32 || c === 92) return Scan.NOT_SURE;
    }
    const sym = this.symbolIndex(buf, symbolStart, symbolEnd);
    if (sym < 0 || !matchAt(buf, symbolEnd, PRICE)) return Scan.NOT_SURE;

    // price and quantity, scaled to raw integers
    const price = this.decimal(buf, symbolEnd + PRICE.length, end, this.priceDigits[sym] as number);
    if (price < 0 || !matchAt(buf, this.valueEnd, QTY)) return Scan.NOT_SURE;
    const qty = this.decimal(buf, this.valueEnd + QTY.length, end, this.qtyDigits[sym] as number);
    if (qty < 0 || !matchAt(buf, this.valueEnd, SIDE)) return Scan.NOT_SURE;

    // the aggressor's side, then the time
    const sideAt = this.valueEnd + SIDE.length;
    let buy: boolean;
    let timeStart: number;
    if (buf[sideAt] === 66 && matchAt(buf, sideAt, BUY)) {
      buy = true;
      timeStart = sideAt + BUY.length;
    } else if (buf[sideAt] === 83 && matchAt(buf, sideAt, SELL)) {
      buy = false;
      timeStart = sideAt + SELL.length;
    } else {
      return Scan.NOT_SURE;
    }
    let timeEnd = timeStart;
    while (timeEnd < end && buf[timeEnd] !== 34) timeEnd++;
    const time = parseIsoUtcBytes(buf, timeStart, timeEnd);
    if (time !== time || !matchAt(buf, timeEnd, STATE)) return Scan.NOT_SURE;

    // the trade's state, which ends the line
    const value = timeEnd + STATE.length;
    let stands: boolean | undefined;
    for (let k = 0; k < STATES.length; k++) {
      const [name, standing] = STATES[k] as readonly [Buffer, boolean];
      if (value + name.length === end && matchAt(buf, value, name)) {
        stands = standing;
        break;
      }
    }
    if (stands === undefined) return Scan.NOT_SURE;
    out.key = key;
    out.sym = sym;
    out.price = price;
    out.qty = qty;
    out.buy = buy;
    out.time = time;
    out.stands = stands;
    return Scan.OK;
  }

  /** Index of the header symbol whose UTF-8 bytes are buf[from, to), or -1. */
  private symbolIndex(buf: Buffer, from: number, to: number): number {
    const symbols = this.symbols;
    const length = to - from;
    for (let s = 0; s < symbols.length; s++) {
      const candidate = symbols[s] as Buffer;
      if (candidate.length === length && matchAt(buf, from, candidate)) return s;
    }
    return -1;
  }

  /**
   * The raw integer (value × 10^digits) of a non-negative decimal string starting at `at` and ending at a
   * quote (`0|[1-9][0-9]*` and optionally `.` with 1..digits places), at most 15 digits once scaled; -1 otherwise.
   */
  private decimal(buf: Buffer, at: number, end: number, digits: number): number {
    let value = 0;
    let i = at;
    for (; i < end; i++) {
      const d = (buf[i] as number) - 48;
      if (!(d >= 0 && d <= 9)) break;
      value = value * 10 + d;
    }
    const whole = i - at;
    if (whole === 0 || whole + digits > 15 || (whole > 1 && buf[at] === 48)) return -1;
    let places = 0;
    if (buf[i] === 46) {
      const from = ++i;
      for (; i < end; i++) {
        const d = (buf[i] as number) - 48;
        if (!(d >= 0 && d <= 9)) break;
        value = value * 10 + d;
      }
      places = i - from;
      if (places === 0 || places > digits) return -1;
    }
    if (buf[i] !== 34) return -1;
    this.valueEnd = i;
    return value * (POW10[digits - places] as number);
  }
}
