/**
 * The sim bot (the embedded exchange in-process on 127.0.0.1): the market maker places quotes and gets fills from
 * the synthetic market, recorded as in the scripted market; a plugin's own symbols(params) choose what it trades.
 */
import { afterEach, describe, expect, it } from 'vitest';
import marketMaker from '../../strategies/market-maker.ts';
import { defineStrategy, z } from '../../src/strategy.ts';
import { SIM_ACCOUNT, SIM_OTHER_SYMBOL, SIM_SYMBOL, startSimBot, type SimBot } from '../../src/testing/index.ts';

let bot: SimBot | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
});

describe('sim bot', () => {
  it("the market maker quotes, gets filled by the synthetic market, and the recorded fills are the exchange's", async () => {
    bot = await startSimBot({
      strategy: marketMaker,
      params: { symbols: [SIM_SYMBOL], halfSpread: '0.01', quoteQty: '2', skewPerContract: '0' },
    });
    const { pipeline } = bot;
    expect(new URL(bot.sim.ready.gateway).hostname).toBe('127.0.0.1');
    await bot.driveUntil(() => pipeline.counters.fills >= 2, 'two fills');
    expect(bot.intentLog().slice(0, 2)).toEqual([
      expect.stringMatching(/^place #1 BUY 2 RAIN-NYC-2026-12-01@0\.\d\d GTC post quote$/),
      expect.stringMatching(/^place #2 SELL 2 RAIN-NYC-2026-12-01@0\.\d\d GTC post quote$/),
    ]);
    expect(bot.fills).toHaveLength(pipeline.counters.fills);
    const signed = bot.fills.reduce((sum, f) => (f.side === 'BUY' ? sum + f.qty.toNumber() : sum - f.qty.toNumber()), 0);
    expect(bot.position(SIM_SYMBOL).toNumber()).toBe(signed);
    await bot.waitUntil(() => bot?.exchangePosition(SIM_ACCOUNT, SIM_SYMBOL) === signed, 'the exchange agrees with the fills');
    await bot.stop();
    expect(bot.sim.core.openOrders({ account: SIM_ACCOUNT })).toEqual([]);
  });

  it("trades the symbols a plugin's symbols(params) names, as tradebot run does", async () => {
    const oneContract = defineStrategy({
      name: 'one-contract',
      params: z.object({ contract: z.string() }),
      symbols: (p) => [p.contract],
      state: () => ({ placed: false }),
      onBook(ctx, book) {
        if (ctx.state.placed || book.bestBid === undefined) return;
        ctx.place({ symbol: book.symbol, side: 'BUY', qty: 1, price: book.bestBid.minus('0.05') });
        ctx.state.placed = true;
      },
    });
    bot = await startSimBot({ strategy: oneContract, params: { contract: SIM_OTHER_SYMBOL } });
    expect(bot.symbols).toEqual([SIM_OTHER_SYMBOL]);
    await bot.driveUntil(() => bot?.sim.core.openOrders({ account: SIM_ACCOUNT }).length === 1, 'its bid rests on the exchange');
    expect(bot.sim.core.openOrders({ account: SIM_ACCOUNT }).map((o) => o.order.symbol)).toEqual([SIM_OTHER_SYMBOL]);
    expect(bot.intents[0]).toMatchObject({ kind: 'place', symbol: SIM_OTHER_SYMBOL, order: '#1' });
  });
});
