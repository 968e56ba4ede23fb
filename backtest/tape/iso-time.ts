/**
 * Fast parse of the wire's UTC timestamps (`2026-11-30T14:00:00.400Z`, 0-9 fractional digits), from a
 * string or straight from a line's bytes, without allocating: one Date.UTC per calendar day (cached),
 * the rest is arithmetic. Anything else (a zone offset, a bad calendar day) returns NaN and the caller
 * falls back to the domain's strict parser.
 */

const dayCache = new Map<number, number>();
let lastDayKey = -1;
let lastDayMs = Number.NaN;

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

function two(s: string, i: number): number {
  return digit(s, i) * 10 + digit(s, i + 1);
}

function dayStart(year: number, month: number, day: number): number {
  const key = year * 10_000 + month * 100 + day;
  if (key === lastDayKey) return lastDayMs;
  let ms = dayCache.get(key);
  if (ms === undefined) {
    ms = Date.UTC(year, month - 1, day);
    const check = new Date(ms);
    if (year < 1000 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) ms = NaN;
    if (dayCache.size > 4096) dayCache.clear();
    dayCache.set(key, ms);
  }
  if (key === key) {
    lastDayKey = key;
    lastDayMs = ms;
  }
  return ms;
}

/** Epoch ms of the timestamp starting at `at` in `s`, ending with `Z` at the end of `s` or before `"`; NaN otherwise. */
export function parseIsoUtcAt(s: string, at: number): number {
  if (
    s.charCodeAt(at + 4) !== 45 ||
    s.charCodeAt(at + 7) !== 45 ||
    s.charCodeAt(at + 10) !== 84 ||
    s.charCodeAt(at + 13) !== 58 ||
    s.charCodeAt(at + 16) !== 58
  )
    return NaN;
  const year = two(s, at) * 100 + two(s, at + 2);
  const hour = two(s, at + 11);
  const minute = two(s, at + 14);
  const second = two(s, at + 17);
  if (!(hour <= 23 && minute <= 59 && second <= 59)) return NaN;
  let i = at + 19;
  let millis = 0;
  if (s.charCodeAt(i) === 46) {
    i++;
    let places = 0;
    for (;;) {
      const d = digit(s, i);
      if (Number.isNaN(d)) break;
      if (places < 3) millis = millis * 10 + d;
      places++;
      i++;
    }
    if (places === 0 || places > 9) return NaN;
    for (let p = places; p < 3; p++) millis *= 10;
  }
  if (s.charCodeAt(i) !== 90 || (i + 1 < s.length && s.charCodeAt(i + 1) !== 34)) return NaN;
  return dayStart(year, two(s, at + 5), two(s, at + 8)) + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/** Two ASCII digits of `u` at `i` as a number; NaN unless both are digits. */
function twoBytes(u: Uint8Array, i: number): number {
  const a = (u[i] as number) - 48;
  const b = (u[i + 1] as number) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/**
 * The same parse on bytes: the timestamp fills exactly u[at, end) (`end` is the closing quote's index).
 * Epoch ms, or NaN when it is not in the canonical form.
 */
export function parseIsoUtcBytes(u: Uint8Array, at: number, end: number): number {
  const length = end - at;
  if (length < 20 || length > 30) return NaN;
  if (u[at + 4] !== 45 || u[at + 7] !== 45 || u[at + 10] !== 84 || u[at + 13] !== 58 || u[at + 16] !== 58 || u[end - 1] !== 90) return NaN;
  const year = twoBytes(u, at) * 100 + twoBytes(u, at + 2);
  const hour = twoBytes(u, at + 11);
  const minute = twoBytes(u, at + 14);
  const second = twoBytes(u, at + 17);
  if (!(hour <= 23 && minute <= 59 && second <= 59)) return NaN;
  let millis = 0;
  if (length > 20) {
    // `.` and 1-9 digits before the Z
    if (u[at + 19] !== 46 || length === 21) return NaN;
    for (let i = at + 20, places = 0; i < end - 1; i++, places++) {
      const d = (u[i] as number) - 48;
      if (!(d >= 0 && d <= 9)) return NaN;
      if (places < 3) millis = millis * 10 + d;
    }
    for (let p = length - 21; p < 3; p++) millis *= 10;
  }
  return dayStart(year, twoBytes(u, at + 5), twoBytes(u, at + 8)) + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}
