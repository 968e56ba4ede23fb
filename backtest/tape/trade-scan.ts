/**
 * The fast path of a full-format history trade line (the exchange's whole record), on its raw bytes (no
 * string decoding, no allocation): reads the few facts replay needs (TradeFields) from the canonical
 * layout the trade codec writes,
 *
 *   {"type":"trade","trade":{"id":"…","aggressor":{…"symbol":"…","side":"SIDE_…"…"lastPx":"…","lastShares":"…"
 *   …"transactTime":"…Z"},"passive":{…"state":"TRADE_STATE_…"…}}
 *
 * (snake_case keys for the gateway source): the id right after the fixed prefix, then in the aggressor
 * execution its order's `"symbol":"…","side":"SIDE_…` (the first side key with a symbol key right before
 * it in family A lines, the first symbol key followed by the side in gateway lines), its first `lastPx`
 * key (the shares must follow it) and its first `transactTime` key, which must end the execution
 * (`},"passive":{` follows its value); the trade's state is the last `"state":"TRADE_STATE_` of the line, which must come
 * after the aggressor. Keys are found by their rarest byte (memchr) and must sit where JSON puts a key
 * (after `,` or `{`); values must be canonical (plain ASCII id, a header symbol, integer strings without leading zeros,
 * a `…Z` timestamp, a known trade state). Whatever does not fit returns NOT_SURE and the caller takes
 * the full path (JSON.parse and the strict codec), which gives the same facts on canonical lines
 * (tested on the sample history and generated lines).
 */
import { TRADE_STATES } from '../../src/domain/enums.ts';
import { parseIsoUtcBytes } from './iso-time.ts';

/** The facts of one trade record; `key` is a 53-bit hash of the trade id (supersede matching). */
export interface TradeFields {
  key: number;
  /** Index of the trade's symbol among the header's instruments. */
  sym: number;
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
  return { key: 0, sym: -1, price: 0, qty: 0, buy: false, time: 0, stands: true };
}

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

/** Outcome of a LineScanner's scan. */
export const Scan = {
  /** `out` holds the line's facts. */
  OK: 0,
  /** Not the canonical layout: take the full path (`out` may be partly written). */
  NOT_SURE: 1,
  /** A canonical line in a symbol the header has none of: `unknownSymbol` names it. */
  UNKNOWN_SYMBOL: 2,
} as const;
export type Scan = (typeof Scan)[keyof typeof Scan];

/**
 * A fast path for one history format: TradeScanner (full records, here) or CompactScanner (compact lines,
 * compact-scan.ts).
 */
export interface LineScanner {
  /** Reads line buf[start, end) into `out`. */
  scan(buf: Buffer, start: number, end: number, out: TradeFields): Scan;
  /** The symbol of the last UNKNOWN_SYMBOL outcome. */
  readonly unknownSymbol: string;
}

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

const PREFIX = ascii('{"type":"trade","trade":{"id":"');
const AGGRESSOR = ascii('","aggressor":{');
const SYMBOL = key('"symbol":"', 'b');
/** From the symbol's closing quote; `_` is rare before it in family A lines (camelCase keys). */
const SIDE_KEY = key('","side":"SIDE_', '_');
const EXEC_END = ascii('"},"passive":{');
const STATE = ascii('"state":"TRADE_STATE_');
const KEYS = {
  familyA: { px: key('"lastPx":"', 'x'), shares: ascii('","lastShares":"'), time: key('"transactTime":"', 'c') },
  gateway: { px: key('"last_px":"', 'x'), shares: ascii('","last_shares":"'), time: key('"transact_time":"', 'c') },
} as const;
/** Each trade state's name after `TRADE_STATE_` and its closing quote, and whether a trade in it stands. */
const STATES: readonly (readonly [Buffer, boolean])[] = TRADE_STATES.map(
  (name) => [ascii(`${name.slice('TRADE_STATE_'.length)}"`), name !== 'TRADE_STATE_BUSTED' && name !== 'TRADE_STATE_REJECTED'] as const,
);

function matchAt(u: Uint8Array, at: number, needle: Uint8Array): boolean {
  for (let k = 0; k < needle.length; k++) if (u[at + k] !== needle[k]) return false;
  return true;
}

/** Fills `out` with one line's facts (both fast paths): Scan.OK. */
export function setTradeFields(
  out: TradeFields,
  key: number,
  sym: number,
  price: number,
  qty: number,
  buy: boolean,
  time: number,
  stands: boolean,
): Scan {
  out.key = key;
  out.sym = sym;
  out.price = price;
  out.qty = qty;
  out.buy = buy;
  out.time = time;
  out.stands = stands;
  return Scan.OK;
}

