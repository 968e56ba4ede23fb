/**
 * The history file format shared with the report and sweep tools (JSON lines, version 2):
 *
 *   line 1   {"type":"header","version":2,"format":"compact"|"full","source":"familyA"|"gateway",
 *            "symbols":[...],"from":"<iso>","to":"<iso>","instruments":[<family A camelCase Instrument,
 *            familyA.instrument.encode>],
 *            "settlements":[{"symbol","state","settlementPx"}]}     (optional: see below)
 *
 * `settlements` (written by `history fetch` since #22) is what the exchange's market data showed, when the
 * file was fetched, for each symbol whose instrument was EXPIRED or TERMINATED: its state and
 * `stats.settlementPx` as a decimal string. Replay settles such a contract at its expiry from it
 * (settlementPx > 0; a 0 is not a settlement: the wire cannot tell it from "not settled yet").
 *
 * Trade lines, one per trade record, in the exchange's order, in the header's `format`:
 *
 *   compact  {"type":"trade","id":"<trade id>","symbol":"<symbol>","price":"<decimal>","qty":"<decimal>",
 *            "side":"BUY"|"SELL","time":"<iso>","state":"TRADE_STATE_…"}
 *            keys always in this order (history/compact-trade.ts writes them, the tape's fast path expects
 *            it; any other layout is read by JSON.parse and strict validation): `price` and `qty` are the
 *            aggressor execution's lastPx and lastShares as decimal strings in domain units (shortest exact
 *            form, "0.25", never a float; exact at the instrument's scales), `side` the aggressor order's
 *            side, `time` the aggressor execution's transact time (the passive one's when it has none) as
 *            ISO 8601 UTC with milliseconds, `state` the trade's state (the TradeState enum name). ~150 bytes
 *            a line: what replay needs, nothing else.
 *   full     {"type":"trade","trade":<the Trade wire JSON as the trade search returned it, in the
 *            header's family naming (gateway: snake_case, familyA: camelCase)>}, ~1.7 KB a line: the
 *            exchange's whole record, for other analysis (`history fetch --format full`).
 *
 * Version 1 files (no `format` key) are full-format and still load. Busted trades are kept in both formats:
 * a later line with the same trade id supersedes the earlier one in replay.
 * A recording of a live session (`tradebot run --record`) uses the same header with `"kind":"recording"`
 * (and no `format`) and lines `{"type":"market"|"orders","time":<epoch ms>,"event":{...}}` (see recording/).
 * Recordings are at version 2 (a closing `{"type":"end","time":<epoch ms>}` line; replay takes the live bot's
 * own orders out of the recorded market); version 1 recordings (no end line) still load.
 */
import { Decimal } from '../../src/domain/decimal.ts';
import { familyA, INSTRUMENT_STATES, type Instrument, type InstrumentState } from '../../src/domain/index.ts';
import { formatTimestamp, tryParseTimestamp } from '../../src/domain/time.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';

/** Version of trade histories written now; HISTORY_VERSIONS are the ones this code reads. */
export const HISTORY_VERSION = 2;
const HISTORY_VERSIONS: readonly unknown[] = [1, 2];
/** How a trade history writes its trade lines (see above). */
export type HistoryFormat = 'compact' | 'full';
export const HISTORY_FORMATS: readonly HistoryFormat[] = ['compact', 'full'];
/** Version of recordings written now; RECORDING_VERSIONS are the ones this code reads. */
export const RECORDING_VERSION = 2;
const RECORDING_VERSIONS: readonly unknown[] = [1, 2];
export type HistorySource = 'familyA' | 'gateway';
export type HistoryKind = 'history' | 'recording';

export interface HistoryHeader {
  readonly kind: HistoryKind;
  /**
   * A trade history's line format (parseHeader always sets it for a history: "full" for version 1 files);
   * encodeHeader writes "full" for a history without one. Recordings have none.
   */
  readonly format?: HistoryFormat;
  readonly source: HistorySource;
  readonly symbols: readonly string[];
  /** Epoch ms; `to` is exclusive. A recording's `to` is the time it ended (or its start when unknown). */
  readonly from: number;
  readonly to: number;
  readonly instruments: readonly Instrument[];
  /** What the exchange showed for the symbols that were over (EXPIRED / TERMINATED) when the file was fetched. */
  readonly settlements?: readonly RecordedSettlement[];
}

/** An instrument's state and settlement price as the exchange's market data showed them (header `settlements`). */
export interface RecordedSettlement {
  readonly symbol: string;
  readonly state: InstrumentState;
  /** stats.settlementPx: 1 for a contract settled at 1.00; 0 also means "not settled yet" on the wire. */
  readonly settlementPx: Decimal;
}

/** Over: an instrument that no longer trades (its settlement, when known, is in its market data stats). */
export function isOver(state: InstrumentState | undefined): boolean {
  return state === 'INSTRUMENT_STATE_EXPIRED' || state === 'INSTRUMENT_STATE_TERMINATED';
}

