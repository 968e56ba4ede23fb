/**
 * A direct reader of MarketDataSubscriptionResponse bytes carrying a book update, the market data stream's hot
 * message: the protobuf wire format of proto/exchange.proto's MarketDataUpdate, BookLevel and InstrumentStats
 * read straight into the message's loaded JS form (`{update: {symbol, bids: [{px, qty}], ...}}`, snake_case,
 * enums as names, absent fields absent: what the proto-loader deserializer gives, less its virtual oneof
 * keys), without protobufjs's message objects and their conversion. It takes only the plain shape the
 * simulator and the venue send: every field once (levels repeated), known field numbers and wire types,
 * ASCII strings, a known InstrumentState number. Anything else, a heartbeat included, returns undefined and
 * the caller uses the proto-loader deserializer, which decides (unknown fields skipped, repeats merged, bad
 * bytes reported): the reader never rejects input. test/exchange/grpc/protocol/market-data-reader.test.ts
 * checks it against that deserializer, on generated messages and damaged ones.
 */
import { INSTRUMENT_STATES } from '../../../domain/index.ts';

type Json = Record<string, unknown>;

/** proto InstrumentState numbers are the domain list's indexes (the test checks it against the protocol file). */
const STATE_NAMES: readonly string[] = INSTRUMENT_STATES;

const STATS_FIELDS = [
  'open_px',
  'close_px',
  'low_px',
  'high_px',
  'last_trade_px',
  'indicative_open_px',
  'settlement_px',
  'shares_traded',
  'notional_traded',
  'open_interest',
] as const;

const LEN = 2;
const VARINT = 0;

/** The read position (module state: the reader is synchronous and not re-entrant). */
let pos = 0;

/** A varint below 2^28 (field tags, lengths, enum numbers here), or -1. */
function varint(bytes: Uint8Array, end: number): number {
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
function lengthEnd(bytes: Uint8Array, end: number): number {
  const length = varint(bytes, end);
  if (length < 0 || pos + length > end) return -1;
  return pos + length;
}

/** An ASCII string field's value, or undefined (other bytes: protobufjs decodes them as UTF-8). */
function ascii(bytes: Uint8Array, end: number): string | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  let text = '';
  for (let i = pos; i < stop; i++) {
    const c = bytes[i] as number;
    if (c >= 0x80) return undefined;
    text += String.fromCharCode(c);
  }
  pos = stop;
  return text;
}

function level(bytes: Uint8Array, end: number): Json | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  const out: Json = {};
  while (pos < stop) {
    const tag = varint(bytes, stop);
    const field = tag === ((1 << 3) | LEN) ? 'px' : tag === ((2 << 3) | LEN) ? 'qty' : undefined;
    if (field === undefined || out[field] !== undefined) return undefined;
    const value = ascii(bytes, stop);
    if (value === undefined) return undefined;
    out[field] = value;
  }
  return out;
}

function stats(bytes: Uint8Array, end: number): Json | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  const out: Json = {};
  while (pos < stop) {
    const tag = varint(bytes, stop);
    const field = (tag & 7) === LEN ? STATS_FIELDS[(tag >>> 3) - 1] : undefined;
    if (field === undefined || out[field] !== undefined) return undefined;
    const value = ascii(bytes, stop);
    if (value === undefined) return undefined;
    out[field] = value;
  }
  return out;
}

/** One MarketDataUpdate field into `out`; false: not for the reader. */
function updateField(bytes: Uint8Array, stop: number, tag: number, out: Json, bids: Json[], offers: Json[]): boolean {
  const field = tag >>> 3;
  if (field === 2 || field === 3) {
    const l = (tag & 7) === LEN ? level(bytes, stop) : undefined;
    if (l === undefined) return false;
    (field === 2 ? bids : offers).push(l);
    return true;
  }
  const key = field === 1 ? 'symbol' : field === 4 ? 'state' : field === 5 ? 'stats' : field === 6 ? 'transact_time' : undefined;
  if (key === undefined || out[key] !== undefined || (tag & 7) !== (field === 4 ? VARINT : LEN)) return false;
  const value = field === 4 ? STATE_NAMES[varint(bytes, stop)] : field === 5 ? stats(bytes, stop) : ascii(bytes, stop);
  if (value === undefined) return false;
  out[key] = value;
  return true;
}

function update(bytes: Uint8Array, end: number): Json | undefined {
  const stop = lengthEnd(bytes, end);
  if (stop < 0) return undefined;
  const out: Json = {};
  const bids: Json[] = [];
  const offers: Json[] = [];
  while (pos < stop) {
    if (!updateField(bytes, stop, varint(bytes, stop), out, bids, offers)) return undefined;
  }
  if (bids.length > 0) out['bids'] = bids;
  if (offers.length > 0) out['offers'] = offers;
  return out;
}

/** `{update: {...}}` read from a MarketDataSubscriptionResponse's bytes, or undefined (see the header). */
export function readMarketDataUpdate(bytes: Uint8Array): Json | undefined {
  pos = 0;
  const end = bytes.length;
  if (varint(bytes, end) !== ((2 << 3) | LEN)) return undefined;
  const body = update(bytes, end);
  return body === undefined || pos !== end ? undefined : { update: body };
}
