/**
 * proto3 JSON rules at the boundary: absent fields decode to zero values, int64 arrives as string or
 * number, enums as names or numbers, unknown fields are ignored, and encoders omit defaults.
 */
import { describe, expect, test } from 'vitest';
import { ORDER_TYPES, familyA, gateway, scalesBySymbol } from '../../src/domain/index.ts';
import { SCALES, SCALES_A, d, installDecimalEquality } from './fixtures.ts';

installDecimalEquality();

describe('missing fields', () => {
  test('a missing enum is its zero value (side, time in force, state, reasons)', () => {
    const order = gateway.order.decode({ symbol: 'EVT-A' }, SCALES);
    expect(order.side).toBe('SIDE_UNDEFINED');
    expect(order.timeInForce).toBe('TIME_IN_FORCE_UNDEFINED');
    expect(order.type).toBe('ORDER_TYPE_UNDEFINED');
    expect(order.state).toBe('ORDER_STATE_NEW');
    expect(order.orderCapacity).toBe('ORDER_CAPACITY_UNDEFINED');
    const exec = gateway.execution.decode({ order: { symbol: 'EVT-A' } }, SCALES);
    expect(exec.type).toBe('EXECUTION_TYPE_NEW');
    expect(exec.orderRejectReason).toBe('ORD_REJECT_REASON_EXCHANGE_OPTION');
    expect(exec.unsolicitedCancelReason).toBe('UNSOLICITED_CXL_REASON_UNDEFINED');
    expect(gateway.instrument.decode({ symbol: 'X' }).state).toBe('INSTRUMENT_STATE_CLOSED');
  });

  test('missing strings, bools, numbers, lists, times and messages get their defaults', () => {
    const order = familyA.order.decode({}, SCALES_A);
    expect(order.id).toBe('');
    expect(order.allOrNone).toBe(false);
    expect(order.price).toEqual(d('0'));
    expect(order.priceToQuantityFilled).toEqual([]);
    expect(order.createTime).toBeUndefined();
    expect(order.context).toBeUndefined();
    expect(gateway.searchTradesResponse.decode({})).toEqual({ trades: [], nextPageToken: '' });
    expect(familyA.orderRequest.decode({}, SCALES_A).commissionOverrideBasisPoints).toBeUndefined();
  });

  test('null is treated as absent', () => {
    expect(gateway.order.decode({ symbol: 'EVT-A', side: null, price: null, executions: null }, SCALES).side).toBe('SIDE_UNDEFINED');
  });

  test('an absent book state is undefined (the spec marks it state?), not CLOSED', () => {
    const update = gateway.orderBook.decode({ symbol: 'EVT-A', bids: [{ px: '55', qty: '1' }] }, SCALES);
    expect(update.state).toBeUndefined();
    expect(update.stats).toBeUndefined();
    expect(update.offers).toEqual([]);
  });

  test('an instrument with scale "0" or no scale uses 1', () => {
    const instrument = familyA.instrument.decode({ symbol: 'X', priceScale: '0', lowPriceLimit: '3' });
    expect(instrument.priceScale).toBe(1);
    expect(instrument.fractionalQtyScale).toBe(1);
    expect(instrument.lowPriceLimit).toEqual(d('3'));
  });
});

describe('numbers and enums', () => {
  test('int64 values arrive as strings or as JSON numbers', () => {
    const a = gateway.order.decode({ symbol: 'EVT-A', price: '55', order_qty: '3' }, SCALES);
    const b = gateway.order.decode({ symbol: 'EVT-A', price: 55, order_qty: 3 }, SCALES);
    expect(b).toEqual(a);
    expect(b.price).toEqual(d('0.55'));
    expect(familyA.tradeStats.decode({ totalTradeCount: 5, clearedTradeCount: '4' }, SCALES_A)).toMatchObject({
      totalTradeCount: 5,
      clearedTradeCount: 4,
    });
  });

  test('enums arrive by name or by proto number (notes order)', () => {
    const order = gateway.order.decode({ symbol: 'EVT-A', side: 1, type: ORDER_TYPES.indexOf('ORDER_TYPE_LIMIT') }, SCALES);
    expect(order.side).toBe('SIDE_BUY');
    expect(order.type).toBe('ORDER_TYPE_LIMIT');
  });

  test('a family A leg side may be a plain string (BUY); the gateway requires the proto name', () => {
    expect(familyA.legPrice.decode({ symbol: 'EVT-A', side: 'BUY' }, SCALES).side).toBe('SIDE_BUY');
    expect(() => gateway.legPrice.decode({ symbol: 'EVT-A', side: 'BUY' }, SCALES)).toThrowError(/side: expected a Side/);
  });

  test('the tick size accepts a decimal string or a JSON number', () => {
    expect(familyA.instrument.decode({ symbol: 'X', tickSize: '0.01' }).tickSize).toEqual(d('0.01'));
    expect(familyA.instrument.decode({ symbol: 'X', tickSize: 0.01 }).tickSize).toEqual(d('0.01'));
  });
});

