/**
 * The order journal in a run (see src/engine/journal/): replayed before anything else (the run id and the
 * order-id counters continue after the journal's), written as the run trades (a failure halts trading), and
 * the orders an earlier run left in flight tracked again before any stream starts (never re-sent; settled
 * with the exchange by the Reconciler after the first order-stream snapshot, and at stop). With several
 * strategies, each strategy's positions are journaled as they change and given back to it on restart.
 */
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import { describeError } from '../../errors.ts';
import type { Clock } from '../clock.ts';
import { JournalRecorder, JournalRecovery, rebuildJournal, type Journal, type RecoveredJournal } from '../journal/index.ts';
import type { OrderTracker } from '../orders/index.ts';
import type { RiskManager } from '../risk/index.ts';
import type { RunCounters } from '../run-counters.ts';
import type { Venue } from '../venue.ts';
import type { Step } from './options.ts';
import type { StrategyMemberOptions } from './strategies.ts';

/** The journal being written: what the replay found and the writer. */
export interface JournalWriter {
  readonly journal: Journal;
  readonly recovered: RecoveredJournal;
  readonly recorder: JournalRecorder;
}

/** The journal of a running pipeline: its writer and the recovery of what earlier runs left in flight. */
export interface RunJournal {
  readonly recorder: JournalRecorder;
  readonly recovery: JournalRecovery;
}

/** What the journal's replay found (undefined: no journal). */
export async function replayJournal(journal: Journal | undefined): Promise<RecoveredJournal | undefined> {
  return journal === undefined ? undefined : await rebuildJournal(journal.replay());
}

export interface StartJournalDeps {
  readonly clock: Clock;
  readonly runId: string;
  readonly tracker: OrderTracker;
  readonly risk: RiskManager;
  readonly log: Logger;
}

/** Starts writing the journal (undefined without one); a failure to write halts trading. */
export function startJournal(
  journal: Journal | undefined,
  recovered: RecoveredJournal | undefined,
  deps: StartJournalDeps,
): JournalWriter | undefined {
  if (journal === undefined || recovered === undefined) return undefined;
  const { clock, runId, tracker, risk, log } = deps;
  const recorder = new JournalRecorder({
    journal,
    clock,
    runId,
    recovered,
    orderOf: (clordId) => tracker.get(clordId),
    onFailure: (error) => {
      log.error({ err: error }, `order journal failed, trading halted: ${describeError(error)}`);
      risk.tradingState.setState('halted', `order journal: ${error.code}`);
    },
  });
  recorder.start();
  return { journal, recovered, recorder };
}

export interface RestoreDeps {
  readonly tracker: OrderTracker;
  readonly venue: Venue;
  readonly log: Logger;
  readonly step: Step;
  readonly counters: RunCounters;
}

/** Tracks again the orders earlier runs left in flight (call before the streams start). */
export function restoreOrders(writer: JournalWriter | undefined, deps: RestoreDeps): RunJournal | undefined {
  if (writer === undefined) return undefined;
  const { tracker, venue, log, step, counters } = deps;
  const { recovered } = writer;
  const recovery = new JournalRecovery({ tracker, venue, log, step });
  recovery.restore(recovered.open);
  counters.restored = recovered.open.length;
  log.info(
    {
      journal: writer.journal.description,
      restored: recovered.open.length,
      ordersInJournal: recovered.orders,
      runs: recovered.runIds.size,
      next: recovered.counters,
    },
    `order journal replayed: ${recovered.open.length} order(s) in flight from earlier runs tracked again (not re-sent)`,
  );
  return { recorder: writer.recorder, recovery };
}

/**
 * Several strategies: each one's positions as the journal last recorded them become its portfolio's again
 * (before any stream starts), and every later change is journaled. Strategies whose portfolio cannot do
 * either (a port without holdings) start flat, as before.
 */
export function keepStrategyHoldings(
  writer: JournalWriter | undefined,
  members: readonly StrategyMemberOptions[],
  deps: { readonly log: Logger; readonly subscriptions: Subscription },
): void {
  if (writer === undefined) return;
  const { recovered, recorder } = writer;
  for (const member of members) {
    const { id: strategy, portfolio } = member;
    const held = recovered.holdings.filter((h) => h.strategy === strategy);
    if (held.length > 0 && portfolio.restoreHoldings !== undefined) {
      portfolio.restoreHoldings(held);
      const positions = Object.fromEntries(held.map((h) => [`${h.account} ${h.symbol}`, h.qty.toString()]));
      deps.log.info({ strategy, positions }, `order journal: strategy ${strategy} holds its positions of the earlier run again`);
    }
    const changes = portfolio.holdings$;
    if (changes !== undefined) deps.subscriptions.add(changes.subscribe((h) => recorder.holding({ strategy, ...h })));
  }
  const unknown = [...new Set(recovered.holdings.map((h) => h.strategy))].filter((id) => !members.some((m) => m.id === id));
  if (unknown.length > 0)
    deps.log.warn(
      { strategies: unknown },
      'order journal: positions of strategies this config does not run are not restored (they stay in the exchange totals, unattributed)',
    );
}
