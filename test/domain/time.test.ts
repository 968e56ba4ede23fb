/**
 * Time helpers: strict ISO 8601 parsing with offsets and fractional seconds, UTC formatting, proto Date.
 * The parser reads characters one by one; a property checks it against the accepted form written as a
 * regular expression (the parser it replaced), on strings built near that form and damaged at random.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  formatProtoDate,
  formatTimestamp,
  isValidProtoDate,
  parseProtoDate,
  parseTimestamp,
  protoDateOf,
  tryParseTimestamp,
} from '../../src/domain/index.ts';

describe('timestamps', () => {
  test('parses Z and offsets, truncating below a millisecond', () => {
    expect(parseTimestamp('2024-05-01T12:00:00Z')).toBe(Date.UTC(2024, 4, 1, 12));
    expect(parseTimestamp('2024-05-01T12:00:00.123456789Z')).toBe(Date.UTC(2024, 4, 1, 12, 0, 0, 123));
    expect(parseTimestamp('2024-05-01T14:30:00+02:30')).toBe(Date.UTC(2024, 4, 1, 12));
    expect(parseTimestamp('2024-05-01T10:00:00.5-02:00')).toBe(Date.UTC(2024, 4, 1, 12, 0, 0, 500));
  });

  test.each([
    '2024-05-01',
    '2024-05-01T12:00:00',
    '2024-05-01 12:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-05-01T24:00:00Z',
    '2024-05-01T12:60:00Z',
    '2024-05-01T12:00:00.1234567890Z',
    '0000-01-01T00:00:00Z',
    'yesterday',
  ])('refuses %j with TIME_INVALID', (text) => {
    expect(tryParseTimestamp(text)).toBeUndefined();
    expect(() => parseTimestamp(text, 'order.create_time')).toThrowError(
      expect.objectContaining({ code: 'TIME_INVALID', message: expect.stringContaining('order.create_time') }),
    );
  });

  test('accepts a leap day', () => {
    expect(parseTimestamp('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });

  test('formats UTC with milliseconds and refuses non-integer instants', () => {
    expect(formatTimestamp(Date.UTC(2024, 4, 1, 12))).toBe('2024-05-01T12:00:00.000Z');
    expect(() => formatTimestamp(1.5)).toThrowError(expect.objectContaining({ code: 'TIME_INVALID' }));
  });

  test('matches the accepted form as a regular expression, on valid and damaged strings, alone and in runs of one minute', () => {
    const form = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
    const model = (text: string): number | undefined => {
      const m = form.exec(text);
      if (m === null) return undefined;
      const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
      const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
      const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
      if (year < 1 || month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return undefined;
      const zone = m[8] as string;
      const [oh, om] = zone === 'Z' ? [0, 0] : [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))];
      if (oh > 23 || om > 59) return undefined;
      const d = new Date(0);
      d.setUTCFullYear(year, month - 1, day);
      d.setUTCHours(hour, minute, second, m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3)));
      const ms = d.getTime() - (oh * 60 + om) * 60_000 * (zone[0] === '-' ? -1 : 1);
      const min = new Date(0).setUTCFullYear(1, 0, 1);
      return ms < min || ms > Date.UTC(9999, 11, 31, 23, 59, 59, 999) ? undefined : ms;
    };
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const near = fc
      .record({
        year: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        month: two(13),
        day: two(32),
        hour: two(25),
        minute: two(61),
        second: two(61),
        fraction: fc.option(fc.stringMatching(/^[0-9]{0,11}$/), { nil: undefined }),
        zone: fc.oneof(
          fc.constant('Z'),
          fc.tuple(fc.constantFrom('+', '-'), two(25), two(61)).map(([s, h, m]) => `${s}${h}:${m}`),
        ),
      })
      .map(
        (p) =>
          `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${p.fraction === undefined ? '' : `.${p.fraction}`}${p.zone}`,
      );
    const damaged = fc
      .tuple(near, fc.nat(40), fc.constantFrom('', 'x', '0', '9', '.', ':', '-', 'Z', '+', ' ', '١'))
      .map(([text, at, put]) => text.slice(0, at % (text.length + 1)) + put + text.slice((at % (text.length + 1)) + 1));
    fc.assert(
      fc.property(fc.oneof(near, damaged, fc.string({ maxLength: 40 })), (text) => {
        expect(tryParseTimestamp(text)).toBe(model(text));
      }),
      { numRuns: 5000 },
    );
    // a stream's timestamps share their minute (the parser converts each minute once): runs of strings with
    // one minute, valid and damaged, in any order
    const sameMinute = fc
      .tuple(
        near,
        fc.array(fc.tuple(two(61), fc.option(fc.stringMatching(/^[0-9]{0,10}$/)), fc.nat(40), fc.constantFrom('', 'x', '7', ':', 'Z'))),
      )
      .map(([base, tails]) =>
        tails.map(([second, fraction, at, put]) => {
          const text = `${base.slice(0, 17)}${second}${fraction === null ? '' : `.${fraction}`}Z`;
          return put === '' ? text : text.slice(0, at % text.length) + put + text.slice((at % text.length) + 1);
        }),
      );
    fc.assert(
      fc.property(sameMinute, (texts) => {
        for (const text of texts) expect(tryParseTimestamp(text)).toBe(model(text));
      }),
      { numRuns: 500 },
    );
  });

  test('parse(format(ms)) === ms over years 0001..9999', () => {
    const min = parseTimestamp('0001-01-01T00:00:00Z');
    const max = parseTimestamp('9999-12-31T23:59:59.999Z');
    fc.assert(fc.property(fc.integer({ min, max }), (ms) => parseTimestamp(formatTimestamp(ms)) === ms));
  });
});

describe('formatting caches (last minute, last day)', () => {
  const min = Date.UTC(2000, 0, 1) - 100 * 365 * 86_400_000;
  const max = Date.UTC(2100, 0, 1);
  // runs of instants near each other (same minute or day, and across their bounds), then jumps anywhere
  const runs = fc.array(fc.tuple(fc.integer({ min, max }), fc.array(fc.integer({ min: -90_000_000, max: 90_000_000 }), { maxLength: 8 })), {
    minLength: 1,
    maxLength: 8,
  });

  test('formatTimestamp equals Date#toISOString, alone and in runs', () => {
    fc.assert(
      fc.property(runs, (groups) => {
        for (const [base, steps] of groups)
          for (const ms of [base, ...steps.map((s) => base + s)]) expect(formatTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 300 },
    );
    expect(formatTimestamp(parseTimestamp('0001-01-01T00:00:00Z'))).toBe('0001-01-01T00:00:00.000Z');
    expect(formatTimestamp(parseTimestamp('9999-12-31T23:59:59.999Z'))).toBe('9999-12-31T23:59:59.999Z');
    expect(formatTimestamp(-1)).toBe('1969-12-31T23:59:59.999Z');
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  test('protoDateOf equals the UTC day of Date, alone and in runs', () => {
    fc.assert(
      fc.property(runs, (groups) => {
        for (const [base, steps] of groups)
          for (const ms of [base, ...steps.map((s) => base + s)]) {
            const d = new Date(ms);
            expect(protoDateOf(ms)).toEqual({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
          }
      }),
      { numRuns: 300 },
    );
    expect(protoDateOf(-1)).toEqual({ year: 1969, month: 12, day: 31 });
    expect(protoDateOf(0)).toEqual({ year: 1970, month: 1, day: 1 });
  });
});

describe('proto Date', () => {
  test('validates calendar days, allowing 0 for unspecified parts', () => {
    expect(isValidProtoDate({ year: 2024, month: 2, day: 29 })).toBe(true);
    expect(isValidProtoDate({ year: 2023, month: 2, day: 29 })).toBe(false);
    expect(isValidProtoDate({ year: 2024, month: 0, day: 0 })).toBe(true);
    expect(isValidProtoDate({ year: 2024, month: 13, day: 1 })).toBe(false);
  });

  test('formats, parses and derives the UTC day of an instant', () => {
    expect(formatProtoDate({ year: 2024, month: 5, day: 1 })).toBe('2024-05-01');
    expect(parseProtoDate('2024-05-01')).toEqual({ year: 2024, month: 5, day: 1 });
    expect(protoDateOf(Date.UTC(2024, 4, 1, 23, 59))).toEqual({ year: 2024, month: 5, day: 1 });
    expect(() => parseProtoDate('2024-02-30')).toThrowError(expect.objectContaining({ code: 'TIME_INVALID' }));
  });
});
