/**
 * The stop grace: after `onStop`, the intents it sent get a bounded chance to complete before the engine
 * cancels what is left. The grace ends as soon as nothing is in flight (no order is waiting for its
 * acknowledgement, a cancel or a replace, and no order that never rests, an immediate-or-cancel or
 * fill-or-kill place or a cross leg, is still open), or after `graceMs` of engine time (the VirtualClock in
 * backtests), whichever comes first. Orders resting on the book (NEW, PARTIALLY_FILLED) do not hold it: they
 * are cancelled right after.
 */
import type { Subscription } from 'rxjs';
import type { Clock } from './clock.ts';
import type { OrderTracker, TrackedOrder } from './orders/index.ts';

/** Default `stopGraceMs`: enough for an order's round trip to the exchange, short enough for a prompt stop. */
export const DEFAULT_STOP_GRACE_MS = 1000;

export interface StopGraceDeps {
  readonly clock: Clock;
  readonly tracker: OrderTracker;
  /** True for an order that never rests (IOC, FOK, a cross leg). */
  readonly isImmediate: (clordId: string) => boolean;
}

/** True while the order's outcome is on its way: a request in flight, or an order that never rests still open. */
export function inFlight(order: TrackedOrder, isImmediate: (clordId: string) => boolean): boolean {
  if (order.state === 'PENDING_NEW' || order.state === 'PENDING_CANCEL' || order.state === 'PENDING_REPLACE') return true;
  return order.state !== 'UNKNOWN' && isImmediate(order.clordId);
}

/** Resolves 'settled' once nothing is in flight, or 'timeout' after `graceMs` of engine time. */
export function stopGrace(deps: StopGraceDeps, graceMs: number): Promise<'settled' | 'timeout'> {
  const settled = () => !deps.tracker.open().some((order) => inFlight(order, deps.isImmediate));
  if (settled()) return Promise.resolve('settled');
  if (!(graceMs > 0)) return Promise.resolve('timeout');
  return new Promise((resolve) => {
    let done = false;
    const subscriptions: Subscription[] = [];
    const finish = (outcome: 'settled' | 'timeout') => {
      if (done) return;
      done = true;
      for (const subscription of subscriptions) subscription.unsubscribe();
      resolve(outcome);
    };
    subscriptions.push(deps.tracker.updates$.subscribe(() => settled() && finish('settled')));
    subscriptions.push(deps.clock.scheduler.schedule(() => finish('timeout'), graceMs));
  });
}
