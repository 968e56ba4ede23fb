/**
 * The demo market maker in a scripted market, the way a quant tests a plugin: quotes around the mid of the book
 * the test sets, the fill the test gives moves the position and skews the next quotes, a risk limit refuses the
 * quote that would breach it, and stop cancels what rests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import marketMaker from '../../strategies/market-maker.ts';
import { startScriptedMarket, type ScriptedMarket } from '../../src/testing/index.ts';

const PARAMS = { symbols: ['RAIN'], halfSpread: '0.02', quoteQty: '5', maxInventory: '10', skewPerContract: '0.01' };
const BOOK = { bids: [['0.40', 10]], offers: [['0.44', 10]] } as const;

let market: ScriptedMarket | undefined;
afterEach(async () => {
  await market?.stop();
  market = undefined;
});

describe('market-maker in a scripted market', () => {
  it('quotes a bid and an offer halfSpread around the mid, post-only, acknowledged by the venue', async () => {
    market = await startScriptedMarket({ strategy: marketMaker, params: PARAMS });
    await market.book('RAIN', BOOK);
    expect(market.takeIntents()).toEqual(['place #1 BUY 5 RAIN@0.40 GTC post quote', 'place #2 SELL 5 RAIN@0.44 GTC post quote']);
    const [bid] = market.intents;
    expect(bid).toMatchObject({ kind: 'place', order: '#1', side: 'BUY', symbol: 'RAIN', postOnly: true, label: 'quote' });
    expect(bid?.kind === 'place' && bid.price?.toFixed(2)).toBe('0.40');
    expect(market.openOrders('RAIN').map((o) => `${o.side} ${o.status}`)).toEqual(['BUY NEW', 'SELL NEW']);
    expect(market.venueOrders({ openOnly: true }).map((o) => o.orderId)).toEqual(['V1', 'V2']);
  });

  it('a fill of the bid makes it long: the position is the fill and the next quotes skew lower', async () => {
    market = await startScriptedMarket({ strategy: marketMaker, params: PARAMS });
    await market.book('RAIN', BOOK);
    market.takeIntents();
    await market.fill('#1');
    expect(market.fillLog()).toEqual(['fill #1 BUY 5 RAIN@0.40']);
    expect(market.position('RAIN').toFixed()).toBe('5');
    // mid 0.42 skewed by 5 x 0.01: a new bid at 0.35, the offer moved down to a tick above the best bid
    await market.book('RAIN', BOOK);
    expect(market.takeIntents()).toEqual(['place #3 BUY 5 RAIN@0.35 GTC post quote', 'replace #2 price 0.41']);
    expect(market.order('#2').price?.toFixed(2)).toBe('0.41');
    await market.fill('#2', { qty: 2 });
    expect(market.position('RAIN').toFixed()).toBe('3');
    expect(market.openOrders('RAIN').find((o) => o.side === 'SELL')).toMatchObject({ status: 'PARTIALLY_FILLED' });
  });

  it('risk refuses the quote that would take the position past maxPosition; nothing is sent for it', async () => {
    market = await startScriptedMarket({ strategy: marketMaker, params: PARAMS, risk: { maxPosition: '5' } });
    await market.book('RAIN', BOOK);
    await market.fill({ side: 'BUY' });
    const inserts = market.counters.sentByKind.insert;
    await market.book('RAIN', BOOK);
    expect(market.refusalLog()).toEqual(['RISK_MAX_POSITION place #3 BUY 5 RAIN@0.35 GTC post quote']);
    const [refusal] = market.refusals;
    expect(refusal).toMatchObject({ code: 'RISK_MAX_POSITION', symbol: 'RAIN', intent: { kind: 'place', order: '#3', side: 'BUY' } });
    expect(market.counters.sentByKind.insert).toBe(inserts);
    expect(market.venueOrders().map((o) => o.clordId)).not.toContain(market.recorder.clordIdOf('#3'));
  });

  it('stop cancels every resting quote (its onStop cancelAll)', async () => {
    market = await startScriptedMarket({ strategy: marketMaker, params: PARAMS });
    await market.book('RAIN', BOOK);
    await market.stop();
    expect(market.intentLog().at(-1)).toBe('cancelAll *');
    expect(market.venueOrders().map((o) => o.status)).toEqual(['canceled', 'canceled']);
    expect(market.openOrders()).toEqual([]);
  });

  it('an operator halt cancels the quotes and refuses new ones until trading is active again', async () => {
    market = await startScriptedMarket({ strategy: marketMaker, params: PARAMS });
    await market.book('RAIN', BOOK);
    await market.setTradingState('halted', 'test halt');
    expect(market.tradingState).toMatchObject({ state: 'halted', cause: 'operator', reason: 'test halt' });
    expect(market.venueOrders({ openOnly: true })).toEqual([]);
    await market.book('RAIN', BOOK);
    expect(market.refusals.map((r) => r.code)).toContain('RISK_TRADING_HALTED');
    await market.setTradingState('active');
    await market.book('RAIN', BOOK);
    expect(
      market
        .venueOrders({ openOnly: true })
        .map((o) => o.side)
        .sort(),
    ).toEqual(['BUY', 'SELL']);
  });
});
