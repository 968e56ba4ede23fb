/**
 * The momentum taker: its pure signal (`momentumSignal` over the window's oldest and newest mid), and the
 * strategy through the whole pipeline against the simulator on a book moved by hand (no synthetic
 * activity): a rise of `threshold` over `lookback` mids buys `qty` at the offer with an IOC order, a fall
 * sells at the bid, nothing ever rests on the exchange, and it stops adding once maxPosition is reached.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.ts';
import type { Fill } from '../../src/engine/orders/index.ts';
import momentumTaker, { momentumSignal } from '../../strategies/momentum-taker.ts';
import { ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from '../engine/helpers/pipeline-sim.ts';

const mids = (...values: string[]) => values.map((v) => new Decimal(v));
const threshold = new Decimal('0.02');

describe('momentumSignal', () => {
  it('buys (+1) when the newest mid is at least threshold above the oldest', () => {
    expect(momentumSignal(mids('0.40', '0.45', '0.42'), threshold)).toBe(1);
    expect(momentumSignal(mids('0.40', '0.43'), threshold)).toBe(1);
  });

  it('sells (-1) when it is at least threshold below', () => {
    expect(momentumSignal(mids('0.50', '0.49', '0.48'), threshold)).toBe(-1);
  });

  it('does nothing (0) inside the threshold, whatever happens in between', () => {
    expect(momentumSignal(mids('0.40', '0.60', '0.41'), threshold)).toBe(0);
    expect(momentumSignal(mids('0.40', '0.39', '0.385'), threshold)).toBe(0);
  });

  it('does nothing on an empty or one-mid window', () => {
    expect(momentumSignal([], threshold)).toBe(0);
    expect(momentumSignal(mids('0.40'), threshold)).toBe(0);
  });
});

const MOVER = 'firms/other/accounts/mover';

describe('momentum-taker against the simulator', () => {
  let t: PipelineSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** Another firm's resting order (raw price, cents), then waits until the engine saw the book as the exchange has it and settled. */
  async function rest(side: 'SIDE_BUY' | 'SIDE_SELL', price: number, orderQty = 10): Promise<void> {
    const sim = t?.sim;
    if (t === undefined || sim === undefined) throw new Error('no sim');
    sim.core.submit({
      account: MOVER,
      symbol: SYMBOL,
      side,
      type: 'ORDER_TYPE_LIMIT',
      price,
      orderQty,
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    const { pipeline, venue } = t;
    const same = (engine: { price: Decimal; qty: Decimal } | undefined, core: { price: number; qty: number } | undefined) =>
      engine === undefined ? core === undefined : core !== undefined && engine.price.times(100).eq(core.price) && engine.qty.eq(core.qty);
    await t.waitUntil(() => {
      const book = pipeline.books.get(SYMBOL);
      const bbo = sim.core.engine.bbo(SYMBOL);
      return (
        book !== undefined &&
        same(book.bids[0], bbo.bid) &&
        same(book.offers[0], bbo.offer) &&
        venue.inFlight === 0 &&
        pipeline.tracker.open().length === 0
      );
    }, `the engine caught up after a ${side} at ${price}`);
  }

  it('buys on a rise and sells on a fall with IOC orders, never resting, up to maxPosition', async () => {
    t = await startPipelineSim({
      strategy: momentumTaker,
      params: { symbols: [SYMBOL], lookback: 3, threshold: '0.02', qty: '2', maxPosition: '4', cooldownMs: 0 },
      activity: false,
    });
    const { pipeline, port, sim } = t;
    const fills: Fill[] = [];
    pipeline.tracker.fills$.subscribe((fill) => fills.push(fill));
    let rested = 0;
    pipeline.tracker.updates$.subscribe(() => (rested = Math.max(rested, sim.core.openOrders({ account: ALICE_MAIN }).length)));

    await rest('SIDE_BUY', 30);
    await rest('SIDE_SELL', 50); // mid 0.40
    await rest('SIDE_BUY', 32); // 0.41
    await rest('SIDE_BUY', 34); // 0.42: +0.02 over the window -> buy 2 at the offer
    expect(fills.map((f) => [f.side, f.qty.toString(), f.price.toFixed(2)])).toEqual([['BUY', '2', '0.50']]);
    await rest('SIDE_BUY', 36); // 0.43
    await rest('SIDE_BUY', 38); // 0.44: buy 2 more, position 4
    await rest('SIDE_BUY', 40); // 0.45
    await rest('SIDE_BUY', 42); // 0.46: a signal, but 4 + 2 would pass maxPosition
    expect(fills.map((f) => f.side)).toEqual(['BUY', 'BUY']);
    expect(port.position(SYMBOL, ALICE_MAIN).toString()).toBe('4');
    expect(t.exchangePosition(ALICE_MAIN, SYMBOL)).toBe(4);

    await rest('SIDE_SELL', 48); // mid 0.45
    await rest('SIDE_SELL', 46); // 0.44
    await rest('SIDE_SELL', 44); // 0.43: -0.02 -> sell 2 at the bid
    expect(fills.map((f) => [f.side, f.price.toFixed(2)]).at(-1)).toEqual(['SELL', '0.42']);
    expect(t.exchangePosition(ALICE_MAIN, SYMBOL)).toBe(2);
    expect(pipeline.counters.orders).toBe(3);
    expect(rested).toBe(0);
    expect(sim.core.openOrders({ account: ALICE_MAIN })).toEqual([]);
  });
});