describe('forward compatibility and scales', () => {
  test('unknown extra fields on inbound payloads are ignored', () => {
    const order = gateway.order.decode({ symbol: 'EVT-A', price: '55', brand_new_field: { x: 1 } }, SCALES);
    expect(order).not.toHaveProperty('brand_new_field');
    expect(order.price).toEqual(d('0.55'));
  });

  test('the gateway order scale fields must agree with the instrument', () => {
    expect(() => gateway.order.decode({ symbol: 'EVT-A', price: '55', price_scale: '10000' }, SCALES)).toThrowError(
      /price_scale: expected "100" \(the price scale of EVT-A\), got "10000"/,
    );
  });

  test('an order of an unknown symbol decodes with its own scale fields', () => {
    const order = gateway.order.decode({ symbol: 'NEW', price: '5500', price_scale: '10000' }, SCALES);
    expect(order.price).toEqual(d('0.55'));
  });

  test('instruments from reference data give the scales for decoding orders', () => {
    const { instruments } = gateway.listInstrumentsResponse.decode({
      instruments: [{ symbol: 'RAIN', price_scale: '100', fractional_quantity_scale: '10', tick_size: '0.01', high_price_limit: '99' }],
    });
    expect(instruments[0]?.highPriceLimit).toEqual(d('0.99'));
    const scales = scalesBySymbol(instruments);
    expect(gateway.order.decode({ symbol: 'RAIN', price: '55', order_qty: '15' }, scales)).toMatchObject({
      price: d('0.55'),
      orderQty: d('1.5'),
    });
  });

  test('scaled values of a symbol without known scales are SCALE_UNKNOWN_SYMBOL', () => {
    expect(() => gateway.order.decode({ symbol: 'NEW', price: '5500' }, SCALES)).toThrowError(
      expect.objectContaining({
        code: 'SCALE_UNKNOWN_SYMBOL',
        message: expect.stringMatching(/^price: no instrument scales for symbol "NEW"/),
      }),
    );
  });

  test('encoders omit defaults unless asked, and write int64 as strings and enums as names', () => {
    const order = gateway.order.decode({ symbol: 'EVT-A', side: 2, price: 55 }, SCALES);
    expect(gateway.order.encode(order, SCALES)).toEqual({
      symbol: 'EVT-A',
      side: 'SIDE_SELL',
      price: '55',
      price_scale: '100',
      fractional_quantity_scale: '1',
    });
    const full = gateway.order.encode(order, SCALES, { emitDefaults: true });
    expect(full).toMatchObject({ id: '', all_or_none: false, order_qty: '0', time_in_force: 'TIME_IN_FORCE_UNDEFINED' });
  });

  test('encoding an order request refuses a price off the price scale', () => {
    const request = familyA.orderRequest.decode({ symbol: 'EVT-A', price: '55' }, SCALES);
    expect(() => familyA.orderRequest.encode({ ...request, price: d('0.555') }, SCALES)).toThrowError(
      expect.objectContaining({ code: 'SCALE_NOT_REPRESENTABLE', message: expect.stringMatching(/^price: 0\.555 is not representable/) }),
    );
  });

  test('an average price is rounded half-even to the scale when encoded', () => {
    const order = gateway.order.decode({ symbol: 'EVT-A' }, SCALES);
    expect(gateway.order.encode({ ...order, avgPx: d('0.555') }, SCALES).avg_px).toBe('56');
  });
});
