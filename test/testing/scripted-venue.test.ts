/**
 * What the scripted market offers besides books and fills: timers on virtual time, a plugin whose symbols come
 * from its own symbols(params), the venue's answers (hold, reject, invalid prices) and its errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineStrategy, z } from '../../src/strategy.ts';
import { SCRIPTED_START, startScriptedMarket, type ScriptedMarket } from '../../src/testing/index.ts';

let market: ScriptedMarket | undefined;
afterEach(async () => {
  await market?.stop();
  market = undefined;
});

/** Every `everyMs` it bids `qty` a tick under the best bid of its one market, `<market>-YES`. */
const pinger = defineStrategy({
  name: 'pinger',
  params: z.object({ market: z.string(), everyMs: z.number().int().positive().default(1000), qty: z.string().default('1') }),
  symbols: (p) => [`${p.market}-YES`],
  state: () => ({ updates: [] as string[] }),
  onStart: (ctx) => ctx.every('bid', ctx.params.everyMs),
  onTimer(ctx) {
    const symbol = ctx.symbols[0] ?? '';
    const best = ctx.book(symbol)?.bestBid;
    if (best !== undefined) ctx.place({ symbol, side: 'BUY', qty: ctx.params.qty, price: best.minus('0.01') });
  },
  onOrderUpdate(ctx, update) {
    if (update.type === 'order') ctx.state.updates.push(update.order.status);
  },
});

describe('scripted market: time, symbols and the venue', () => {
  it("trades the symbols of the plugin's own symbols(params), and only those", async () => {
    market = await startScriptedMarket({ strategy: pinger, params: { market: 'ELECTION' } });
    expect(market.symbols).toEqual(['ELECTION-YES']);
    await expect(market.book('OTHER', { bids: [['0.50', 1]] })).rejects.toMatchObject({ code: 'TESTING_UNKNOWN_SYMBOL' });
  });

  it('fires the strategy timer on virtual time only: nothing before its period, one intent at each period', async () => {
    market = await startScriptedMarket({ strategy: pinger, params: { market: 'ELECTION' } });
    await market.book('ELECTION-YES', { bids: [['0.50', 10]], offers: [['0.55', 10]] });
    await market.advance(999);
    expect(market.intents).toEqual([]);
    await market.advance(1);
    expect(market.takeIntents()).toEqual(['place #1 BUY 1 ELECTION-YES@0.49 GTC']);
    expect(market.intents[0]?.time).toBe(SCRIPTED_START + 1000);
    await market.advanceTo(SCRIPTED_START + 3500);
    expect(market.intents.map((i) => i.time - SCRIPTED_START)).toEqual([1000, 2000, 3000]);
    expect(market.elapsed()).toBe(3500);
  });

  it('holds an insert until the test answers: the order is pending meanwhile; a rejection reaches the strategy', async () => {
    market = await startScriptedMarket({ strategy: pinger, params: { market: 'E' }, policy: { insert: 'hold' } });
    await market.book('E-YES', { bids: [['0.50', 10]] });
    await market.advance(1000);
    expect(market.openOrders().map((o) => o.status)).toEqual(['PENDING_NEW']);
    expect(market.held().map((c) => `${c.kind} ${c.order.clordId === market?.recorder.clordIdOf('#1')}`)).toEqual(['insert true']);
    await market.answer('#1', { reject: 'no liquidity today' });
    expect(market.order('#1').status).toBe('rejected');
    expect(market.openOrders()).toEqual([]);
    market.setPolicy({ insert: 'accept' });
    await market.advance(1000);
    expect(market.openOrders().map((o) => o.status)).toEqual(['NEW']);
  });

  it("an order off the instrument's tick is refused by risk (RISK_TICK_SIZE): nothing reaches the venue", async () => {
    market = await startScriptedMarket({
      strategy: pinger,
      params: { market: 'E' },
      instruments: [{ symbol: 'E-YES', tickSize: '0.05', lowPriceLimit: '0.05', highPriceLimit: '0.95' }],
    });
    await market.book('E-YES', { bids: [['0.50', 10]] });
    await market.advance(1000);
    expect(market.refusalLog()).toEqual(['RISK_TICK_SIZE place #1 BUY 1 E-YES@0.49 GTC']);
    expect(market.venueOrders()).toEqual([]);
  });

  it('a venue policy decides per order: this one rejects bids under 0.45 and acknowledges the rest', async () => {
    market = await startScriptedMarket({
      strategy: pinger,
      params: { market: 'E' },
      policy: { insert: (o) => (o.price !== undefined && o.price.lt('0.45') ? { reject: 'too low' } : 'match') },
    });
    await market.book('E-YES', { bids: [['0.44', 10]] });
    await market.advance(1000);
    await market.book('E-YES', { bids: [['0.50', 10]] });
    await market.advance(1000);
    expect(market.venueOrders().map((o) => `${o.price?.toFixed(2)} ${o.status}`)).toEqual(['0.43 rejected', '0.49 open']);
    expect(market.openOrders().map((o) => o.price?.toFixed(2))).toEqual(['0.49']);
  });

  it('a fill that does not fit the order, or an order no one placed, is a TESTING_ error', async () => {
    market = await startScriptedMarket({ strategy: pinger, params: { market: 'E' } });
    await market.book('E-YES', { bids: [['0.50', 10]] });
    await market.advance(1000);
    await expect(market.fill('#1', { qty: 2 })).rejects.toMatchObject({ code: 'TESTING_INVALID_FILL' });
    await expect(market.fill('#9')).rejects.toMatchObject({ code: 'TESTING_NO_ORDER' });
    await market.advance(1000);
    await expect(market.fill({ side: 'BUY' })).rejects.toMatchObject({ code: 'TESTING_AMBIGUOUS_ORDER' });
    await expect(market.advance(-1)).rejects.toMatchObject({ code: 'TESTING_TIME_BACKWARDS' });
  });

  it("a position held before the start is the engine's from its first reconciliation", async () => {
    market = await startScriptedMarket({
      strategy: pinger,
      params: { market: 'E' },
      positions: [{ symbol: 'E-YES', qty: '-3', price: '0.40' }],
    });
    expect(market.position('E-YES').toFixed()).toBe('-3');
  });

  it("params the plugin's schema refuses are an error listing the problem, before anything starts", async () => {
    await expect(startScriptedMarket({ strategy: pinger, params: { market: 7 } })).rejects.toThrow(/market/);
  });
});
