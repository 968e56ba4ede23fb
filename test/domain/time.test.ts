/**
 * Time helpers: strict ISO 8601 parsing with offsets and fractional seconds, UTC formatting, proto Date.
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

  test('parse(format(ms)) === ms over years 0001..9999', () => {
    const min = parseTimestamp('0001-01-01T00:00:00Z');
    const max = parseTimestamp('9999-12-31T23:59:59.999Z');
    fc.assert(fc.property(fc.integer({ min, max }), (ms) => parseTimestamp(formatTimestamp(ms)) === ms));
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
