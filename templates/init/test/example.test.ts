// Tests of strategies/example.ts on a scripted market (tradebot/testing): the real engine (risk, execution,
// order tracking, portfolio) on a virtual clock, with the books, trades and fills this test scripts.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedMarket, type ScriptedMarket } from 'tradebot/testing';
import example from '../strategies/example.ts';

const SYMBOL = 'RAIN-NYC-2026-12-01';
let market: ScriptedMarket | undefined;

afterEach(async () => {
  await market?.stop();
  market = undefined;
});

async function start(params: Record<string, unknown> = {}, risk: Record<string, unknown> = {}) {
  market = await startScriptedMarket({
    strategy: example,
    params: { symbols: [SYMBOL], qty: '2', ...params },
    instruments: [SYMBOL],
    risk,
  });
  return market;
}

describe('example', () => {
  it('quotes halfSpread either side of the mid', async () => {
    const m = await start({ halfSpread: '0.02' });
    await m.book(SYMBOL, { bids: [['0.40', '10']], offers: [['0.44', '10']] });
    const quotes = m.openOrders(SYMBOL).map((o) => `${o.side} ${o.qty.toString()} @ ${o.price?.toFixed(2)}`);
    expect(quotes.sort()).toEqual(['BUY 2 @ 0.40', 'SELL 2 @ 0.44']);
  });

  it('moves its quotes when the mid moves, and holds a position after a fill', async () => {
    const m = await start({ halfSpread: '0.02' });
    await m.book(SYMBOL, { bids: [['0.40', '10']], offers: [['0.44', '10']] });
    const bid = m.openOrders(SYMBOL).find((o) => o.side === 'BUY');
    expect(bid).toBeDefined();
    await m.fill(bid!.clordId);
    expect(m.position(SYMBOL).toString()).toBe('2');
    // the market falls (the book the test sets is the others' orders: the bot's own offer at 0.44 is added)
    await m.book(SYMBOL, { bids: [['0.35', '10']], offers: [['0.39', '10']] });
    const prices = m.openOrders(SYMBOL).map((o) => `${o.side} @ ${o.price?.toFixed(2)}`);
    expect(prices.sort()).toEqual(['BUY @ 0.35', 'SELL @ 0.39']);
  });

  it('stops bidding at maxPosition', async () => {
    const m = await start({ maxPosition: '2' });
    await m.book(SYMBOL, { bids: [['0.40', '10']], offers: [['0.44', '10']] });
    await m.fill(m.openOrders(SYMBOL).find((o) => o.side === 'BUY')!.clordId);
    await m.book(SYMBOL, { bids: [['0.41', '10']], offers: [['0.45', '10']] });
    expect(m.openOrders(SYMBOL).map((o) => o.side)).toEqual(['SELL']);
  });

  it('is refused by risk beyond maxOrderQty, and says so', async () => {
    const m = await start({ qty: '5' }, { maxOrderQty: '3' });
    await m.book(SYMBOL, { bids: [['0.40', '10']], offers: [['0.44', '10']] });
    expect(m.refusals.map((r) => r.code)).toContain('RISK_MAX_ORDER_QTY');
    expect(m.openOrders(SYMBOL)).toEqual([]);
  });
});
