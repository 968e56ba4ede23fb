/**
 * The simulator's instrument registry and market view: config instruments become raw engine definitions
 * (refusing values off the scale) and domain reference data; `marketSnapshot` aggregates the book up to a
 * depth with Decimal prices, state and session stats.
 */
import { describe, expect, it } from 'vitest';
import { isTradebotError } from '../../../src/errors.ts';
import { Decimal } from '../../../src/domain/decimal.ts';
import { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { buildInstrument, toDomainInstrument } from '../../../src/sim/exchange/instruments.ts';
import { marketSnapshot } from '../../../src/sim/exchange/market-view.ts';
import type { OrderRequest, Side } from '../../../src/sim/matching/types.ts';
import type { SimConfig, SimInstrumentConfig } from '../../../src/sim/config.ts';
import { ManualClock, SYMBOL, simConfig } from '../gateway/helpers/harness.ts';

const EXTRA = `
    - symbol: TENTHS
      priceScale: 1000
      fractionalQtyScale: 10
      tickSize: "0.005"
      lotSize: "0.5"
      priceLimits: { low: "0.010", high: "0.990" }
      expiration: "2026-12-31T21:00:00Z"
      state: PREOPEN
`;

function nth(config: SimConfig, index: number): SimInstrumentConfig {
  const instrument = config.instruments[index];
  if (instrument === undefined) throw new Error(`no instrument ${index} in the test config`);
  return instrument;
}

function order(account: string, side: Side, qty: number, price: number, symbol = SYMBOL): OrderRequest {
  return { account, symbol, side, type: 'ORDER_TYPE_LIMIT', orderQty: qty, price, timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL' };
}

describe('instruments', () => {
  it('builds raw engine definitions from decimal config', () => {
    const config = simConfig({ extraInstruments: EXTRA });
    const tenths = buildInstrument(nth(config, 2), 2);
    expect(tenths.definition).toEqual({
      symbol: 'TENTHS',
      tickSize: 5,
      lotSize: 5,
      priceLimitLow: 10,
      priceLimitHigh: 990,
      priceScale: 1000,
      state: 'INSTRUMENT_STATE_PREOPEN',
    });
    expect(tenths.scales).toMatchObject({ priceScale: 1000, qtyScale: 10 });
    expect(tenths.fairValueRaw).toBe(500);
    const rain = buildInstrument(nth(config, 0), 0);
    expect(rain.definition).toMatchObject({
      tickSize: 1,
      lotSize: 1,
      priceLimitLow: 1,
      priceLimitHigh: 99,
      state: 'INSTRUMENT_STATE_OPEN',
    });
    expect(rain.eventGroup).toBe(SYMBOL);
  });

  it('refuses a tick size that is not a whole number of scaled units, naming the config path', () => {
    // the config schema reports it first (test/sim/config-checks.test.ts) ...
    expect(() => simConfig({ extraInstruments: EXTRA.replace('tickSize: "0.005"', 'tickSize: "0.0005"') })).toThrow(
      /sim\.instruments\[2\]\.tickSize: 0\.0005 is finer than priceScale 1000/,
    );
    // ... and the registry still refuses a config that bypassed it
    const config = simConfig({ extraInstruments: EXTRA });
    const bad = { ...nth(config, 2), tickSize: new Decimal('0.0005') };
    let caught: unknown;
    try {
      buildInstrument(bad, 2);
    } catch (error) {
      caught = error;
    }
    expect(isTradebotError(caught) && caught.code).toBe('SIM_INSTRUMENT_INVALID');
    expect(String((caught as Error).message)).toContain('sim.instruments[2].tickSize');
  });

  it('gives domain reference data with decimal limits and the expiration', () => {
    const config = simConfig({ extraInstruments: EXTRA });
    const instrument = toDomainInstrument(buildInstrument(nth(config, 2), 2), 'INSTRUMENT_STATE_PREOPEN', 'USD');
    expect(instrument).toMatchObject({
      symbol: 'TENTHS',
      priceScale: 1000,
      fractionalQtyScale: 10,
      currency: 'USD',
      state: 'INSTRUMENT_STATE_PREOPEN',
      expirationTime: Date.parse('2026-12-31T21:00:00Z'),
    });
    expect(instrument.tickSize.toFixed()).toBe('0.005');
    expect(instrument.minimumTradeQty.toFixed()).toBe('0.5');
    expect(instrument.lowPriceLimit.toFixed()).toBe('0.01');
  });
});

describe('marketSnapshot', () => {
  it('aggregates levels up to the depth with decimal prices, and reports stats after a trade', () => {
    const clock = new ManualClock();
    const config = simConfig();
    const core = new ExchangeCore({
      clock,
      instruments: config.instruments,
      startingBalance: config.startingBalance,
      currency: config.currency,
    });
    const a = 'firms/demo/accounts/a';
    const b = 'firms/demo/accounts/b';
    core.submit(order(a, 'SIDE_BUY', 2, 40));
    core.submit(order(a, 'SIDE_BUY', 3, 40));
    core.submit(order(a, 'SIDE_BUY', 1, 39));
    core.submit(order(a, 'SIDE_BUY', 1, 38));
    core.submit(order(b, 'SIDE_SELL', 4, 45));
    core.submit(order(b, 'SIDE_SELL', 1, 44));
    const book = marketSnapshot(core, SYMBOL, 2);
    expect(book?.bids.map((l) => [l.px.toFixed(), l.qty.toFixed()])).toEqual([
      ['0.4', '5'],
      ['0.39', '1'],
    ]);
    expect(book?.offers.map((l) => [l.px.toFixed(), l.qty.toFixed()])).toEqual([
      ['0.44', '1'],
      ['0.45', '4'],
    ]);
    expect(book?.state).toBe('INSTRUMENT_STATE_OPEN');
    expect(book?.transactTime).toBe(clock.t);
    core.submit(order(b, 'SIDE_SELL', 5, 40));
    const after = marketSnapshot(core, SYMBOL, 10);
    expect(after?.bids.map((l) => l.px.toFixed())).toEqual(['0.39', '0.38']);
    expect(after?.stats?.lastTradePx.toFixed()).toBe('0.4');
    expect(after?.stats?.sharesTraded.toFixed()).toBe('5');
    expect(after?.stats?.notionalTraded.toFixed()).toBe('2');
    expect(marketSnapshot(core, 'NOPE', 3)).toBeUndefined();
    core.events$.complete();
  });
});
