/**
 * The fast path of a compact history line (history/compact-trade.ts), on its raw bytes (no decoding, no
 * allocation), in the one layout `history fetch` writes:
 *
 *   {"type":"trade","id":"…","symbol":"…","price":"…","qty":"…","side":"BUY"|"SELL","time":"…Z","state":"TRADE_STATE_…"}
 *
 * Every key is matched in place, in this order, each right after the previous value: there is nothing to
 * search for, and the fixed parts are compared four bytes at a time (a DataView over the read buffer). A
 * canonical timestamp (`…T14:00:02.000Z`) in the same minute as the line before only has its seconds and
 * milliseconds read. Values must be canonical: a plain printable-ASCII id without escapes, a header symbol without
 * escapes, non-negative decimals with at most the instrument's decimal places and at most 15 significant
 * digits once scaled (their raw integers are exact), a `…Z` timestamp (iso-time.ts), a known trade state, and
 * the line must end right after the state. Anything else (another key order, spaces, escapes, a negative
 * price, a symbol the header has none of) returns NOT_SURE and the caller takes the full path (JSON.parse and
 * strict validation, trade-line.ts), which gives the same facts on every line this path reads (tested).
 */
import { TRADE_STATES } from '../../src/domain/enums.ts';
import { parseIsoUtcBytes } from './iso-time.ts';
import { Scan, setTradeFields, symbolIndexOf, type LineScanner, type TradeFields } from './trade-scan.ts';

/** Decimal places of an instrument's prices and quantities (log10 of its scales). */
export interface ScaleDigits {
  readonly price: number;
  readonly qty: number;
}

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

/** A fixed part of the line: its bytes, as little-endian 32-bit words and the 0-3 bytes after them. */
interface Needle {
  readonly length: number;
  readonly words: Uint32Array;
  readonly tail: Uint8Array;
}

function needle(text: string): Needle {
  const bytes = ascii(text);
  const words = new Uint32Array(bytes.length >> 2);
  for (let k = 0; k < words.length; k++) words[k] = bytes.readUInt32LE(4 * k);
  return { length: bytes.length, words, tail: bytes.subarray(words.length * 4) };
}

/** True when `n` is at `at` (the caller makes sure that at + n.length is within the line). */
function matchAt(dv: DataView<ArrayBufferLike>, u: Uint8Array, at: number, n: Needle): boolean {
  const words = n.words;
  for (let k = 0; k < words.length; k++) if (dv.getUint32(at + 4 * k, true) !== words[k]) return false;
  const tail = n.tail;
  const from = at + 4 * words.length;
  for (let k = 0; k < tail.length; k++) if (u[from + k] !== tail[k]) return false;
  return true;
}

const PREFIX = needle('{"type":"trade","id":"');
const SYMBOL = needle('","symbol":"');
const PRICE = needle('","price":"');
const QTY = needle('","qty":"');
const SIDE = needle('","side":"');
const BUY = needle('BUY","time":"');
const SELL = needle('SELL","time":"');
const STATE = needle('","state":"TRADE_STATE_');
/** Each trade state's name after `TRADE_STATE_` with the line's closing `"}`, and whether a trade in it stands (NEW first). */
const STATES: readonly (readonly [Needle, boolean])[] = [...TRADE_STATES]
  .sort((a, b) => (a === 'TRADE_STATE_NEW' ? -1 : b === 'TRADE_STATE_NEW' ? 1 : 0))
  .map(
    (name) => [needle(`${name.slice('TRADE_STATE_'.length)}"}`), name !== 'TRADE_STATE_BUSTED' && name !== 'TRADE_STATE_REJECTED'] as const,
  );
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);
/** The shortest line there can be (one-byte id, symbol, price and quantity, a 20-byte time, state NEW). */
const MIN_LENGTH = 120;
/** A canonical timestamp: `2026-11-30T14:00:02.000Z`. */
const ISO_LENGTH = 24;
const EMPTY = Buffer.alloc(0);

export class CompactScanner implements LineScanner {
  private readonly symbols: readonly Buffer[];
  private readonly priceDigits: Int32Array;
  private readonly qtyDigits: Int32Array;
  /** Never set: a symbol the header has none of takes the full path, which names it. */
  readonly unknownSymbol = '';
  /** End of the last scanned decimal value (scratch). */
  private valueEnd = 0;
  /** A DataView over the buffer of the last line read. */
  private buf: Buffer = EMPTY;
  private dv: DataView<ArrayBufferLike> = new DataView(EMPTY.buffer, 0, 0);
  /** The minute of the last canonical timestamp: its first 16 bytes (`2026-11-30T14:00`) as words, its epoch ms. */
  private readonly minute = new Uint32Array(4);
  private minuteMs = Number.NaN;

  constructor(symbols: readonly string[], digits: readonly ScaleDigits[]) {
    this.symbols = symbols.map((s) => Buffer.from(s, 'utf8'));
    this.priceDigits = Int32Array.from(digits, (d) => d.price);
    this.qtyDigits = Int32Array.from(digits, (d) => d.qty);
  }

