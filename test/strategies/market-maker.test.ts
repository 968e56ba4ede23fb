/**
 * The market maker: its pure quoting rule (`targetQuotes`: a spread around the mid on the instrument's tick,
 * both quotes moved against the inventory, a side dropped when it would pass maxInventory, prices kept within
 * the instrument's limits and minPrice/maxPrice, and never at or through the other side of the book so a
 * post-only quote rests), `fillInFlight` (the book shows the quote taken before the order stream does), and the
 * strategy through the whole pipeline against the simulator: post-only quotes of quoteQty at the target
 * prices, skewed down when the account starts long, only an offer when a bid would pass maxInventory, and no
 * post-only rejection while it follows the market.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.ts';
import type { RunningSim } from '../../src/sim/simulator.ts';
import marketMaker, { fillInFlight, targetQuotes, type Touch } from '../../strategies/market-maker.ts';
import { ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from '../engine/helpers/pipeline-sim.ts';

const params = (overrides: Record<string, unknown> = {}) =>
  marketMaker.params.parse({
    symbols: [SYMBOL],
    halfSpread: '0.02',
    quoteQty: '5',
    maxInventory: '50',
    skewPerContract: '0.001',
    ...overrides,
  });
const d = (value: string | number) => new Decimal(value);
const quotes = (q: { bid: Decimal | undefined; offer: Decimal | undefined }) => [q.bid?.toFixed(2), q.offer?.toFixed(2)];
const CENTS = { tickSize: d('0.01'), lowPriceLimit: d('0.01'), highPriceLimit: d('0.99') };
/** A book with only a mid (no touch to respect). */
const mid = (m: string): Touch => ({ mid: d(m), bestBid: undefined, bestOffer: undefined });

