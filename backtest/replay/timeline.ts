/**
 * Moves virtual time forward for the replay: before each market event at time T, everything due by T
 * happens in time order: venue requests reaching the exchange, contract settlements and equity samples,
 * and the actions scheduled on the clock (strategy timers), each at its own time, so an order a timer sends
 * reaches the exchange after its latency, before a later trade (at one time: requests, then scheduled work,
 * then timers); then the clock moves to T. After anything that settled a promise the
 * pipeline's continuations run to completion (settleContinuations: until the microtask queue is empty)
 * before time moves on, so acknowledgements and follow-up requests happen at the virtual time they belong
 * to and the run is deterministic.
 */
import type { VirtualClock } from '../../src/engine/clock.ts';
import type { SimulatedVenue } from './simulated-venue.ts';

export interface DueWork {
  /** Time of the next scheduled item (settlement, sample), or +Infinity. Changes only when runNext() runs. */
  nextTime(): number;
  /** Runs the item due at nextTime(). */
  runNext(): void;
}

/** One drain in this many is a full event-loop turn (see settleContinuations). */
export const DRAINS_PER_LOOP_TURN = 256;
let drains = 0;

/**
 * Resolves once every queued promise continuation has run, however deep the chain. Mostly without leaving
 * the microtask checkpoint: a microtask queued now schedules a nextTick, and Node runs nextTicks only once
 * the microtask queue is empty (continuations queued by continuations included), so the tick resolves after
 * all of them (~1-3 us of event-loop turn saved per drain: ~12,700 drains per million trades of the demo
 * market maker). One drain in DRAINS_PER_LOOP_TURN is a whole event-loop turn (setImmediate's check phase)
 * instead, so timers, signals, progress output and worker messages are still served during a replay that
 * never waits for its tape. Both give the same virtual-time order: the replay is deterministic either way.
 */
export function settleContinuations(): Promise<void> {
  if (++drains % DRAINS_PER_LOOP_TURN === 0) return new Promise<void>((resolve) => setImmediate(resolve));
  return new Promise<void>((resolve) => queueMicrotask(() => process.nextTick(resolve)));
}

export class Timeline {
  /** The earliest nextTime() of the work, kept from one runNext() to the next (idleUntil runs on every trade). */
  private workDue: number;

  constructor(
    private readonly clock: VirtualClock,
    private readonly venue: SimulatedVenue,
    private readonly work: readonly DueWork[],
  ) {
    this.workDue = this.earliestWork();
  }

  /** True when nothing is due by `time` (the common case: no await needed). */
  idleUntil(time: number): boolean {
    return this.venue.requests.peekTime() > time && this.workDue > time && this.clock.nextActionTime() > time;
  }

  /** The fast path when idleUntil(time): only the clock moves. */
  advanceClock(time: number): void {
    this.clock.advanceTo(time);
  }

  /** Runs what is due by `time` in order, then sets the clock to `time`. */
  async advance(time: number): Promise<void> {
    while (this.runNextDue(time)) await this.drain();
    this.clock.advanceTo(time);
    await this.drain();
  }

  /**
   * Runs the earliest item due by `time` (a venue request, scheduled work, or the clock's actions due at
   * one time), if any: false when nothing is due. The caller drains the continuations after each item
   * (advance() does; the replay loop does it itself, to save an async call per trade that has work due).
   */
  runNextDue(time: number): boolean {
    let next = this.venue.requests.peekTime();
    let item: DueWork | undefined;
    for (const w of this.work) {
      const t = w.nextTime();
      if (t < next) {
        next = t;
        item = w;
      }
    }
    const action = this.clock.nextActionTime();
    if (action < next && action <= time) {
      // the clock runs what is due then (and what those schedule for the same time); never backwards
      this.clock.runNextAction();
      return true;
    }
    if (next > time) return false;
    if (item === undefined) {
      this.venue.processDue(next);
    } else {
      this.clock.advanceTo(next);
      item.runNext();
      this.workDue = this.earliestWork();
    }
    return true;
  }

  private earliestWork(): number {
    let due = Number.POSITIVE_INFINITY;
    for (const w of this.work) due = Math.min(due, w.nextTime());
    return due;
  }

  async drain(): Promise<void> {
    while (this.venue.pendingContinuations) {
      this.venue.pendingContinuations = false;
      await settleContinuations();
    }
  }

  /**
   * Keeps answering requests (in arrival order) until `done` settles: used while the pipeline stops. When no
   * request is waiting and the stop still waits, the clock runs its next action (the stop grace's end).
   */
  async pumpUntil(done: Promise<unknown>): Promise<void> {
    let finished = false;
    const marker = done.then(
      () => (finished = true),
      () => (finished = true),
    );
    for (let turns = 0; !finished; turns++) {
      if (turns > 100_000) throw new Error('the pipeline did not stop: requests keep coming');
      const requests = this.venue.requests.peekTime() < Number.POSITIVE_INFINITY;
      this.venue.processDue(Number.POSITIVE_INFINITY);
      this.venue.pendingContinuations = false;
      await settleContinuations();
      if (!finished && !requests && this.venue.requests.peekTime() === Number.POSITIVE_INFINITY) this.clock.runNextAction();
    }
    await marker;
  }
}