/** The header as one JSON line (with its newline). Keys in the documented order. */
export function encodeHeader(header: HistoryHeader): string {
  const json: Record<string, unknown> = { type: 'header', version: header.kind === 'recording' ? RECORDING_VERSION : HISTORY_VERSION };
  if (header.kind === 'recording') json['kind'] = 'recording';
  else json['format'] = header.format ?? 'full';
  Object.assign(json, {
    source: header.source,
    symbols: [...header.symbols],
    from: formatTimestamp(header.from),
    to: formatTimestamp(header.to),
    instruments: header.instruments.map((i) => familyA.instrument.encode(i)),
  });
  if (header.settlements !== undefined && header.settlements.length > 0)
    json['settlements'] = header.settlements.map((s) => ({ symbol: s.symbol, state: s.state, settlementPx: s.settlementPx.toString() }));
  return `${JSON.stringify(json)}\n`;
}

/** A full-format trade line (with its newline) from the wire JSON object of one trade. */
export function encodeTradeLine(trade: Record<string, unknown>): string {
  return `{"type":"trade","trade":${JSON.stringify(trade)}}\n`;
}

function bad(file: string, why: string, fix = 'write one with `tradebot history fetch` or `tradebot run --record`'): never {
  throw backtestError(BacktestErrorCode.BAD_HEADER, `${file}: line 1 is not a history header (${why}); ${fix}`);
}

/** Validates line 1 of a history or recording file. */
export function parseHeader(line: string, file: string): HistoryHeader {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    bad(file, 'not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) bad(file, 'not an object');
  const o = json as Record<string, unknown>;
  if (o['type'] !== 'header') bad(file, 'type is not "header"');
  const kind = o['kind'] === undefined ? 'history' : o['kind'];
  if (kind !== 'history' && kind !== 'recording') bad(file, `kind must be "history" or "recording"`);
  const version = o['version'];
  if (kind === 'history' && !HISTORY_VERSIONS.includes(version)) {
    bad(
      file,
      `history version ${JSON.stringify(version)}: this tradebot reads versions ${HISTORY_VERSIONS.join(' and ')}` +
        `${typeof version === 'number' && version > HISTORY_VERSION ? ' (the file is newer: update tradebot)' : ''}`,
      'fetch it again with this version',
    );
  }
  let format: HistoryFormat | undefined;
  if (kind === 'history') {
    const given = o['format'];
    if (version === 1) {
      if (given !== undefined && given !== 'full') bad(file, `version 1 histories are full-format, got format ${JSON.stringify(given)}`);
      format = 'full';
    } else if (given === 'compact' || given === 'full') {
      format = given;
    } else {
      bad(file, `format must be "compact" or "full", got ${JSON.stringify(given)}`);
    }
  } else if (o['format'] !== undefined) {
    bad(file, 'a recording has no format');
  }
  if (kind === 'recording' && !RECORDING_VERSIONS.includes(version)) {
    bad(
      file,
      `recording version ${JSON.stringify(version)}: this tradebot reads versions ${RECORDING_VERSIONS.join(' and ')}` +
        `${typeof version === 'number' && version > RECORDING_VERSION ? ' (the file is newer: update tradebot)' : ''}`,
      'record the session again with this version',
    );
  }
  const source = o['source'];
  if (source !== 'familyA' && source !== 'gateway') bad(file, 'source must be "familyA" or "gateway"');
  const symbols = o['symbols'];
  if (!Array.isArray(symbols) || !symbols.every((s): s is string => typeof s === 'string')) bad(file, 'symbols must be a list of strings');
  const from = typeof o['from'] === 'string' ? tryParseTimestamp(o['from']) : undefined;
  const to = typeof o['to'] === 'string' ? tryParseTimestamp(o['to']) : undefined;
  if (from === undefined || to === undefined) bad(file, 'from and to must be ISO 8601 times');
  if (to < from) bad(file, 'to is before from');
  const raw = o['instruments'];
  if (!Array.isArray(raw)) bad(file, 'instruments must be a list');
  const instruments = raw.map((entry, i) => {
    try {
      return familyA.instrument.decode(entry);
    } catch (error) {
      return bad(file, `instruments[${i}]: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  for (const symbol of symbols) if (!instruments.some((i) => i.symbol === symbol)) bad(file, `no instrument for symbol ${symbol}`);
  const settlements = o['settlements'] === undefined ? undefined : parseSettlements(o['settlements'], symbols, file);
  return {
    kind,
    ...(format === undefined ? {} : { format }),
    source,
    symbols,
    from,
    to,
    instruments,
    ...(settlements ? { settlements } : {}),
  };
}

function parseSettlements(raw: unknown, symbols: readonly string[], file: string): RecordedSettlement[] {
  if (!Array.isArray(raw)) bad(file, 'settlements must be a list');
  return raw.map((entry: unknown, i) => {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const where = `settlements[${i}]`;
    if (typeof e['symbol'] !== 'string' || !symbols.includes(e['symbol'])) bad(file, `${where}.symbol must be one of the header's symbols`);
    if (typeof e['state'] !== 'string' || !(INSTRUMENT_STATES as readonly string[]).includes(e['state']))
      bad(file, `${where}.state must be an instrument state such as INSTRUMENT_STATE_EXPIRED`);
    const px = e['settlementPx'];
    if (typeof px !== 'string' || !/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(px) || new Decimal(px).gt(1))
      bad(file, `${where}.settlementPx must be a decimal string from 0 to 1, got ${JSON.stringify(px)}`);
    return { symbol: e['symbol'], state: e['state'] as InstrumentState, settlementPx: new Decimal(px) };
  });
}