describe('targetQuotes', () => {
  it('quotes halfSpread either side of the mid when flat, rounded outwards to the instrument tick', () => {
    expect(quotes(targetQuotes(params(), mid('0.42'), d(0), CENTS))).toEqual(['0.40', '0.44']);
    expect(quotes(targetQuotes(params({ halfSpread: '0.01' }), mid('0.425'), d(0), CENTS))).toEqual(['0.41', '0.44']);
    const nickels = { tickSize: d('0.05'), lowPriceLimit: d('0.05'), highPriceLimit: d('0.95') };
    expect(quotes(targetQuotes(params({ halfSpread: '0.01' }), mid('0.42'), d(0), nickels))).toEqual(['0.40', '0.45']);
  });

  it('lowers both quotes when long and raises them when short, by skewPerContract per contract', () => {
    const p = params({ skewPerContract: '0.002' });
    expect(quotes(targetQuotes(p, mid('0.50'), d(10), CENTS))).toEqual(['0.46', '0.50']);
    expect(quotes(targetQuotes(p, mid('0.50'), d(-10), CENTS))).toEqual(['0.50', '0.54']);
    const flat = targetQuotes(p, mid('0.50'), d(0), CENTS);
    const long = targetQuotes(p, mid('0.50'), d(3), CENTS);
    expect(long.bid?.lt(flat.bid ?? d(0))).toBe(true);
    expect(long.offer?.lte(flat.offer ?? d(0))).toBe(true);
  });

  it('stops bidding when a filled bid would pass maxInventory, and stops offering at the short limit', () => {
    const p = params({ maxInventory: '50', quoteQty: '5' });
    expect(targetQuotes(p, mid('0.5'), d(45), CENTS).bid).toBeDefined();
    expect(targetQuotes(p, mid('0.5'), d(46), CENTS).bid).toBeUndefined();
    expect(targetQuotes(p, mid('0.5'), d(46), CENTS).offer).toBeDefined();
    expect(targetQuotes(p, mid('0.5'), d(-46), CENTS).offer).toBeUndefined();
    expect(targetQuotes(p, mid('0.5'), d(-46), CENTS).bid).toBeDefined();
  });

  it('keeps quotes within the instrument price limits, and within minPrice / maxPrice when set', () => {
    expect(quotes(targetQuotes(params(), mid('0.02'), d(0), CENTS))).toEqual(['0.01', '0.04']);
    expect(quotes(targetQuotes(params(), mid('0.985'), d(0), CENTS))).toEqual(['0.96', '0.99']);
    // both clamped up to minPrice: no room for a bid below the offer, so no quote at all
    expect(quotes(targetQuotes(params({ minPrice: '0.05', maxPrice: '0.95' }), mid('0.02'), d(0), CENTS))).toEqual([undefined, undefined]);
    expect(quotes(targetQuotes(params({ minPrice: '0.05', maxPrice: '0.95' }), mid('0.10'), d(0), CENTS))).toEqual(['0.08', '0.12']);
    expect(quotes(targetQuotes(params({ maxPrice: '0.95' }), mid('0.95'), d(0), CENTS))).toEqual(['0.93', '0.95']);
  });

  it('quotes nothing when the bid would not be below the offer', () => {
    expect(quotes(targetQuotes(params({ halfSpread: '0' }), mid('0.50'), d(0), CENTS))).toEqual([undefined, undefined]);
    expect(quotes(targetQuotes(params({ halfSpread: '0.001' }), mid('0.999'), d(0), CENTS))).toEqual([undefined, undefined]);
  });

  it('never bids at or above the best offer nor offers at or below the best bid (post-only quotes rest)', () => {
    // skewed far down by a long inventory, the offer would sit under the best bid: it goes a tick above it
    const touch: Touch = { mid: d('0.50'), bestBid: d('0.49'), bestOffer: d('0.51') };
    expect(quotes(targetQuotes(params({ skewPerContract: '0.01' }), touch, d(5), CENTS))).toEqual(['0.43', '0.50']);
    expect(quotes(targetQuotes(params({ skewPerContract: '0.01' }), touch, d(-5), CENTS))).toEqual(['0.50', '0.57']);
    // a one-tick market at the low limit: no bid is possible below the offer
    const floor: Touch = { mid: d('0.015'), bestBid: undefined, bestOffer: d('0.01') };
    expect(targetQuotes(params(), floor, d(0), CENTS).bid).toBeUndefined();
  });

  it('property: on the tick, within the limits, bid below offer, and never crossing the touch', () => {
    const cents = (lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map((c) => d(c).div(100));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 98 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: -60, max: 60 }),
        cents(0, 10),
        cents(0, 5),
        fc.boolean(),
        fc.boolean(),
        (bidCents, widthCents, inventory, halfSpread, skew, hasBid, hasOffer) => {
          const bestBid = d(bidCents).div(100);
          const bestOffer = Decimal.min(d('0.99'), bestBid.plus(d(widthCents).div(100)));
          const touch: Touch = {
            mid: bestBid.plus(bestOffer).div(2),
            bestBid: hasBid ? bestBid : undefined,
            bestOffer: hasOffer ? bestOffer : undefined,
          };
          const p = params({ halfSpread: halfSpread.toString(), skewPerContract: skew.div(10).toString(), maxInventory: '100' });
          const { bid, offer } = targetQuotes(p, touch, d(inventory), CENTS);
          for (const q of [bid, offer]) {
            if (q === undefined) continue;
            expect(q.mod('0.01').isZero()).toBe(true);
            expect(q.gte('0.01') && q.lte('0.99')).toBe(true);
          }
          if (bid !== undefined && offer !== undefined) expect(bid.lt(offer)).toBe(true);
          if (bid !== undefined && touch.bestOffer !== undefined) expect(bid.lt(touch.bestOffer)).toBe(true);
          if (offer !== undefined && touch.bestBid !== undefined) expect(offer.gt(touch.bestBid)).toBe(true);
        },
      ),
    );
  });
});

