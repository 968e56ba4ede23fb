/**
 * The stop sequence (`stopPipeline`): the strategy's `onStop` runs as an engine step; what it sent gets the
 * stop grace; the strategy is closed (later events reach no strategy); every open order but those that cannot
 * rest is cancelled and the adapter's calls settle; with an order journal, the orders still open are looked
 * up at the exchange (not the stream) so the compacted journal keeps only really open ones; the streams end,
 * the tracker closes and the journal is compacted.
 *
 * The stop grace: after `onStop`, the intents it sent get a bounded chance to complete before the engine
 * cancels what is left. The grace ends as soon as nothing is in flight (no order is waiting for its
 * acknowledgement, a cancel or a replace, and no order that never rests, an immediate-or-cancel or
 * fill-or-kill place or a cross leg, is still open), or after `graceMs` of engine time (the VirtualClock in
 * backtests), whichever comes first. Orders resting on the book (NEW, PARTIALLY_FILLED) do not hold it: they
 * are cancelled right after.
 */
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import { describeError } from '../../errors.ts';
import type { Clock } from '../clock.ts';
import type { JournalRecorder, JournalRecovery } from '../journal/index.ts';
import type { OrderTracker, TrackedOrder } from '../orders/index.ts';
import type { Step, StrategySlot } from './options.ts';

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

export interface StopDeps extends StopGraceDeps {
  readonly log: Logger;
  readonly step: Step;
  readonly strategy: StrategySlot;
  /** `stopGraceMs` of the options (default DEFAULT_STOP_GRACE_MS). */
  readonly stopGraceMs: number | undefined;
  /** Cancels every open order but those that cannot rest; resolves once the cancels settled. */
  cancelAllOpen(): Promise<void>;
  /** Resolves once no venue call of the execution adapter is in flight. */
  idle(): Promise<void>;
  readonly journal: { readonly recorder: JournalRecorder; readonly recovery: JournalRecovery } | undefined;
  /** Every subscription of the run (streams, tracker outputs, timers): ended. */
  readonly subscriptions: Subscription;
}

/** Stops a running pipeline (see the header). */
export async function stopPipeline(deps: StopDeps): Promise<void> {
  const { log, step, strategy, tracker, journal } = deps;
  step(() => strategy.runtime?.stop());
  // what onStop sent may complete (its outcomes still reach onOrderUpdate); then the rest is cancelled
  const graceMs = deps.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  const grace = await stopGrace(deps, graceMs);
  if (grace === 'timeout') log.info({ stopGraceMs: graceMs }, 'stop grace over with orders still in flight: cancelling what is left');
  strategy.runtime?.close();
  strategy.runtime = undefined;
  await deps.cancelAllOpen();
  await deps.idle();
  if (journal !== undefined) {
    // what the cancels left open is all the compacted journal keeps: ask the exchange, not the stream
    await journal.recovery.settleForStop(tracker.open().filter((order) => journal.recorder.isOurs(order)));
  }
  deps.subscriptions.unsubscribe();
  tracker.close();
  if (journal !== undefined) {
    try {
      await journal.recorder.finish(tracker.open());
    } catch (error) {
      log.error({ err: error }, `order journal: compaction at stop failed, the full journal is kept: ${describeError(error)}`);
    }
  }
}
