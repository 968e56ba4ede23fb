/**
 * The market maker: its pure quoting rule (`targetQuotes`: a spread around the mid, both quotes moved
 * against the inventory, a side dropped when it would pass maxInventory, prices clamped to the limits), and
 * the strategy through the whole pipeline against the simulator: post-only quotes of quoteQty at the target
 * prices, skewed down when the account starts long, only an offer when a bid would pass maxInventory.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.ts';
import type { RunningSim } from '../../src/sim/simulator.ts';
import marketMaker, { targetQuotes } from '../../strategies/market-maker.ts';
import { ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from '../engine/helpers/pipeline-sim.ts';

const params = (overrides: Record<string, unknown> = {}) =>
  marketMaker.params.parse({ symbols: [SYMBOL], halfSpread: '0.02', quoteQty: '5', maxInventory: '50', skewPerContract: '0.001', ...overrides });
const d = (value: string | number) => new Decimal(value);
const quotes = (q: { bid: Decimal | undefined; offer: Decimal | undefined }) => [q.bid?.toFixed(2), q.offer?.toFixed(2)];

describe('targetQuotes', () => {
  it('quotes halfSpread either side of the mid when flat, rounded outwards to the tick', () => {
    expect(quotes(targetQuotes(params(), d('0.42'), d(0)))).toEqual(['0.40', '0.44']);
    expect(quotes(targetQuotes(params({ halfSpread: '0.01' }), d('0.425'), d(0)))).toEqual(['0.41', '0.44']);
  });

  it('lowers both quotes when long and raises them when short, by skewPerContract per contract', () => {
    const p = params({ skewPerContract: '0.002' });
    expect(quotes(targetQuotes(p, d('0.50'), d(10)))).toEqual(['0.46', '0.50']);
    expect(quotes(targetQuotes(p, d('0.50'), d(-10)))).toEqual(['0.50', '0.54']);
    const flat = targetQuotes(p, d('0.50'), d(0));
    const long = targetQuotes(p, d('0.50'), d(3));
    expect(long.bid?.lt(flat.bid ?? d(0))).toBe(true);
    expect(long.offer?.lte(flat.offer ?? d(0))).toBe(true);
  });

  it('stops bidding when a filled bid would pass maxInventory, and stops offering at the short limit', () => {
    const p = params({ maxInventory: '50', quoteQty: '5' });
    expect(targetQuotes(p, d('0.5'), d(45)).bid).toBeDefined();
    expect(targetQuotes(p, d('0.5'), d(46)).bid).toBeUndefined();
    expect(targetQuotes(p, d('0.5'), d(46)).offer).toBeDefined();
    expect(targetQuotes(p, d('0.5'), d(-46)).offer).toBeUndefined();
    expect(targetQuotes(p, d('0.5'), d(-46)).bid).toBeDefined();
  });

  it('clamps quotes to minPrice and maxPrice', () => {
    expect(quotes(targetQuotes(params(), d('0.02'), d(0)))).toEqual(['0.01', '0.04']);
    expect(quotes(targetQuotes(params(), d('0.985'), d(0)))).toEqual(['0.96', '0.99']);
  });

  it('quotes nothing when the bid would not be below the offer', () => {
    expect(quotes(targetQuotes(params({ halfSpread: '0' }), d('0.50'), d(0)))).toEqual([undefined, undefined]);
    expect(quotes(targetQuotes(params({ halfSpread: '0.001' }), d('0.999'), d(0)))).toEqual([undefined, undefined]);
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
    const { bid, offer } = targetQuotes(p, mid, t.port.position(SYMBOL));
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
      beforeStart: (sim) => void sim.core.submit({ account: ALICE_MAIN, symbol: SYMBOL, side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', price: 99, orderQty: 6, timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }),
    });
    expect(t.exchangePosition(ALICE_MAIN, SYMBOL)).toBe(6);
    const { pipeline, port } = t;
    await t.waitUntil(() => pipeline.counters.reconciliations >= 1 && port.position(SYMBOL).eq(6), 'the position is reconciled');
    await t.driveUntil(atTarget(p), 'quotes at the skewed targets');
    const mid = pipeline.books.get(SYMBOL)?.mid ?? d(0);
    const skewed = targetQuotes(p, mid, d(6));
    const flat = targetQuotes(p, mid, d(0));
    expect(skewed.bid?.lt(flat.bid ?? d(0))).toBe(true);
    expect(skewed.offer?.lt(flat.offer ?? d(0))).toBe(true);
  });

  it('only offers while a filled bid would take the position past maxInventory', async () => {
    const p = params({ halfSpread: '0.02', maxInventory: '8', skewPerContract: '0' });
    t = await startPipelineSim({
      strategy: marketMaker,
      params: { symbols: [SYMBOL], halfSpread: '0.02', maxInventory: '8', skewPerContract: '0' },
      beforeStart: (sim) => void sim.core.submit({ account: ALICE_MAIN, symbol: SYMBOL, side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', price: 99, orderQty: 6, timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }),
    });
    const { pipeline, port, sim } = t;
    await t.waitUntil(() => pipeline.counters.reconciliations >= 1 && port.position(SYMBOL).eq(6), 'the position is reconciled');
    await t.driveUntil(() => atTarget(p)() && restingQuotes(sim).length === 1, 'an offer alone');
    expect(restingQuotes(sim).map(([side]) => side)).toEqual(['SIDE_SELL']);
  });
});
