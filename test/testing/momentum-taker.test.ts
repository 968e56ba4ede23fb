/**
 * The momentum taker in a scripted market: rising mids make it buy IOC at the offer, the venue fills what the
 * book offers at that price and cancels the rest, and its cooldown runs on virtual time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import momentumTaker from '../../strategies/momentum-taker.ts';
import { startScriptedMarket, type ScriptedMarket } from '../../src/testing/index.ts';

const PARAMS = { symbols: ['FED'], lookback: 3, threshold: '0.02', qty: '2', maxPosition: '4', cooldownMs: 1000 };

let market: ScriptedMarket | undefined;
afterEach(async () => {
  await market?.stop();
  market = undefined;
});

/** A book around `cents` (its mid, in cents): a bid a cent under it, `offerQty` a cent over it and 10 more above. */
const price = (cents: number): string => (cents / 100).toFixed(2);
const around = (cents: number, offerQty = 10) => ({
  bids: [[price(cents - 1), 10] as const],
  offers: [[price(cents + 1), offerQty] as const, [price(cents + 2), 10] as const],
});

describe('momentum-taker in a scripted market', () => {
  it('buys IOC at the offer once the mid rose by threshold; the venue fills what is there and cancels the rest', async () => {
    market = await startScriptedMarket({ strategy: momentumTaker, params: PARAMS });
    await market.book('FED', around(50));
    await market.book('FED', around(51));
    expect(market.intents).toEqual([]);
    await market.book('FED', around(52, 1));
    expect(market.takeIntents()).toEqual(['place #1 BUY 2 FED@0.53 IOC momentum']);
    expect(market.fillLog()).toEqual(['fill #1 BUY 1 FED@0.53']);
    expect(market.order('#1')).toMatchObject({ status: 'canceled', timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' });
    expect(market.position('FED').toFixed()).toBe('1');
    expect(market.openOrders()).toEqual([]);
  });

  it('waits cooldownMs of virtual time before trading again, and never goes past maxPosition', async () => {
    market = await startScriptedMarket({ strategy: momentumTaker, params: PARAMS });
    for (const mid of [50, 51, 52]) await market.book('FED', around(mid));
    expect(market.position('FED').toFixed()).toBe('2');
    await market.book('FED', around(53));
    await market.advance(999);
    await market.book('FED', around(54));
    expect(market.intents).toHaveLength(1);
    await market.advance(1);
    await market.book('FED', around(55));
    expect(market.takeIntents()).toEqual(['place #1 BUY 2 FED@0.53 IOC momentum', 'place #2 BUY 2 FED@0.56 IOC momentum']);
    expect(market.intents[1]?.time).toBe(market.now());
    expect(market.position('FED').toFixed()).toBe('4');
    await market.advance(5000);
    await market.book('FED', around(56));
    expect(market.takeIntents()).toEqual([]);
  });
});
