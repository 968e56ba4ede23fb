/**
 * The engine clocks: liveClock reads the wall clock through the async scheduler; VirtualClock starts at its
 * origin, stands still until `advanceTo`, runs every action due up to the target in time order with `now()`
 * at each action's due time, leaves later actions queued, ends at the target, and never moves backwards.
 */
import { describe, expect, it } from 'vitest';
import { asyncScheduler } from 'rxjs';
import { VirtualClock, liveClock } from '../../src/engine/clock.ts';

const T0 = Date.UTC(2026, 0, 15, 14, 0, 0);

describe('liveClock', () => {
  it('reads the wall clock and schedules on the async scheduler', () => {
    const clock = liveClock();
    const before = Date.now();
    const now = clock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(clock.scheduler).toBe(asyncScheduler);
  });
});

describe('VirtualClock', () => {
  it('starts at its origin and stands still until advanced', () => {
    const clock = new VirtualClock(T0);
    expect(clock.now()).toBe(T0);
    expect(clock.scheduler.now()).toBe(T0);
    expect(clock.now()).toBe(T0);
  });

  it('runs due actions in time order with now() at their due time, and leaves later ones queued', () => {
    const clock = new VirtualClock(T0);
    const runs: string[] = [];
    clock.scheduler.schedule(() => runs.push(`c@${clock.now() - T0}`), 300);
    clock.scheduler.schedule(() => runs.push(`a@${clock.now() - T0}`), 100);
    clock.scheduler.schedule(() => runs.push(`b@${clock.now() - T0}`), 100);
    clock.scheduler.schedule(() => runs.push(`d@${clock.now() - T0}`), 1000);
    clock.advanceTo(T0 + 300);
    expect(runs).toEqual(['a@100', 'b@100', 'c@300']);
    expect(clock.now()).toBe(T0 + 300);
    clock.advanceTo(T0 + 999);
    expect(runs).toHaveLength(3);
    clock.advanceTo(T0 + 1000);
    expect(runs).toEqual(['a@100', 'b@100', 'c@300', 'd@1000']);
  });

  it('ends at the target even when nothing was due', () => {
    const clock = new VirtualClock(T0);
    clock.advanceTo(T0 + 12_345);
    expect(clock.now()).toBe(T0 + 12_345);
  });

  it('measures delays from the current virtual time, also for actions scheduled after advancing', () => {
    const clock = new VirtualClock(T0);
    clock.advanceTo(T0 + 5000);
    let at: number | undefined;
    clock.scheduler.schedule(() => void (at = clock.now()), 250);
    clock.advanceTo(T0 + 5249);
    expect(at).toBeUndefined();
    clock.advanceTo(T0 + 5250);
    expect(at).toBe(T0 + 5250);
  });

  it('runs a rescheduling (periodic) action once per period up to the target', () => {
    const clock = new VirtualClock(T0);
    const times: number[] = [];
    clock.scheduler.schedule(function (this: { schedule(state?: unknown, delay?: number): void }) {
      times.push(clock.now() - T0);
      this.schedule(undefined, 40);
    }, 40);
    clock.advanceTo(T0 + 200);
    expect(times).toEqual([40, 80, 120, 160, 200]);
  });

  it('never moves backwards: advancing to an earlier time changes nothing', () => {
    const clock = new VirtualClock(T0);
    clock.advanceTo(T0 + 1000);
    let ran = false;
    clock.scheduler.schedule(() => void (ran = true), 10);
    clock.advanceTo(T0 + 500);
    expect(clock.now()).toBe(T0 + 1000);
    expect(ran).toBe(false);
  });

  it('does not run an action that was unsubscribed before it was due', () => {
    const clock = new VirtualClock(T0);
    let ran = false;
    const subscription = clock.scheduler.schedule(() => void (ran = true), 10);
    subscription.unsubscribe();
    clock.advanceTo(T0 + 100);
    expect(ran).toBe(false);
  });

  it('runs actions scheduled with no delay on the next advance to the current time', () => {
    const clock = new VirtualClock(T0);
    let ran = false;
    clock.scheduler.schedule(() => void (ran = true));
    expect(ran).toBe(false);
    clock.advanceTo(T0);
    expect(ran).toBe(true);
  });

  it('tells when its earliest action is due (+Infinity when none), not counting unsubscribed ones', () => {
    const clock = new VirtualClock(T0);
    expect(clock.nextActionTime()).toBe(Number.POSITIVE_INFINITY);
    const late = clock.scheduler.schedule(() => undefined, 300);
    clock.scheduler.schedule(() => undefined, 100);
    expect(clock.nextActionTime()).toBe(T0 + 100);
    clock.advanceTo(T0 + 100);
    expect(clock.nextActionTime()).toBe(T0 + 300);
    late.unsubscribe();
    expect(clock.nextActionTime()).toBe(Number.POSITIVE_INFINITY);
  });
});
