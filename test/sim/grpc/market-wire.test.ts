/**
 * The market data fast path (built from the engine's raw integers) sends exactly the message the codecs
 * build from the Decimal book (marketSnapshot + grpcCodecs), for busy and empty books, every depth, traded
 * stats, settlement, instrument states and a fractional quantity scale.
 */
import { describe, expect, it } from 'vitest';
import { configSchema, parseConfigText } from '../../../src/config/index.ts';
import { grpcCodecs } from '../../../src/exchange/grpc/protocol/index.ts';
import { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { marketSnapshot } from '../../../src/sim/exchange/market-view.ts';
import { marketUpdateMessage } from '../../../src/sim/grpc/market-wire.ts';
import { burst } from '../../exchange/helpers/books.ts';
import { ALICE_MAIN, BOB_MAIN, ManualClock, SYMBOL, SYMBOL2, place, testConfig } from './helpers/harness.ts';

function viaCodecs(core: ExchangeCore, symbol: string, depth: number): Record<string, unknown> {
  const book = marketSnapshot(core, symbol, depth);
  if (book === undefined) throw new Error(`no book for ${symbol}`);
  return grpcCodecs.marketDataStream.encode({ kind: 'update', ...book }, (s) => core.instrument(s)?.scales);
}

function coreOf(yamlInstruments?: string): ExchangeCore {
  const config =
    yamlInstruments === undefined
      ? testConfig()
      : parseConfigText(`sim:\n  instruments:\n${yamlInstruments}\n  activity: { enabled: false }\n`, configSchema, { env: {} }).sim;
  if (config === undefined) throw new Error('no sim config');
  return new ExchangeCore({
    clock: new ManualClock(),
    instruments: config.instruments,
    startingBalance: config.startingBalance,
    currency: config.currency,
  });
}

describe('market data wire fast path', () => {
  it('equals the codec encoding of marketSnapshot for busy, empty and settled books at every depth', () => {
    const core = coreOf();
    for (const depth of [1, 3, 10]) expect(marketUpdateMessage(core, SYMBOL, depth)).toEqual(viaCodecs(core, SYMBOL, depth));
    burst(core, 400, 3);
    expect(core.trades().length).toBeGreaterThan(0);
    for (const symbol of [SYMBOL, SYMBOL2])
      for (const depth of [1, 3, 10, 50]) expect(marketUpdateMessage(core, symbol, depth)).toEqual(viaCodecs(core, symbol, depth));
    core.setInstrumentState(SYMBOL2, 'INSTRUMENT_STATE_HALTED');
    expect(marketUpdateMessage(core, SYMBOL2, 10)).toEqual(viaCodecs(core, SYMBOL2, 10));
    core.settle(SYMBOL, 1);
    expect(marketUpdateMessage(core, SYMBOL, 10)).toEqual(viaCodecs(core, SYMBOL, 10));
    expect(marketUpdateMessage(core, 'NOPE', 10)).toBeUndefined();
  });

  it('equals the codec encoding with a fractional quantity scale', () => {
    const core = coreOf(
      '    - { symbol: FRAC, priceScale: 1000, fractionalQtyScale: 100, tickSize: "0.005", priceLimits: { low: "0.005", high: "0.995" } }',
    );
    place(core, { symbol: 'FRAC', account: ALICE_MAIN, side: 'SIDE_SELL', price: 505, qty: 150 });
    place(core, { symbol: 'FRAC', account: BOB_MAIN, side: 'SIDE_BUY', price: 505, qty: 25 });
    place(core, { symbol: 'FRAC', account: BOB_MAIN, side: 'SIDE_BUY', price: 490, qty: 7 });
    const message = marketUpdateMessage(core, 'FRAC', 10);
    expect(message).toEqual(viaCodecs(core, 'FRAC', 10));
    expect(message?.['update']).toMatchObject({
      offers: [{ px: '505', qty: '125' }],
      stats: { notional_traded: String(505 * 25), shares_traded: '25' },
    });
  });
});