  /** Reads line buf[start, end) into `out`. */
  scan(buf: Buffer, start: number, end: number, out: TradeFields): Scan {
    if (buf !== this.buf) {
      this.buf = buf;
      this.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    const dv = this.dv;
    if (end - start < MIN_LENGTH || !matchAt(dv, buf, start, PREFIX)) return Scan.NOT_SURE;
    // the id: plain printable ASCII (so its bytes are the decoded string's code units), hashed as idKey does
    let a = 0x811c9dc5;
    let b = 0x1f3d5b79;
    let i = start + PREFIX.length;
    for (; ; i++) {
      if (i >= end) return Scan.NOT_SURE;
      const c = buf[i] as number;
      if (c === 34) break;
      if (c < 32 || c > 126 || c === 92) return Scan.NOT_SURE;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b + c, 0x5bd1e995) ^ (b >>> 13);
    }
    if (i === start + PREFIX.length || i + SYMBOL.length > end || !matchAt(dv, buf, i, SYMBOL)) return Scan.NOT_SURE;
    const key = (a >>> 0) * 2097152 + ((b >>> 0) & 0x1fffff);

    // the symbol: one of the header's, compared on its UTF-8 bytes (no escapes)
    const symbolStart = i + SYMBOL.length;
    let symbolEnd = symbolStart;
    for (; ; symbolEnd++) {
      if (symbolEnd >= end) return Scan.NOT_SURE;
      const c = buf[symbolEnd] as number;
      if (c === 34) break;
      if (c < 32 || c === 92) return Scan.NOT_SURE;
    }
    const sym = symbolIndexOf(this.symbols, buf, symbolStart, symbolEnd);
    if (sym < 0 || symbolEnd + PRICE.length > end || !matchAt(dv, buf, symbolEnd, PRICE)) return Scan.NOT_SURE;

    // price and quantity, scaled to raw integers
    const price = this.decimal(buf, symbolEnd + PRICE.length, end, this.priceDigits[sym] as number);
    if (price < 0 || this.valueEnd + QTY.length > end || !matchAt(dv, buf, this.valueEnd, QTY)) return Scan.NOT_SURE;
    const qty = this.decimal(buf, this.valueEnd + QTY.length, end, this.qtyDigits[sym] as number);
    if (qty < 0 || this.valueEnd + SIDE.length + SELL.length > end || !matchAt(dv, buf, this.valueEnd, SIDE)) return Scan.NOT_SURE;

    // the aggressor's side, then the time
    const sideAt = this.valueEnd + SIDE.length;
    let buy: boolean;
    let timeStart: number;
    if (buf[sideAt] === 66 && matchAt(dv, buf, sideAt, BUY)) {
      buy = true;
      timeStart = sideAt + BUY.length;
    } else if (buf[sideAt] === 83 && matchAt(dv, buf, sideAt, SELL)) {
      buy = false;
      timeStart = sideAt + SELL.length;
    } else {
      return Scan.NOT_SURE;
    }
    let timeEnd = timeStart + ISO_LENGTH;
    let time = timeEnd < end && buf[timeEnd] === 34 ? this.canonicalTime(buf, timeStart) : Number.NaN;
    if (time !== time) {
      // another length of fraction (or a quote 24 bytes on by chance)
      for (timeEnd = timeStart; timeEnd < end && buf[timeEnd] !== 34;) timeEnd++;
      time = parseIsoUtcBytes(buf, timeStart, timeEnd);
    }
    if (time !== time || timeEnd + STATE.length > end || !matchAt(dv, buf, timeEnd, STATE)) return Scan.NOT_SURE;

    // the trade's state, which ends the line
    const value = timeEnd + STATE.length;
    let stands: boolean | undefined;
    for (let k = 0; k < STATES.length; k++) {
      const [name, standing] = STATES[k] as readonly [Needle, boolean];
      if (value + name.length === end && matchAt(dv, buf, value, name)) {
        stands = standing;
        break;
      }
    }
    if (stands === undefined) return Scan.NOT_SURE;
    return setTradeFields(out, key, sym, price, qty, buy, time, stands);
  }

  /**
   * Epoch ms of the 24-byte timestamp at `at` (`2026-11-30T14:00:02.000Z`, the closing quote after it), NaN
   * when it is not canonical: in the minute of the last one, only its seconds and milliseconds are read.
   */
  private canonicalTime(buf: Buffer, at: number): number {
    const dv = this.dv;
    const minute = this.minute;
    const m0 = dv.getUint32(at, true);
    const m1 = dv.getUint32(at + 4, true);
    const m2 = dv.getUint32(at + 8, true);
    const m3 = dv.getUint32(at + 12, true);
    if (m0 !== minute[0] || m1 !== minute[1] || m2 !== minute[2] || m3 !== minute[3] || this.minuteMs !== this.minuteMs) {
      const time = parseIsoUtcBytes(buf, at, at + ISO_LENGTH);
      if (time !== time || buf[at + 19] !== 46) return Number.NaN;
      minute[0] = m0;
      minute[1] = m1;
      minute[2] = m2;
      minute[3] = m3;
      const seconds = ((buf[at + 17] as number) - 48) * 10 + (buf[at + 18] as number) - 48;
      this.minuteMs =
        time -
        (seconds * 1000 + ((buf[at + 20] as number) - 48) * 100 + ((buf[at + 21] as number) - 48) * 10 + (buf[at + 22] as number) - 48);
      return time;
    }
    // `:SS.sssZ` after the minute
    const s1 = (buf[at + 17] as number) - 48;
    const s2 = (buf[at + 18] as number) - 48;
    const f1 = (buf[at + 20] as number) - 48;
    const f2 = (buf[at + 21] as number) - 48;
    const f3 = (buf[at + 22] as number) - 48;
    if (buf[at + 16] !== 58 || buf[at + 19] !== 46 || buf[at + 23] !== 90) return Number.NaN;
    if (!(s1 >= 0 && s1 <= 5 && s2 >= 0 && s2 <= 9 && f1 >= 0 && f1 <= 9 && f2 >= 0 && f2 <= 9 && f3 >= 0 && f3 <= 9)) return Number.NaN;
    return this.minuteMs + (s1 * 10 + s2) * 1000 + f1 * 100 + f2 * 10 + f3;
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