describe('fillInFlight', () => {
  const level = (price: string, qty: number) => ({ price: d(price), qty: d(qty) });
  const book = { bids: [level('0.41', 5), level('0.40', 12)], offers: [level('0.44', 3), level('0.45', 8)] };
  const order = (side: 'BUY' | 'SELL', price: string, leaves: number) => ({ side, price: d(price), leavesQty: d(leaves) });

  it('is false while the book shows at least the order at its price', () => {
    expect(fillInFlight(book, order('BUY', '0.41', 5))).toBe(false);
    expect(fillInFlight(book, order('BUY', '0.40', 5))).toBe(false);
  });

  it('is true when the level shows less than the order, or nothing within the depth shown', () => {
    expect(fillInFlight(book, order('SELL', '0.44', 5))).toBe(true);
    expect(fillInFlight(book, order('BUY', '0.42', 5))).toBe(true);
    expect(fillInFlight({ bids: [], offers: [] }, order('BUY', '0.42', 5))).toBe(true);
  });

  it('is false for an order deeper than the book shows (it cannot tell)', () => {
    expect(fillInFlight(book, order('BUY', '0.30', 5))).toBe(false);
    expect(fillInFlight(book, order('SELL', '0.60', 5))).toBe(false);
  });
});

/** Alice's resting quotes on the exchange as [side, price, qty] in decimal terms. */
function restingQuotes(sim: RunningSim): [string, string, number][] {
  return sim.core
    .openOrders({ account: ALICE_MAIN })
    .map((o): [string, string, number] => [o.order.side, ((o.order.price ?? 0) / 100).toFixed(2), o.order.orderQty])
    .sort();
}

