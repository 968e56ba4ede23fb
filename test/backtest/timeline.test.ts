/**
 * settleContinuations (backtest/replay/timeline.ts): resolves only once every promise continuation queued
 * before it has run, however deep the chain (continuations queueing continuations, async functions awaiting
 * each other, nextTicks they schedule first), and still lets the event loop turn (setImmediate's check phase,
 * where timers and I/O get their chance) at least once every DRAINS_PER_LOOP_TURN drains. And Timeline: its
 * scheduled work runs in time order, and `idleUntil` (asked on every trade, from the earliest work time it
 * keeps between runs) says idle exactly while neither work nor a venue request is due.
 */
import { describe, expect, it } from 'vitest';
import { RequestQueue } from '../../backtest/replay/request-queue.ts';
import type { SimulatedVenue } from '../../backtest/replay/simulated-venue.ts';
import { DRAINS_PER_LOOP_TURN, Timeline, settleContinuations, type DueWork } from '../../backtest/replay/timeline.ts';
import { VirtualClock } from '../../src/engine/clock.ts';

/** A chain of `depth` continuations, each queued by the one before; resolves to the depth reached. */
function chain(depth: number, reached: { depth: number }): Promise<number> {
  let p: Promise<number> = Promise.resolve(0);
  for (let i = 1; i <= depth; i++) p = p.then(() => (reached.depth = i));
  return p;
}

async function nested(levels: number, reached: { depth: number }): Promise<void> {
  if (levels === 0) return;
  await Promise.resolve();
  reached.depth++;
  await nested(levels - 1, reached);
}

describe('settleContinuations', () => {
  it('resolves after every continuation queued before it, at any depth', async () => {
    for (const depth of [1, 2, 10, 500]) {
      const thens = { depth: 0 };
      const awaits = { depth: 0 };
      void chain(depth, thens);
      void nested(depth, awaits);
      await settleContinuations();
      expect(thens.depth).toBe(depth);
      expect(awaits.depth).toBe(depth);
    }
  });

  it('also runs nextTicks scheduled before it and the continuations they queue', async () => {
    const order: string[] = [];
    process.nextTick(() => {
      order.push('tick');
      void Promise.resolve().then(() => order.push('after tick'));
    });
    await settleContinuations();
    expect(order).toEqual(['tick', 'after tick']);
  });

  it('lets the event loop turn at least once every DRAINS_PER_LOOP_TURN drains', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    for (let i = 0; i < DRAINS_PER_LOOP_TURN && !turned; i++) await settleContinuations();
    expect(turned).toBe(true);
  });
});

/** The part of the venue a Timeline uses: its request queue (empty here), processDue and the continuation flag. */
function venueWithoutRequests(): SimulatedVenue {
  const requests = new RequestQueue();
  const venue: Pick<SimulatedVenue, 'requests' | 'processDue' | 'pendingContinuations'> = {
    requests,
    processDue: () => undefined,
    pendingContinuations: false,
  };
  return venue as SimulatedVenue;
}

describe('Timeline', () => {
  it('runs its work in time order and is idle exactly until the next work time', async () => {
    const ran: string[] = [];
    const clock = new VirtualClock(0);
    let nextSample = 0;
    const sampler: DueWork = { nextTime: () => nextSample, runNext: () => void (ran.push(`sample@${clock.now()}`), (nextSample += 100)) };
    let settled = false;
    const settlement: DueWork = {
      nextTime: () => (settled ? Number.POSITIVE_INFINITY : 250),
      runNext: () => void (ran.push(`settle@${clock.now()}`), (settled = true)),
    };
    const timeline = new Timeline(clock, venueWithoutRequests(), [sampler, settlement]);

    expect(timeline.idleUntil(0)).toBe(false);
    await timeline.advance(50);
    expect(ran).toEqual(['sample@0']);
    expect(timeline.idleUntil(99)).toBe(true);
    expect(timeline.idleUntil(100)).toBe(false);
    await timeline.advance(300);
    expect(ran).toEqual(['sample@0', 'sample@100', 'sample@200', 'settle@250', 'sample@300']);
    expect(clock.now()).toBe(300);
    expect(timeline.idleUntil(399)).toBe(true);
    expect(timeline.idleUntil(400)).toBe(false);
  });

  it('runs a clock action whose time an epoch-ms origin cannot hold exactly (a fractional timer period), and moves on', () => {
    const origin = Date.parse('2024-05-01T00:00:00Z'); // origin + 1000/3 rounds below the action's own time
    const clock = new VirtualClock(origin);
    let fired = 0;
    clock.scheduler.schedule(() => void (fired += 1), 1000 / 3);
    const timeline = new Timeline(clock, venueWithoutRequests(), []);
    let loops = 0;
    while (timeline.runNextDue(origin + 1000)) if (++loops > 10) break;
    expect(fired).toBe(1);
    expect(loops).toBe(1);
  });
});