/** Index of the symbol (UTF-8 bytes, in header order) that is exactly buf[from, to), or -1 (both fast paths). */
export function symbolIndexOf(symbols: readonly Uint8Array[], buf: Uint8Array, from: number, to: number): number {
  const length = to - from;
  for (let s = 0; s < symbols.length; s++) {
    const candidate = symbols[s] as Uint8Array;
    if (candidate.length === length && matchAt(buf, from, candidate)) return s;
  }
  return -1;
}

/** True when the byte before `at` is where JSON puts a key's opening quote (after `,` or `{`). */
function keyPosition(u: Uint8Array, at: number): boolean {
  const c = u[at - 1];
  return c === 44 || c === 123;
}

/**
 * A key to look for: its bytes and its rarest byte in these lines (`hop`, at `offset` in the key), found
 * with Buffer.indexOf(byte) (memchr): Buffer.indexOf of a multi-byte needle is several times slower on
 * these lines, whose every other byte is a quote, a comma or a colon.
 */
interface Key {
  readonly bytes: Buffer;
  readonly hop: number;
  readonly offset: number;
}

function key(text: string, hop: string): Key {
  const bytes = ascii(text);
  return { bytes, hop: hop.charCodeAt(0), offset: text.indexOf(hop) };
}

/** Start of the first occurrence of `k` in buf[from, end), or -1. */
function find(buf: Buffer, from: number, end: number, k: Key): number {
  for (let i = from + k.offset; ; i++) {
    i = buf.indexOf(k.hop, i);
    if (i < 0 || i >= end) return -1;
    if (matchAt(buf, i - k.offset, k.bytes)) return i - k.offset;
  }
}

export class TradeScanner implements LineScanner {
  private readonly symbols: readonly Buffer[];
  private readonly px: Key;
  private readonly shares: Buffer;
  private readonly time: Key;
  /** Family A: find the order's side first, then its symbol before it (fewer hops than the symbol key). */
  private readonly sideFirst: boolean;
  /** The symbol of the last UNKNOWN_SYMBOL outcome. */
  unknownSymbol = '';
  /** End of the last scanned integer value (scratch). */
  private intEnd = 0;

  constructor(source: keyof typeof KEYS, symbols: readonly string[]) {
    this.symbols = symbols.map((s) => Buffer.from(s, 'utf8'));
    ({ px: this.px, shares: this.shares, time: this.time } = KEYS[source]);
    this.sideFirst = source === 'familyA';
  }

  /** Reads line buf[start, end) into `out`. */
  scan(buf: Buffer, start: number, end: number, out: TradeFields): Scan {
    if (end - start < 160 || !matchAt(buf, start, PREFIX)) return Scan.NOT_SURE;
    // the id: plain printable ASCII (so its bytes are the decoded string's code units), hashed as idKey does
    let a = 0x811c9dc5;
    let b = 0x1f3d5b79;
    let i = start + PREFIX.length;
    for (; ; i++) {
      const c = buf[i] as number;
      if (c === 34) break;
      if (c < 32 || c > 126 || c === 92 || i >= end) return Scan.NOT_SURE;
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b + c, 0x5bd1e995) ^ (b >>> 13);
    }
    if (i === start + PREFIX.length || !matchAt(buf, i, AGGRESSOR)) return Scan.NOT_SURE;
    const key = (a >>> 0) * 2097152 + ((b >>> 0) & 0x1fffff);

    // the aggressor's order: `"symbol":"…","side":"SIDE_…`, found by its side (family A) or its symbol key
    let symbolStart: number;
    let symbolEnd: number;
    if (this.sideFirst) {
      symbolEnd = find(buf, i + AGGRESSOR.length, end, SIDE_KEY);
      if (symbolEnd < 0) return Scan.NOT_SURE;
      symbolStart = symbolEnd;
      for (;;) {
        const c = buf[symbolStart - 1] as number;
        if (c === 34) break;
        if (c < 32 || c === 92 || symbolStart <= i) return Scan.NOT_SURE;
        symbolStart--;
      }
      const symbolAt = symbolStart - SYMBOL.bytes.length;
      if (!matchAt(buf, symbolAt, SYMBOL.bytes) || !keyPosition(buf, symbolAt)) return Scan.NOT_SURE;
    } else {
      const symbolAt = find(buf, i + AGGRESSOR.length, end, SYMBOL);
      if (symbolAt < 0 || !keyPosition(buf, symbolAt)) return Scan.NOT_SURE;
      symbolStart = symbolAt + SYMBOL.bytes.length;
      symbolEnd = symbolStart;
      for (; ; symbolEnd++) {
        const c = buf[symbolEnd] as number;
        if (c === 34) break;
        if (c < 32 || c === 92 || symbolEnd >= end) return Scan.NOT_SURE;
      }
      if (!matchAt(buf, symbolEnd, SIDE_KEY.bytes)) return Scan.NOT_SURE;
    }
    const sym = symbolIndexOf(this.symbols, buf, symbolStart, symbolEnd);
    const sideAt = symbolEnd + SIDE_KEY.bytes.length;
    let buy: boolean;
    if (buf[sideAt] === 66 && buf[sideAt + 1] === 85 && buf[sideAt + 2] === 89 && buf[sideAt + 3] === 34) buy = true;
    else if (buf[sideAt] === 83 && buf[sideAt + 1] === 69 && buf[sideAt + 2] === 76 && buf[sideAt + 3] === 76 && buf[sideAt + 4] === 34)
      buy = false;
    else return Scan.NOT_SURE;