describe('market-maker against the simulator', () => {
  let t: PipelineSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** True when alice's resting quotes are exactly what targetQuotes wants for the engine's book and position now. */
  const atTarget = (p: ReturnType<typeof params>) => () => {
    if (t === undefined || t.venue.inFlight > 0) return false;
    const mid = t.pipeline.books.get(SYMBOL)?.mid;
    if (mid === undefined) return false;
    const book = t.pipeline.books.get(SYMBOL);
    if (book === undefined) return false;
    const { bid, offer } = targetQuotes(p, { mid, bestBid: book.bestBid, bestOffer: book.bestOffer }, t.port.position(SYMBOL), CENTS);
    const wanted: [string, string, number][] = [];
    if (bid !== undefined) wanted.push(['SIDE_BUY', bid.toFixed(2), 5]);
    if (offer !== undefined) wanted.push(['SIDE_SELL', offer.toFixed(2), 5]);
    return JSON.stringify(restingQuotes(t.sim)) === JSON.stringify(wanted.sort());
  };

  it('rests post-only quotes of quoteQty at the target prices and follows the mid with replaces', async () => {
    const p = params({ halfSpread: '0.01', skewPerContract: '0' });
    t = await startPipelineSim({ strategy: marketMaker, params: { symbols: [SYMBOL], halfSpread: '0.01', skewPerContract: '0' } });
    await t.waitUntil(atTarget(p), 'quotes at the target prices');
    expect(t.sim.core.openOrders({ account: ALICE_MAIN }).every((o) => o.order.participateDontInitiate)).toBe(true);
    const pipeline = t.pipeline;
    await t.driveUntil(() => pipeline.counters.sentByKind.replace >= 2 && atTarget(p)(), 'quotes moved with the mid by replace');
    expect(pipeline.counters.strategyErrors).toBe(0);
  });

  it('starting long, quotes both sides lower than when flat (inventory skew)', async () => {
    const p = params({ halfSpread: '0.02', skewPerContract: '0.005' });
    t = await startPipelineSim({
      strategy: marketMaker,
      params: { symbols: [SYMBOL], halfSpread: '0.02', skewPerContract: '0.005' },
      beforeStart: (sim) =>
        void sim.core.submit({
          account: ALICE_MAIN,
          symbol: SYMBOL,
          side: 'SIDE_BUY',
          type: 'ORDER_TYPE_LIMIT',
          price: 99,
          orderQty: 6,
          timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
        }),
    });
    expect(t.exchangePosition(ALICE_MAIN, SYMBOL)).toBe(6);
    const { pipeline, port } = t;
    await t.waitUntil(() => pipeline.counters.reconciliations >= 1 && port.position(SYMBOL).eq(6), 'the position is reconciled');
    await t.driveUntil(atTarget(p), 'quotes at the skewed targets');
    const touch: Touch = { mid: pipeline.books.get(SYMBOL)?.mid ?? d(0), bestBid: undefined, bestOffer: undefined };
    const skewed = targetQuotes(p, touch, d(6), CENTS);
    const flat = targetQuotes(p, touch, d(0), CENTS);
    expect(skewed.bid?.lt(flat.bid ?? d(0))).toBe(true);
    expect(skewed.offer?.lt(flat.offer ?? d(0))).toBe(true);
  });

  it('only offers while a filled bid would take the position past maxInventory', async () => {
    const p = params({ halfSpread: '0.02', maxInventory: '8', skewPerContract: '0' });
    t = await startPipelineSim({
      strategy: marketMaker,
      params: { symbols: [SYMBOL], halfSpread: '0.02', maxInventory: '8', skewPerContract: '0' },
      beforeStart: (sim) =>
        void sim.core.submit({
          account: ALICE_MAIN,
          symbol: SYMBOL,
          side: 'SIDE_BUY',
          type: 'ORDER_TYPE_LIMIT',
          price: 99,
          orderQty: 6,
          timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
        }),
    });
    const { pipeline, port, sim } = t;
    await t.waitUntil(() => pipeline.counters.reconciliations >= 1 && port.position(SYMBOL).eq(6), 'the position is reconciled');
    await t.driveUntil(() => atTarget(p)() && restingQuotes(sim).length === 1, 'an offer alone');
    expect(restingQuotes(sim).map(([side]) => side)).toEqual(['SIDE_SELL']);
  });

  it('skewed through the book by its inventory, still rests post-only quotes a tick inside the touch (no exchange rejection)', async () => {
    // An empty market except another firm's bid 0.50 and offer 0.52 (mid 0.51). Alice starts long 3, so with a
    // 0.01 skew per contract the maker centres under 0.49: its offer would take the 0.50 bid. It offers at 0.51
    // instead (a tick above the best bid) and bids under 0.50; nothing is rejected for taking liquidity.
    const OTHER = 'firms/other/accounts/maker';
    t = await startPipelineSim({
      strategy: marketMaker,
      params: { symbols: [SYMBOL], halfSpread: '0.01', skewPerContract: '0.01', quoteQty: '5' },
      activity: false,
      beforeStart: (sim) => {
        sim.core.submit({
          account: OTHER,
          symbol: SYMBOL,
          side: 'SIDE_SELL',
          type: 'ORDER_TYPE_LIMIT',
          price: 52,
          orderQty: 13,
          timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
        });
        sim.core.submit({
          account: ALICE_MAIN,
          symbol: SYMBOL,
          side: 'SIDE_BUY',
          type: 'ORDER_TYPE_LIMIT',
          price: 52,
          orderQty: 3,
          timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
        });
        sim.core.submit({
          account: OTHER,
          symbol: SYMBOL,
          side: 'SIDE_BUY',
          type: 'ORDER_TYPE_LIMIT',
          price: 50,
          orderQty: 10,
          timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
        });
      },
    });
    const { pipeline, port, sim } = t;
    const rejected: string[] = [];
    pipeline.tracker.updates$.subscribe((u) => {
      if (u.order.state === 'REJECTED') rejected.push(u.order.clordId);
      if (u.cause.kind === 'requestFailed') rejected.push(`${u.cause.request} ${String(u.cause.error)}`);
    });
    await t.waitUntil(() => pipeline.counters.reconciliations >= 1 && port.position(SYMBOL).eq(3), 'the long position is reconciled');
    // the maker may have quoted the first book before it knew the position: a book change makes it requote
    sim.core.submit({
      account: OTHER,
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      price: 40,
      orderQty: 1,
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    const quoted = () => {
      const q = restingQuotes(sim);
      return q.length === 2 && q[0]?.[0] === 'SIDE_BUY' && Number(q[0][1]) < 0.5 && q[1]?.[0] === 'SIDE_SELL' && q[1][1] === '0.51';
    };
    await t.waitUntil(
      () => quoted() && t?.venue.inFlight === 0,
      'a bid under 0.50 and the offer a tick above the best bid (its target 0.49 would take the 0.50 bid)',
    );
    expect(rejected).toEqual([]);
    expect(t.sim.core.openOrders({ account: ALICE_MAIN }).every((o) => o.order.participateDontInitiate)).toBe(true);
  });
});
