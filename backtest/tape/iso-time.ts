/**
 * Fast parse of the wire's UTC timestamps (`2026-11-30T14:00:00.400Z`, 0-9 fractional digits) at a
 * given offset of a string, without allocating: one Date.UTC per calendar day (cached), the rest is
 * arithmetic. Anything else (a zone offset, a bad calendar day) returns NaN and the caller falls back
 * to the domain's strict parser.
 */

const dayCache = new Map<number, number>();

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

function two(s: string, i: number): number {
  return digit(s, i) * 10 + digit(s, i + 1);
}

function dayStart(year: number, month: number, day: number): number {
  const key = year * 10_000 + month * 100 + day;
  let ms = dayCache.get(key);
  if (ms === undefined) {
    ms = Date.UTC(year, month - 1, day);
    const check = new Date(ms);
    if (year < 1000 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) ms = NaN;
    if (dayCache.size > 4096) dayCache.clear();
    dayCache.set(key, ms);
  }
  return ms;
}

/** Epoch ms of the timestamp starting at `at` in `s`, ending with `Z` at the end of `s` or before `"`; NaN otherwise. */
export function parseIsoUtcAt(s: string, at: number): number {
  if (s.charCodeAt(at + 4) !== 45 || s.charCodeAt(at + 7) !== 45 || s.charCodeAt(at + 10) !== 84 || s.charCodeAt(at + 13) !== 58 || s.charCodeAt(at + 16) !== 58) return NaN;
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
