/**
 * The cross demo through the whole pipeline against the simulator: on its engine-time timer it crosses `qty`
 * at the mid (rounded to the tick) from alice-hedge to alice-main, both alice's accounts in firm demo, at most
 * `maxCrosses` times; each cross moves both accounts' positions on the exchange by qty and never rests. A
 * config with the same account on both sides fails in onStart: the error is isolated and trading halts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Fill } from '../../src/engine/orders/index.ts';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import crossDemo from '../../strategies/cross-demo.ts';
import { ALICE_HEDGE, ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from '../engine/helpers/pipeline-sim.ts';

describe('cross-demo against the simulator', () => {
  let t: PipelineSim | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('crosses qty between alice-hedge and alice-main at the mid, maxCrosses times, moving both positions on the exchange', async () => {
    let timers = 0;
    const counted = defineStrategy({
      ...crossDemo,
      onTimer(ctx, name) {
        timers += 1;
        crossDemo.onTimer?.(ctx, name);
      },
    });
    t = await startPipelineSim({
      strategy: counted,
      params: { symbol: SYMBOL, buyAccount: ALICE_MAIN, sellAccount: ALICE_HEDGE, qty: '3', everyMs: 40, maxCrosses: 2 },
    });
    const { pipeline, port, sim, venue } = t;
    const fills: Fill[] = [];
    pipeline.tracker.fills$.subscribe((fill) => fills.push(fill));
    await t.waitUntil(() => pipeline.counters.sentByKind.cross === 2 && fills.length === 4, 'two crosses, both legs filled');

    expect(t.exchangePosition(ALICE_MAIN, SYMBOL)).toBe(6);
    expect(t.exchangePosition(ALICE_HEDGE, SYMBOL)).toBe(-6);
    expect(port.position(SYMBOL, ALICE_MAIN).toString()).toBe('6');
    expect(port.position(SYMBOL, ALICE_HEDGE).toString()).toBe('-6');
    expect(port.position(SYMBOL).toString()).toBe('0');
    for (const fill of fills) expect(fill.qty.toString()).toBe('3');
    expect(fills.filter((f) => f.side === 'BUY').every((f) => f.account === ALICE_MAIN)).toBe(true);
    expect(fills.filter((f) => f.side === 'SELL').every((f) => f.account === ALICE_HEDGE)).toBe(true);
    // each cross trades at one price on both legs, on the tick
    expect(fills.every((f) => f.price.times(100).isInteger())).toBe(true);
    expect(sim.core.openOrders({ account: ALICE_MAIN })).toEqual([]);
    expect(sim.core.openOrders({ account: ALICE_HEDGE })).toEqual([]);

    // no third cross however often the timer fires afterwards
    const timersAfter = timers;
    await t.driveUntil(() => timers >= timersAfter + 3, 'three more timer periods');
    expect(venue.calls.filter((c) => c.kind === 'cross')).toHaveLength(2);
    expect(pipeline.counters.orders).toBe(4);
  });

  it('a config with the same account on both sides fails in onStart: the error is isolated and trading halts', async () => {
    t = await startPipelineSim({
      strategy: crossDemo,
      params: { symbol: SYMBOL, buyAccount: ALICE_MAIN, sellAccount: ALICE_MAIN, qty: '3', everyMs: 40 },
    });
    const { pipeline } = t;
    expect(pipeline.counters.strategyErrors).toBe(1);
    expect(pipeline.risk.tradingState.state).toBe('halted');
    expect(pipeline.risk.tradingState.reason).toMatch(/buyAccount and sellAccount must differ/);
    await t.driveUntil(() => pipeline.counters.bookUpdates > 5, 'the engine keeps handling market data');
    expect(pipeline.counters.orders).toBe(0);
  });
});
