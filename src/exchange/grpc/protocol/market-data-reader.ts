/**
 * A direct reader of MarketDataSubscriptionResponse bytes carrying a book update, the market data stream's
 * hot message: the protobuf wire format of proto/exchange.proto's MarketDataUpdate, BookLevel and
 * InstrumentStats read straight into the typed message the codec gives (`{kind: 'update', symbol, bids,
 * offers, state, stats, transactTime}`, Decimal prices and quantities at the symbol's scales), without
 * protobufjs's message objects, their conversion to the gateway's JSON form and the table codec's walk.
 * It takes only the plain shape the simulator and the venue send: the symbol first (encoders write fields
 * in number order), every other field at most once (levels repeated), known field numbers and wire types,
 * scaled values as canonical non-negative integers of at most 15 digits, ASCII strings, a known
 * InstrumentState number, a symbol with known scales. Anything else, a heartbeat included, returns
 * undefined and the caller decodes with the proto-loader deserializer and the codec, which decide (unknown
 * fields skipped, repeats merged, bad values and bytes reported): the reader never rejects input.
 * test/exchange/grpc/protocol/market-data-reader.test.ts checks it against that path, on generated
 * messages and damaged ones.
 */
import { INSTRUMENT_STATES, ZERO, decimalFromRawInt, tryParseTimestamp } from '../../../domain/index.ts';
import type {
  BookLevel,
  BookUpdateMessage,
  Decimal,
  InstrumentScales,
  InstrumentState,
  InstrumentStats,
  ScaleLookup,
} from '../../../domain/index.ts';

/** proto InstrumentState numbers are the domain list's indexes (the test checks it against the protocol file). */
const STATE_NAMES: readonly InstrumentState[] = INSTRUMENT_STATES;

const LEN = 2;
const VARINT = 0;
const MAX_DIGITS = 15;

/** The read position (module state: the reader is synchronous and not re-entrant). */
let pos = 0;

/** A varint below 2^28 (field tags, lengths, enum numbers here), or -1. */
function varint(bytes: Buffer, end: number): number {
  let value = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    if (pos >= end) return -1;
    const b = bytes[pos++] as number;
    value |= (b & 0x7f) << shift;
    if (b < 0x80) return value;
  }
  return -1;
}

/** The end of a length-delimited field starting at `pos`, or -1. */
function lengthEnd(bytes: Buffer, end: number): number {
  const length = varint(bytes, end);
  if (length < 0 || pos + length > end) return -1;
  return pos + length;
}

/** The bytes from `start` to `stop` as text when all are ASCII (others: protobufjs decodes them as UTF-8), else undefined. */
function asciiText(bytes: Buffer, start: number, stop: number): string | undefined {
  for (let i = start; i < stop; i++) if ((bytes[i] as number) >= 0x80) return undefined;
  // one flat string from native code: appending character by character built a string per character
  return bytes.toString('latin1', start, stop);
}

/** An ASCII string field's value, or undefined. */
function ascii(bytes: Buffer, end: number): string | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  const text = asciiText(bytes, pos, stop);
  if (text !== undefined) pos = stop;
  return text;
}

/** The symbols read last, most recent first: a feed names a few symbols over and over. */
const recentSymbols: string[] = [];
const RECENT_SYMBOLS = 16;

/** The symbol field's value, the string read before when the bytes spell it (no new string per update), or undefined. */
function symbolField(bytes: Buffer, end: number): string | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  const length = stop - pos;
  for (let k = 0; k < recentSymbols.length; k++) {
    const known = recentSymbols[k] as string;
    if (known.length !== length) continue;
    let i = 0;
    while (i < length && bytes[pos + i] === known.charCodeAt(i)) i++;
    if (i < length) continue;
    pos = stop;
    return known;
  }
  const text = asciiText(bytes, pos, stop);
  if (text === undefined) return undefined;
  if (recentSymbols.length >= RECENT_SYMBOLS) recentSymbols.pop();
  recentSymbols.unshift(text);
  pos = stop;
  return text;
}

/** A scaled-integer string field ("0", or digits without a leading zero) as a Decimal, or undefined. */
function scaled(bytes: Buffer, end: number, digits: number): Decimal | undefined {
  const stop = lengthEnd(bytes, end);
  const length = stop - pos;
  if (stop < 0 || length === 0 || length > MAX_DIGITS || (bytes[pos] === 48 && length > 1)) return undefined;
  let raw = 0;
  for (let i = pos; i < stop; i++) {
    const d = (bytes[i] as number) - 48;
    if (d < 0 || d > 9) return undefined;
    raw = raw * 10 + d;
  }
  pos = stop;
  return decimalFromRawInt(raw, digits);
}

