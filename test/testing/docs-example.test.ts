// The complete example of docs/testing.md, with the package imports as paths inside this repository: keep the two in step.
import { afterEach, describe, expect, it } from 'vitest';
import { defineStrategy, z } from '../../src/strategy.ts';
import { startScriptedMarket, type ScriptedMarket } from '../../src/testing/index.ts';

// The plugin under test (in your repository: import it from its module).
const bidder = defineStrategy({
  name: 'bidder',
  params: z.object({ symbol: z.string(), qty: z.string().default('2'), maxPosition: z.string().default('4') }),
  onBook(ctx, book) {
    if (book.bestBid === undefined || ctx.openOrders(book.symbol).length > 0) return;
    if (ctx.position(book.symbol).plus(ctx.params.qty).gt(ctx.params.maxPosition)) return;
    ctx.place({ symbol: book.symbol, side: 'BUY', qty: ctx.params.qty, price: book.bestBid, postOnly: true, label: 'join' });
  },
  onStart: (ctx) => ctx.every('refresh', 5_000),
  onTimer(ctx) {
    for (const order of ctx.openOrders()) ctx.cancel(order.clordId);
  },
});

let market: ScriptedMarket | undefined;
afterEach(async () => {
  await market?.stop();
  market = undefined;
});

describe('bidder', () => {
  it('joins the best bid, is filled, and stops at maxPosition', async () => {
    market = await startScriptedMarket({ strategy: bidder, params: { symbol: 'RAIN' }, risk: { maxOrderQty: '10' } });
    await market.book('RAIN', { bids: [['0.40', 10]], offers: [['0.45', 10]] });
    expect(market.takeIntents()).toEqual(['place #1 BUY 2 RAIN@0.40 GTC post join']);

    await market.fill('#1'); // all of it, at its price
    expect(market.fillLog()).toEqual(['fill #1 BUY 2 RAIN@0.40']);
    expect(market.position('RAIN').toFixed()).toBe('2');

    await market.book('RAIN', { bids: [['0.41', 10]], offers: [['0.45', 10]] });
    await market.fill('#2', { qty: 2, price: '0.41' });
    expect(market.position('RAIN').toFixed()).toBe('4');
    await market.book('RAIN', { bids: [['0.42', 10]], offers: [['0.45', 10]] });
    expect(market.takeIntents()).toEqual(['place #2 BUY 2 RAIN@0.41 GTC post join']); // nothing past maxPosition
  });

  it('cancels its resting bid every 5 s of virtual time', async () => {
    market = await startScriptedMarket({ strategy: bidder, params: { symbol: 'RAIN' } });
    await market.book('RAIN', { bids: [['0.40', 10]] });
    await market.advance(4_999);
    expect(market.openOrders()).toHaveLength(1);
    await market.advance(1);
    expect(market.takeIntents()).toEqual(['place #1 BUY 2 RAIN@0.40 GTC post join', 'cancel #1']);
    expect(market.openOrders()).toEqual([]);
  });

  it('risk refuses an order over maxOrderQty; the refusal names the intent', async () => {
    market = await startScriptedMarket({
      strategy: bidder,
      params: { symbol: 'RAIN', qty: '5', maxPosition: '10' },
      risk: { maxOrderQty: '3' },
    });
    await market.book('RAIN', { bids: [['0.40', 10]] });
    expect(market.refusalLog()).toEqual(['RISK_MAX_ORDER_QTY place #1 BUY 5 RAIN@0.40 GTC post join']);
    expect(market.refusals[0]).toMatchObject({ code: 'RISK_MAX_ORDER_QTY', symbol: 'RAIN' });
    expect(market.venueOrders()).toEqual([]);
  });
});
