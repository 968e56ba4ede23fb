// Per-order rules: quantity, notional, the instrument's minimum, lot, tick and price limits, the price band.
import { describe, expect, it } from 'vitest';
import { approvedOf, context, d, instrument, manager, place, refusedOf, SYM } from './helpers.ts';

describe('maxOrderQty', () => {
  it('approves an order at maxOrderQty', () => {
    expect(approvedOf(manager({ maxOrderQty: '10' }).check(place('BUY', 10, '0.50'), context()))).toHaveLength(1);
  });

  it('refuses an order whose quantity exceeds maxOrderQty', () => {
    const refused = refusedOf(manager({ maxOrderQty: '10' }).check(place('BUY', 11, '0.50'), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_MAX_ORDER_QTY', 'qty 11 exceeds maxOrderQty 10']);
  });
});

describe('maxOrderNotional', () => {
  it('approves an order whose notional equals maxOrderNotional', () => {
    expect(approvedOf(manager({ maxOrderNotional: '50' }).check(place('BUY', 100, '0.50'), context()))).toHaveLength(1);
  });

  it('refuses an order whose notional exceeds maxOrderNotional', () => {
    const refused = refusedOf(manager({ maxOrderNotional: '50' }).check(place('SELL', 100, '0.51'), context()));
    expect(refused.code).toBe('RISK_MAX_ORDER_NOTIONAL');
    expect(refused.message).toBe('notional 51 (price 0.51 x qty 100) exceeds maxOrderNotional 50');
  });

  it('values a market order at the high price limit', () => {
    const refused = refusedOf(manager({ maxOrderNotional: '50' }).check(place('BUY', 60, undefined), context()));
    expect(refused.code).toBe('RISK_MAX_ORDER_NOTIONAL');
    expect(refused.message).toBe('notional 59.4 (market order valued at the high price limit 0.99 x qty 60) exceeds maxOrderNotional 50');
    expect(approvedOf(manager({ maxOrderNotional: '50' }).check(place('BUY', 50, undefined), context()))).toHaveLength(1);
  });
});

describe('instrument minimum quantity and lot', () => {
  const ctx = context({ instruments: [instrument({ minimumQty: d(5), qtyIncrement: d('0.5') })] });

  it('approves a quantity at the minimum that is a whole number of lots', () => {
    expect(approvedOf(manager().check(place('BUY', '5.5', '0.50'), ctx))).toHaveLength(1);
  });

  it('refuses a quantity below the instrument minimum', () => {
    const refused = refusedOf(manager().check(place('BUY', '4.5', '0.50'), ctx));
    expect([refused.code, refused.message]).toEqual(['RISK_MIN_QTY', `qty 4.5 is below the minimum quantity 5 of ${SYM}`]);
  });

  it('refuses a quantity that is not a multiple of the lot', () => {
    const refused = refusedOf(manager().check(place('BUY', '5.25', '0.50'), ctx));
    expect([refused.code, refused.message]).toEqual(['RISK_LOT_SIZE', `qty 5.25 is not a multiple of the lot 0.5 of ${SYM}`]);
  });
});

describe('instrument tick size', () => {
  it('approves a price on the tick', () => {
    expect(approvedOf(manager().check(place('BUY', 1, '0.37'), context()))).toHaveLength(1);
  });

  it('refuses a price off the tick', () => {
    const refused = refusedOf(manager().check(place('BUY', 1, '0.375'), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_TICK_SIZE', `price 0.375 is not a multiple of the tick size 0.01 of ${SYM}`]);
  });
});

describe('instrument price limits', () => {
  it('approves prices at both limits', () => {
    expect(approvedOf(manager().check(place('BUY', 1, '0.01'), context()))).toHaveLength(1);
    expect(approvedOf(manager().check(place('SELL', 1, '0.99'), context()))).toHaveLength(1);
  });

  it('refuses a price above the high limit', () => {
    const refused = refusedOf(manager().check(place('SELL', 1, '1.00'), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_PRICE_LIMITS', `price 1 is outside the price limits 0.01..0.99 of ${SYM}`]);
  });

  it('refuses a price below the low limit', () => {
    expect(refusedOf(manager().check(place('BUY', 1, '0'), context())).code).toBe('RISK_PRICE_LIMITS');
  });
});

describe('priceBand', () => {
  const mid = { [SYM]: d('0.50') };

  it('approves a price at the edge of an absolute band around the mid', () => {
    const risk = manager({ priceBand: { absolute: '0.05' } });
    expect(approvedOf(risk.check(place('BUY', 1, '0.55'), context({ mid })))).toHaveLength(1);
    expect(approvedOf(risk.check(place('SELL', 1, '0.45'), context({ mid })))).toHaveLength(1);
  });

  it('refuses a price outside an absolute band around the mid', () => {
    const refused = refusedOf(manager({ priceBand: { absolute: '0.05' } }).check(place('BUY', 1, '0.56'), context({ mid })));
    expect([refused.code, refused.message]).toEqual([
      'RISK_PRICE_BAND',
      'price 0.56 is outside the band 0.45..0.55 around mid 0.5 (±0.05)',
    ]);
  });

  it('refuses a price outside a band in ticks around the last trade', () => {
    const risk = manager({ priceBand: { reference: 'last', ticks: 3 } });
    const ctx = context({ mid, last: { [SYM]: d('0.40') } });
    expect(approvedOf(risk.check(place('BUY', 1, '0.43'), ctx))).toHaveLength(1);
    const refused = refusedOf(risk.check(place('BUY', 1, '0.44'), ctx));
    expect([refused.code, refused.message]).toEqual([
      'RISK_PRICE_BAND',
      'price 0.44 is outside the band 0.37..0.43 around last 0.4 (±3 ticks)',
    ]);
  });

  it('refuses a price outside a percent band', () => {
    const risk = manager({ priceBand: { percent: '10' } });
    expect(approvedOf(risk.check(place('SELL', 1, '0.45'), context({ mid })))).toHaveLength(1);
    const refused = refusedOf(risk.check(place('SELL', 1, '0.44'), context({ mid })));
    const message = 'price 0.44 is outside the band 0.45..0.55 around mid 0.5 (±10%)';
    expect([refused.code, refused.message]).toEqual(['RISK_PRICE_BAND', message]);
  });

  it('refuses when there is no reference price, unless configured to allow', () => {
    const refused = refusedOf(manager({ priceBand: { absolute: '0.05' } }).check(place('BUY', 1, '0.50'), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_NO_REFERENCE_PRICE', `no mid price for ${SYM} to check the price band against`]);
    const lenient = manager({ priceBand: { absolute: '0.05', whenNoReference: 'allow' } });
    expect(approvedOf(lenient.check(place('BUY', 1, '0.50'), context()))).toHaveLength(1);
  });

  it('refuses a market order while a band is configured', () => {
    const refused = refusedOf(manager({ priceBand: { absolute: '0.05' } }).check(place('BUY', 1, undefined), context({ mid })));
    expect([refused.code, refused.message]).toEqual([
      'RISK_PRICE_BAND',
      `a market order cannot be kept inside the price band; give ${SYM} a limit price`,
    ]);
  });
});

describe('unknown symbols and malformed intents', () => {
  it('refuses an order on a symbol without reference data', () => {
    const refused = refusedOf(manager().check(place('BUY', 1, '0.50', { symbol: 'NOPE' }), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_UNKNOWN_SYMBOL', 'no reference data for symbol NOPE']);
  });

  it('refuses a zero quantity', () => {
    const refused = refusedOf(manager().check(place('BUY', 0, '0.50'), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_INVALID_INTENT', 'quantity must be greater than 0, got 0']);
  });

  it("refuses an account that is not one of the bot's", () => {
    const refused = refusedOf(manager().check(place('BUY', 1, '0.50', { account: 'firms/x/accounts/y' }), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_INVALID_INTENT', "account firms/x/accounts/y is not one of the bot's accounts"]);
  });
});
