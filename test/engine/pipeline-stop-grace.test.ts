/**
 * The stop grace against the embedded exchange (wall clock, real gateway): an immediate-or-cancel order sent
 * in `onStop` completes before the run ends, its fill reaches `onOrderUpdate` (with the order's view, its
 * account and intent id) after `onStop` returned, and the stop's cancel-all sends no cancel for it (before,
 * the engine cancelled it at once and the exchange answered TOO_LATE_TO_CANCEL for an IOC that had filled).
 * Every wait is on engine events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Decimal } from '../../src/domain/decimal.ts';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import type { OrderUpdateView } from '../../src/engine/strategy/views.ts';
import { ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from './helpers/pipeline-sim.ts';

let t: PipelineSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('intents sent in onStop', () => {
  it('an IOC taking the best offer in onStop fills before the run ends; no cancel is sent for it', async () => {
    const log: string[] = [];
    const updates: OrderUpdateView[] = [];
    const strategy = defineStrategy({
      name: 'parting-taker',
      params: z.object({ symbols: z.array(z.string()) }),
      onStop(ctx) {
        const offer = ctx.book(SYMBOL)?.bestOffer;
        if (offer === undefined) throw new Error('no offer to take');
        // a few ticks through the offer: on a loaded machine the book can move before the order arrives
        const price = Decimal.min(offer.plus('0.05'), '0.99');
        log.push(`placed ${ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '1', price, timeInForce: 'IMMEDIATE_OR_CANCEL' })}`);
        log.push('onStop returns');
      },
      onOrderUpdate(_ctx, update) {
        updates.push(update);
        if (update.type === 'fill') log.push(`fill ${update.fill.clordId}`);
      },
    });
    // a long grace: the stop ends as soon as the IOC's outcome arrives, however loaded the machine is
    t = await startPipelineSim({ strategy, params: { symbols: [SYMBOL] }, activityMs: 50, stopGraceMs: 30_000 });
    const sim = t;
    await sim.waitUntil(() => sim.pipeline.books.get(SYMBOL)?.bestOffer !== undefined, 'an offer on the book');
    await sim.stop();
    const clordId = log[0]?.replace('placed ', '') ?? '';
    expect(log).toEqual([`placed ${clordId}`, 'onStop returns', `fill ${clordId}`]);
    const fill = updates.find((u) => u.type === 'fill');
    expect(
      fill?.type === 'fill'
        ? { account: fill.fill.account, order: fill.order?.clordId, orderAccount: fill.order?.account, adopted: fill.order?.adopted }
        : undefined,
    ).toEqual({
      account: ALICE_MAIN,
      order: clordId,
      orderAccount: ALICE_MAIN,
      adopted: false,
    });
    expect(fill?.type === 'fill' ? fill.order?.intentId : undefined).toMatch(/^i-/);
    expect(sim.venue.calls.filter((c) => c.kind === 'cancel')).toEqual([]);
    expect(sim.pipeline.tracker.get(clordId)?.state).toBe('FILLED');
    expect(sim.pipeline.counters.strategyErrors).toBe(0);
  });
});
