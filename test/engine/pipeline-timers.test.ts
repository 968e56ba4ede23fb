/**
 * Strategy timers inside the pipeline, on a VirtualClock with a scripted venue: an intent emitted in onTimer
 * goes through risk and reaches the venue at the timer's own engine time (each firing is an engine step;
 * before, it waited for the next market or order event), registering a timer name again replaces the timer
 * instead of adding a second one, and cancelTimer stops it. Live (wall clock, the simulator, no market
 * activity at all) an onTimer place is sent without any other event.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VirtualClock } from '../../src/engine/clock.ts';
import type { RunningPipeline } from '../../src/engine/pipeline/index.ts';
import { defineStrategy, type AnyStrategy } from '../../src/engine/strategy/define-strategy.ts';
import type { VenueOrderRequest } from '../../src/engine/venue.ts';
import { FakeVenue, startOnVenue } from './helpers/fake-venue.ts';
import { testInstrument } from './helpers/instrument.ts';
import { ALICE_MAIN, SYMBOL as SIM_SYMBOL, startPipelineSim } from './helpers/pipeline-sim.ts';

const T0 = Date.UTC(2026, 0, 15, 14, 0, 0);
const SYMBOL = 'EVT-A';
const ACCOUNT = 'firms/f/accounts/main';

/** A venue that notes the engine time of every insert call. */
class TimedVenue extends FakeVenue {
  readonly insertTimes: number[] = [];
  constructor(private readonly clock: VirtualClock) {
    super([testInstrument(SYMBOL)]);
  }
  override insertOrders(requests: readonly VenueOrderRequest[]) {
    this.insertTimes.push(this.clock.now() - T0);
    return super.insertOrders(requests);
  }
}

/** Stops the pipeline, answering every venue call (inserts with order ids) until the stop completes. */
async function stopAnswering(pipeline: RunningPipeline, venue: FakeVenue): Promise<void> {
  let stopped = false;
  const done = pipeline.stop().then(() => (stopped = true));
  let answered = 0;
  while (!stopped) {
    for (; answered < venue.calls.length; answered++) {
      const call = venue.calls[answered];
      call?.resolve(call.kind === 'insert' ? call.requests.map((_, i) => `O${answered}-${i}`) : undefined);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await done;
}

async function start(strategy: AnyStrategy, risk = {}): Promise<{ clock: VirtualClock; venue: TimedVenue; pipeline: RunningPipeline }> {
  const clock = new VirtualClock(T0);
  const venue = new TimedVenue(clock);
  const pipeline = await startOnVenue({ venue, clock, strategy, account: ACCOUNT, symbol: SYMBOL, risk });
  return { clock, venue, pipeline };
}

describe('strategy timers in the pipeline (VirtualClock)', () => {
  it('a place emitted in onTimer goes through risk and reaches the venue at the timer time', async () => {
    const fired: number[] = [];
    const strategy = defineStrategy({
      name: 'timer-placer',
      params: z.object({}),
      onStart: (ctx) => ctx.every('quote', 1000),
      onTimer(ctx) {
        fired.push(ctx.now() - T0);
        ctx.place({ symbol: SYMBOL, side: 'BUY', qty: fired.length === 1 ? '1' : '500', price: '0.30' });
      },
    });
    const { clock, venue, pipeline } = await start(strategy, { maxOrderQty: '100' });
    clock.advanceTo(T0 + 999);
    expect(venue.insertTimes).toEqual([]);
    clock.advanceTo(T0 + 1000);
    expect(fired).toEqual([1000]);
    expect(venue.insertTimes).toEqual([1000]);
    expect(venue.callsOf<VenueOrderRequest>('insert')[0]?.requests[0]).toMatchObject({ symbol: SYMBOL, side: 'BUY', account: ACCOUNT });
    expect(pipeline.tracker.open().map((o) => o.state)).toEqual(['PENDING_NEW']);
    // the second firing's order breaches maxOrderQty: risk refuses it, nothing is sent
    clock.advanceTo(T0 + 2000);
    expect(fired).toEqual([1000, 2000]);
    expect(venue.insertTimes).toEqual([1000]);
    expect(pipeline.counters.refusals['RISK_MAX_ORDER_QTY']).toBe(1);
    await stopAnswering(pipeline, venue);
  });

  it('every() with a name already in use replaces that timer; cancelTimer stops it', async () => {
    const fired: string[] = [];
    const strategy = defineStrategy({
      name: 'timer-juggler',
      params: z.object({}),
      onStart(ctx) {
        ctx.every('a', 1000);
        ctx.every('a', 1000); // the same timer again: still one firing per period
        ctx.every('b', 300);
        ctx.every('b', 500); // replaced with a new period
        ctx.every('c', 700);
      },
      onTimer(ctx, name) {
        fired.push(`${name}@${ctx.now() - T0}`);
        if (name === 'c') ctx.cancelTimer('c');
        if (name === 'a' && ctx.now() - T0 === 2000) ctx.cancelTimer('a');
      },
    });
    const { clock, pipeline } = await start(strategy);
    clock.advanceTo(T0 + 3000);
    expect(fired.filter((f) => f.startsWith('a'))).toEqual(['a@1000', 'a@2000']);
    expect(fired.filter((f) => f.startsWith('b'))).toEqual(['b@500', 'b@1000', 'b@1500', 'b@2000', 'b@2500', 'b@3000']);
    expect(fired.filter((f) => f.startsWith('c'))).toEqual(['c@700']);
    await pipeline.stop();
    clock.advanceTo(T0 + 10_000);
    expect(fired).toHaveLength(9);
  });

  it("live, against the simulator with no market activity, an onTimer place is sent within the timer's own step", async () => {
    let placed: string | undefined;
    let sentWithTheTimer: boolean | undefined;
    let inserts = () => 0;
    const strategy = defineStrategy({
      name: 'live-timer-placer',
      params: z.object({ symbols: z.array(z.string()) }),
      onStart: (ctx) => ctx.every('quote', 50),
      onTimer(ctx) {
        if (placed !== undefined) return;
        placed = ctx.place({ symbol: SIM_SYMBOL, side: 'BUY', qty: '1', price: '0.30' });
        // runs right after the timer's synchronous work: by then the step must have sent the order
        queueMicrotask(() => (sentWithTheTimer = inserts() === 1));
      },
    });
    const t = await startPipelineSim({ strategy, params: { symbols: [SIM_SYMBOL] }, activity: false });
    inserts = () => t.venue.calls.filter((c) => c.kind === 'insert').length;
    try {
      await t.waitUntil(
        () => placed !== undefined && t.pipeline.tracker.get(placed)?.state === 'NEW',
        "the timer's order works on the exchange",
      );
      expect(sentWithTheTimer).toBe(true);
      expect(t.sim.core.openOrders({ account: ALICE_MAIN }).map((o) => o.order.clordId)).toEqual([placed]);
    } finally {
      await t.close();
    }
  });
});
