/**
 * Time on the wire and in the domain.
 *
 * Decision: a domain timestamp is `EpochMs`, integer milliseconds since the Unix epoch (UTC). It is
 * immutable, cheap to compare and what the injected Clock produces. Wire date-times are ISO 8601 /
 * RFC 3339 strings; parsing accepts 0-9 fractional digits and a `Z` or `±HH:MM` offset, validates the
 * calendar (no 2023-02-29, no hour 24), and truncates sub-millisecond digits (documented precision loss).
 * Formatting always writes UTC with `Z` and three fractional digits (`2024-05-01T12:00:00.000Z`).
 * The accepted range is the proto Timestamp range, years 0001 to 9999.
 *
 * A proto `Date {year, month, day}` stays a `ProtoDate` (a calendar day with no zone); 0 in a part means
 * "not specified" as in google.type.Date.
 */
import { DomainErrorCode, describeValue, domainError } from './errors.ts';

export type EpochMs = number;

export interface ProtoDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const MIN_EPOCH_MS = utcMs(1, 1, 1, 0, 0, 0, 0);
const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** Milliseconds in a UTC day (no leap seconds in epoch time). */
export const DAY_MS = 86_400_000;

/** The start of the `unitMs`-long period (minute, day) that `ms` falls in, counted from the epoch. */
function periodStart(ms: number, unitMs: number): number {
  return ms - (((ms % unitMs) + unitMs) % unitMs);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function utcMs(year: number, month: number, day: number, h: number, m: number, s: number, ms: number): number {
  // Date.UTC reads years 0-99 as 1900-1999
  if (year >= 100) return Date.UTC(year, month - 1, day, h, m, s, ms);
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, m, s, ms);
  return d.getTime();
}

/** The `count` ASCII digits of `text` from `at` as a number, or -1 when one of them is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The last minute parsed (`YYYY-MM-DDTHH:MM`, validated) and its epoch ms: the timestamps of a stream share
 * their minute, so the calendar is checked and converted once a minute, not on every update.
 */
let lastMinuteText = '';
let lastMinuteMs = 0;

/** The epoch ms of the minute `YYYY-MM-DDTHH:MM` at the start of `text` (UTC, no offset), or undefined. */
function minuteOf(text: string): number | undefined {
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':') return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  return utcMs(year, month, day, hour, minute, 0, 0);
}

/**
 * Parses an ISO 8601 date-time with zone; undefined when invalid or out of range. The accepted form is
 * `YYYY-MM-DDTHH:MM:SS`, then an optional `.` and 1-9 digits, then `Z` or `±HH:MM`, read character by
 * character (every market data update carries one: a regular expression's match and its captured strings
 * cost several times more). test/domain/time.test.ts checks it against that form written as a regular
 * expression.
 */