    // the execution: lastPx, lastShares
    const pxAt = find(buf, sideAt, end, this.px);
    if (pxAt < 0 || !keyPosition(buf, pxAt)) return Scan.NOT_SURE;
    const price = this.integer(buf, pxAt + this.px.bytes.length);
    if (price < 0 || !matchAt(buf, this.intEnd, this.shares)) return Scan.NOT_SURE;
    const qty = this.integer(buf, this.intEnd + this.shares.length);
    if (qty < 0) return Scan.NOT_SURE;

    // transactTime, the execution's last field
    const timeAt = find(buf, this.intEnd, end, this.time);
    if (timeAt < 0 || !keyPosition(buf, timeAt)) return Scan.NOT_SURE;
    const timeStart = timeAt + this.time.bytes.length;
    let timeEnd = timeStart;
    while (timeEnd < end && buf[timeEnd] !== 34) timeEnd++;
    const time = parseIsoUtcBytes(buf, timeStart, timeEnd);
    if (time !== time || !matchAt(buf, timeEnd, EXEC_END)) return Scan.NOT_SURE;
    const execEnd = timeEnd + EXEC_END.length;
    if (execEnd > end) return Scan.NOT_SURE;

    // the trade's state: its last occurrence, after the aggressor, at the trade's level (only the closing
    // braces of the trade and the line follow its object's other plain fields)
    // one backward pass from before the closing `}}`: no brace or bracket until the state key
    if (buf[end - 1] !== 125 || buf[end - 2] !== 125) return Scan.NOT_SURE;
    let stateAt = end - 3;
    for (; ; stateAt--) {
      if (stateAt < execEnd) return Scan.NOT_SURE;
      const c = buf[stateAt] as number;
      if (c === 34) {
        if (buf[stateAt + 1] === 115 && buf[stateAt + 7] === 58 && matchAt(buf, stateAt, STATE)) break;
      } else if (c === 123 || c === 125 || c === 91 || c === 93) {
        return Scan.NOT_SURE;
      }
    }
    const value = stateAt + STATE.length;
    let stands: boolean | undefined;
    for (let k = 0; k < STATES.length; k++) {
      const [name, standing] = STATES[k] as readonly [Buffer, boolean];
      if (value + name.length <= end - 2 && matchAt(buf, value, name)) {
        stands = standing;
        break;
      }
    }
    if (stands === undefined) return Scan.NOT_SURE;
    if (sym < 0) {
      this.unknownSymbol = buf.toString('latin1', symbolStart, symbolEnd);
      // only a plain ASCII symbol is surely the same string once decoded
      for (let k = symbolStart; k < symbolEnd; k++) if ((buf[k] as number) > 126) return Scan.NOT_SURE;
      return Scan.UNKNOWN_SYMBOL;
    }
    return setTradeFields(out, key, sym, price, qty, buy, time, stands);
  }

  /** A canonical integer string's value (1-15 digits, no leading zero) ending at a quote; -1 otherwise. */
  private integer(buf: Buffer, at: number): number {
    let value = 0;
    let i = at;
    for (; i - at < 16; i++) {
      const d = (buf[i] as number) - 48;
      if (!(d >= 0 && d <= 9)) break;
      value = value * 10 + d;
    }
    const digits = i - at;
    if (digits === 0 || digits > 15 || buf[i] !== 34 || (digits > 1 && buf[at] === 48)) return -1;
    this.intEnd = i;
    return value;
  }
}

/** For tests: the fast path's facts of a line given as text. */
export function scanText(scanner: LineScanner, line: string, out: TradeFields): Scan {
  const buf = Buffer.from(line, 'utf8');
  return scanner.scan(buf, 0, buf.length, out);
}
