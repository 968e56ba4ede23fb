/**
 * Reference data of one event contract for engine tests that run the pipeline without the simulator (cents,
 * whole contracts, price limits 0.01..0.99).
 */
import { Decimal } from '../../../src/domain/decimal.ts';
import type { Instrument } from '../../../src/domain/index.ts';

export function testInstrument(symbol: string, overrides: Partial<Instrument> = {}): Instrument {
  return {
    symbol,
    description: 'test contract',
    state: 'INSTRUMENT_STATE_OPEN',
    priceScale: 100,
    fractionalQtyScale: 1,
    tickSize: new Decimal('0.01'),
    lowPriceLimit: new Decimal('0.01'),
    highPriceLimit: new Decimal('0.99'),
    minimumTradeQty: new Decimal(1),
    currency: 'USD',
    eventId: 'TEST-EVENT',
    eventDescription: '',
    tradingStartTime: undefined,
    expirationTime: undefined,
    lastTradeDate: undefined,
    settlementTime: undefined,
    ...overrides,
  };
}