function level(bytes: Buffer, end: number, scales: InstrumentScales): BookLevel | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  let px: Decimal | undefined;
  let qty: Decimal | undefined;
  while (pos < stop) {
    const tag = varint(bytes, stop);
    if (tag === ((1 << 3) | LEN) && px === undefined) px = scaled(bytes, stop, scales.priceDigits);
    else if (tag === ((2 << 3) | LEN) && qty === undefined) qty = scaled(bytes, stop, scales.qtyDigits);
    else return undefined;
    if ((tag === ((1 << 3) | LEN) ? px : qty) === undefined) return undefined;
  }
  return { px: px ?? ZERO, qty: qty ?? ZERO };
}

/** InstrumentStats field number -> which scale digits its value uses. */
const STATS_KIND = [undefined, 'p', 'p', 'p', 'p', 'p', 'p', 'p', 'q', 'pq', 'q'] as const;

function stats(bytes: Buffer, end: number, scales: InstrumentScales): InstrumentStats | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  const values: (Decimal | undefined)[] = [];
  while (pos < stop) {
    const tag = varint(bytes, stop);
    const field = tag >>> 3;
    const kind = (tag & 7) === LEN ? STATS_KIND[field] : undefined;
    if (kind === undefined || values[field] !== undefined) return undefined;
    const digits = kind === 'p' ? scales.priceDigits : kind === 'q' ? scales.qtyDigits : scales.priceDigits + scales.qtyDigits;
    const value = scaled(bytes, stop, digits);
    if (value === undefined) return undefined;
    values[field] = value;
  }
  return {
    openPx: values[1] ?? ZERO,
    closePx: values[2] ?? ZERO,
    lowPx: values[3] ?? ZERO,
    highPx: values[4] ?? ZERO,
    lastTradePx: values[5] ?? ZERO,
    indicativeOpenPx: values[6] ?? ZERO,
    settlementPx: values[7] ?? ZERO,
    sharesTraded: values[8] ?? ZERO,
    notionalTraded: values[9] ?? ZERO,
    openInterest: values[10] ?? ZERO,
  };
}

/** What an update's fields gave so far. */
interface Fields {
  state: InstrumentState | undefined;
  stats: InstrumentStats | undefined;
  time: string | undefined;
  readonly bids: BookLevel[];
  readonly offers: BookLevel[];
}

/** One MarketDataUpdate field after the symbol into `out`; false: not for the reader. */
function updateField(bytes: Buffer, stop: number, tag: number, scales: InstrumentScales, out: Fields): boolean {
  const field = tag >>> 3;
  const wire = tag & 7;
  if ((field === 2 || field === 3) && wire === LEN) {
    const l = level(bytes, stop, scales);
    if (l === undefined) return false;
    (field === 2 ? out.bids : out.offers).push(l);
  } else if (field === 4 && wire === VARINT && out.state === undefined) {
    out.state = STATE_NAMES[varint(bytes, stop)];
    return out.state !== undefined;
  } else if (field === 5 && wire === LEN && out.stats === undefined) {
    out.stats = stats(bytes, stop, scales);
    return out.stats !== undefined;
  } else if (field === 6 && wire === LEN && out.time === undefined) {
    out.time = ascii(bytes, stop);
    return out.time !== undefined;
  } else {
    return false;
  }
  return true;
}

function update(bytes: Buffer, end: number, lookup: ScaleLookup): BookUpdateMessage | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0 || varint(bytes, stop) !== ((1 << 3) | LEN)) return undefined;
  const symbol = symbolField(bytes, stop);
  const scales = symbol === undefined ? undefined : lookup(symbol);
  if (symbol === undefined || scales === undefined) return undefined;
  const out: Fields = { state: undefined, stats: undefined, time: undefined, bids: [], offers: [] };
  while (pos < stop) {
    if (!updateField(bytes, stop, varint(bytes, stop), scales, out)) return undefined;
  }
  const transactTime = out.time === undefined ? undefined : tryParseTimestamp(out.time);
  if (out.time !== undefined && transactTime === undefined) return undefined;
  return { kind: 'update', symbol, bids: out.bids, offers: out.offers, state: out.state, stats: out.stats, transactTime };
}

/** A MarketDataSubscriptionResponse's book update read from its bytes, or undefined (see the header). */
export function readMarketDataUpdate(bytes: Buffer, lookup: ScaleLookup): BookUpdateMessage | undefined {
  pos = 0;
  const end = bytes.length;
  if (varint(bytes, end) !== ((2 << 3) | LEN)) return undefined;
  const message = update(bytes, end, lookup);
  return message === undefined || pos !== end ? undefined : message;
}
