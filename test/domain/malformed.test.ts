/**
 * Malformed payloads are refused where they enter, with WIRE_INVALID_FIELD naming the field path and
 * what was expected; they never turn into `undefined` deep inside.
 */
import { describe, expect, test } from 'vitest';
import { type TradebotError, isTradebotError } from '../../src/errors.ts';
import { familyA, gateway } from '../../src/domain/index.ts';
import { SCALES, SCALES_A } from './fixtures.ts';

function errorOf(fn: () => unknown): TradebotError {
  try {
    fn();
  } catch (error) {
    if (isTradebotError(error)) return error;
    throw error;
  }
  throw new Error('expected a TradebotError');
}

const fill = (order: Record<string, unknown>) => ({ result: { update: { executions: [{ id: 'e1', order }] } } });

describe('wire errors name the field path', () => {
  test('a bad price deep in an order stream update', () => {
    const error = errorOf(() => gateway.orderStream.decode(fill({ symbol: 'EVT-A', price: 'abc' }), SCALES));
    expect(error.code).toBe('WIRE_INVALID_FIELD');
    expect(error.kind).toBe('validation');
    expect(error.message).toBe('result.update.executions[0].order.price: expected an integer string, got "abc"');
    expect(error.details).toEqual({ path: 'result.update.executions[0].order.price', expected: 'an integer string', got: '"abc"' });
  });

  test('the execution decoder alone reports executions-relative paths', () => {
    const error = errorOf(() => gateway.execution.decode({ order: { symbol: 'EVT-A', price: '5.5' } }, SCALES));
    expect(error.message).toBe('order.price: expected an integer string, got "5.5"');
  });

  test.each([
    ['a float price', { price: 55.5 }, 'price', 'an integer string'],
    ['an exponent price', { price: '1e3' }, 'price', 'an integer string'],
    ['a leading plus', { order_qty: '+3' }, 'order_qty', 'an integer string'],
    ['an unknown enum name', { side: 'SIDE_SIDEWAYS' }, 'side', 'a Side'],
    ['an enum number out of range', { time_in_force: 42 }, 'time_in_force', 'a TimeInForce'],
    ['a string bool', { all_or_none: 'true' }, 'all_or_none', 'a boolean'],
    ['a number as a string field', { clord_id: 7 }, 'clord_id', 'a string'],
    ['a bad date-time', { create_time: '2024-13-01T00:00:00Z' }, 'create_time', 'an ISO 8601 date-time'],
    ['a non-object context', { context: 'x' }, 'context', 'an object'],
    ['a bad fill map key', { price_to_quantity_filled: { abc: '1' } }, 'price_to_quantity_filled.abc', 'an integer string price'],
    ['a bad scale', { price_scale: '3' }, 'price_scale', 'a scale'],
  ])('%s', (_name, fields, path, expected) => {
    const error = errorOf(() => gateway.order.decode({ symbol: 'EVT-A', ...fields }, SCALES));
    expect(error.code).toBe('WIRE_INVALID_FIELD');
    expect(error.details?.path).toBe(path);
    expect(String(error.details?.expected)).toContain(expected);
    expect(error.message.startsWith(`${path}: expected`)).toBe(true);
  });

  test('int64 numbers must be safe integers', () => {
    const error = errorOf(() => familyA.tradeStats.decode({ totalTradeCount: 2 ** 60 }, SCALES_A));
    expect(error.details?.path).toBe('totalTradeCount');
  });

  test('int64 strings beyond the int64 range are refused', () => {
    const error = errorOf(() => gateway.order.decode({ symbol: 'EVT-A', price: '99999999999999999999' }, SCALES));
    expect(error.details?.path).toBe('price');
  });

  test('list elements and nested messages carry their index', () => {
    const error = errorOf(() =>
      familyA.orderBook.decode(
        {
          symbol: 'EVT-A',
          bids: [
            { px: '55', qty: '1' },
            { px: '54', qty: 'x' },
          ],
        },
        SCALES,
      ),
    );
    expect(error.message).toBe('bids[1].qty: expected an integer string, got "x"');
    expect(errorOf(() => familyA.orderBook.decode({ symbol: 'EVT-A', bids: {} }, SCALES)).message).toBe('bids: expected an array, got {}');
  });

  test('a required nested message cannot be missing', () => {
    expect(errorOf(() => gateway.execution.decode({ id: 'e1' }, SCALES)).message).toBe('order: expected an object (Order), got nothing');
    expect(errorOf(() => gateway.trade.decode({ id: 't', aggressor: null }, SCALES)).details?.path).toBe('aggressor');
  });

  test('a non-object payload is refused at the root', () => {
    expect(errorOf(() => gateway.order.decode([], SCALES)).message).toBe('<root>: expected an object (Order), got []');
    expect(errorOf(() => gateway.order.decode('x', SCALES)).code).toBe('WIRE_INVALID_FIELD');
  });

  test('a proto Date with a bad part names the part', () => {
    const error = errorOf(() =>
      gateway.execution.decode({ order: { symbol: 'EVT-A' }, transact_trade_date: { year: 2024, month: 'May', day: 1 } }, SCALES),
    );
    expect(error.details?.path).toBe('transact_trade_date.month');
    const invalid = errorOf(() =>
      gateway.execution.decode({ order: { symbol: 'EVT-A' }, transact_trade_date: { year: 2023, month: 2, day: 29 } }, SCALES),
    );
    expect(invalid.details?.path).toBe('transact_trade_date');
  });

  test('a stream line that is not JSON is WIRE_INVALID_JSON', () => {
    expect(errorOf(() => gateway.orderStream.decodeText('{"result":', SCALES)).code).toBe('WIRE_INVALID_JSON');
  });

  test('a stream result without a known variant is refused', () => {
    expect(errorOf(() => gateway.orderStream.decode({ result: { session_id: 's' } }, SCALES)).message).toBe(
      'result: expected an object with one of heartbeat, snapshot, update, got {"session_id":"s"}',
    );
  });

  test('long received values are shortened in messages', () => {
    const error = errorOf(() => gateway.order.decode({ symbol: 'EVT-A', price: 'x'.repeat(500) }, SCALES));
    expect(error.message.length).toBeLessThan(140);
  });
});