export function tryParseTimestamp(text: string): EpochMs | undefined {
  const length = text.length;
  if (length < 20 || text[16] !== ':') return undefined;
  let minuteMs: number | undefined = lastMinuteMs;
  if (!text.startsWith(lastMinuteText) || lastMinuteText === '') {
    minuteMs = minuteOf(text);
    if (minuteMs === undefined) return undefined;
    lastMinuteText = text.slice(0, 16);
    lastMinuteMs = minuteMs;
  }
  const second = digitsAt(text, 17, 2);
  if (second < 0 || second > 59) return undefined;
  let at = 19;
  let millis = 0;
  if (text[at] === '.') {
    const first = at + 1;
    at = first;
    while (at < length && at - first < 9 && digitsAt(text, at, 1) >= 0) at += 1;
    const fraction = at - first;
    if (fraction === 0) return undefined;
    // sub-millisecond digits are truncated; fewer than three are tenths or hundredths
    millis = digitsAt(text, first, Math.min(3, fraction)) * (fraction === 1 ? 100 : fraction === 2 ? 10 : 1);
  }
  let offsetMs = 0;
  if (text[at] === 'Z') {
    if (at + 1 !== length) return undefined;
  } else {
    const sign = text[at];
    if ((sign !== '+' && sign !== '-') || at + 6 !== length || text[at + 3] !== ':') return undefined;
    const oh = digitsAt(text, at + 1, 2);
    const om = digitsAt(text, at + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return undefined;
    offsetMs = (oh * 60 + om) * 60_000 * (sign === '-' ? -1 : 1);
  }
  const ms = minuteMs + second * 1000 + millis - offsetMs;
  return ms < MIN_EPOCH_MS || ms > MAX_EPOCH_MS ? undefined : ms;
}

export function isValidEpochMs(ms: number): boolean {
  return Number.isSafeInteger(ms) && ms >= MIN_EPOCH_MS && ms <= MAX_EPOCH_MS;
}

/** Strict parse; throws TIME_INVALID naming `what`. */
export function parseTimestamp(text: string, what = 'value'): EpochMs {
  const ms = typeof text === 'string' ? tryParseTimestamp(text) : undefined;
  if (ms === undefined) {
    throw domainError(
      DomainErrorCode.TIME_INVALID,
      `${what}: expected an ISO 8601 date-time such as "2024-05-01T12:00:00Z", got ${describeValue(text)}`,
      { what, got: describeValue(text) },
    );
  }
  return ms;
}

/** UTC, `Z`, millisecond precision. Throws TIME_INVALID for non-integer or out-of-range values. */
export function formatTimestamp(ms: EpochMs, what = 'value'): string {
  if (!isValidEpochMs(ms)) {
    throw domainError(
      DomainErrorCode.TIME_INVALID,
      `${what}: expected integer epoch milliseconds within years 0001..9999, got ${describeValue(ms)}`,
      { what, got: describeValue(ms) },
    );
  }
  const minuteMs = periodStart(ms, 60_000);
  if (minuteMs !== formattedMinuteMs) {
    formattedMinuteMs = minuteMs;
    formattedMinute = new Date(minuteMs).toISOString().slice(0, 17);
  }
  const inMinute = ms - minuteMs;
  const seconds = Math.floor(inMinute / 1000);
  const millis = inMinute - seconds * 1000;
  return `${formattedMinute}${seconds < 10 ? '0' : ''}${seconds}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/**
 * The last minute formatted (its epoch ms and `YYYY-MM-DDTHH:MM:`) and the last day's ProtoDate with its
 * bounds: a run writes the times of its fills, orders and executions, which share their minute and their day,
 * and Date's own conversions (toISOString, getUTC*) cost microseconds each. test/domain/time.test.ts checks
 * both against Date.
 */
let formattedMinuteMs = Number.NaN;
let formattedMinute = '';
let protoDayStart = Number.NaN;
let protoDay: ProtoDate = { year: 0, month: 0, day: 0 };

/** A valid google.type.Date: year 0..9999, month 0..12, day 0..31 (0 = unspecified) and a real day. */
export function isValidProtoDate(date: ProtoDate): boolean {
  const { year, month, day } = date;
  if (![year, month, day].every(Number.isInteger)) return false;
  if (year < 0 || year > 9999 || month < 0 || month > 12 || day < 0 || day > 31) return false;
  if (day > 0 && month > 0 && year > 0) return day <= daysInMonth(year, month);
  return true;
}

/** The UTC calendar day of an instant. */
export function protoDateOf(ms: EpochMs): ProtoDate {
  if (!isValidEpochMs(ms)) formatTimestamp(ms); // throws TIME_INVALID
  if (ms >= protoDayStart && ms < protoDayStart + DAY_MS) return protoDay;
  const d = new Date(ms);
  protoDay = Object.freeze({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
  protoDayStart = periodStart(ms, DAY_MS);
  return protoDay;
}

/** `YYYY-MM-DD` (zero parts are printed as zeros). */
export function formatProtoDate(date: ProtoDate): string {
  const pad = (n: number, w: number): string => String(n).padStart(w, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** Parses `YYYY-MM-DD` strictly; throws TIME_INVALID. */
export function parseProtoDate(text: string, what = 'value'): ProtoDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = m === null ? undefined : { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (date === undefined || !isValidProtoDate(date)) {
    throw domainError(DomainErrorCode.TIME_INVALID, `${what}: expected a date YYYY-MM-DD, got ${describeValue(text)}`, {
      what,
      got: describeValue(text),
    });
  }
  return date;
}
