/**
 * The Reconciler: after each order-stream snapshot (and after a settlement), the engine settles its view with
 * the exchange's, in this order:
 * 1. orders restored from the order journal that the snapshot could not place are looked up (journal recovery);
 * 2. orders the snapshot left UNKNOWN (missing from it: they closed while the stream was down, or their
 *    outcome is not known) are looked up one by one when the venue can (`Venue.lookupOrder`), so they get
 *    their real end and the fills they made meanwhile reach the portfolio and the strategy like any other
 *    fill (and are then in the exchange's positions fetched next);
 * 3. the exchange's positions, balances and open orders are fetched. A fill applied while that call is in
 *    flight may or may not be in its answer: it is asked again (RECONCILE_ATTEMPTS); accounts whose fills
 *    kept arriving keep their local view, and a follow-up reconciliation is scheduled (engine time, bounded);
 * 4. expired contracts the exchange shows flat settle at 0, then the portfolio takes the exchange's positions
 *    and balances (the exchange wins);
 * 5. orders still UNKNOWN are settled against the open orders (found: working; else finished), and orders the
 *    exchange still works that the bot holds for finished (an exchange restarted from an older state forgot
 *    their cancel or fill) are cancelled: nothing would manage them ("zombies").
 * Without this, orders would stay "working" forever and a strategy would keep quoting against phantom orders.
 */
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { Order } from '../../domain/index.ts';
import { describeError } from '../../errors.ts';
import type { Clock } from '../clock.ts';
import { isTerminal, type OrderTracker } from '../orders/index.ts';
import type { PortfolioPort } from '../portfolio-port.ts';
import type { RunCounters } from '../run-counters.ts';
import type { SettlementWatch } from '../settlements.ts';
import type { Venue, VenueSnapshot } from '../venue.ts';
import type { Step } from './options.ts';

/** Lookups per reconciliation while fills keep arriving during them. */
export const RECONCILE_ATTEMPTS = 3;
/** A reconciliation that fills kept racing is tried again this much later, at most this many times in a row. */
export const FOLLOW_UP_RECONCILE_MS = 2_000;
export const MAX_FOLLOW_UP_RECONCILIATIONS = 10;
/** Lookups in flight at once (an outage can leave a full book of quotes unknown; stay well under the rate limit). */
const CONCURRENT_LOOKUPS = 4;

export interface ReconcilerDeps {
  readonly venue: Pick<Venue, 'snapshot' | 'lookupOrder'>;
  readonly clock: Clock;
  readonly log: Logger;
  readonly tracker: OrderTracker;
  readonly portfolio: PortfolioPort;
  readonly settlements: SettlementWatch;
  readonly counters: RunCounters;
  /** Every account the bot follows. */
  readonly accounts: readonly string[];
  /** Runs tracker changes as an engine step (so intents they cause are flushed). */
  readonly step: Step;
  /** Orders restored from the order journal still to settle (journal recovery), if any. */
  readonly recovery?: { readonly unsettled: number; settle(): Promise<void> } | undefined;
  /** Cancels an order the engine decides to cancel (approved by risk). */
  cancel(clordId: string): void;
  /** True once the run stopped: a reconciliation in flight then ends without applying anything. */
  stopped(): boolean;
  /** Follow-up reconciliations are scheduled on it (so they end with the run). */
  readonly subscriptions: Subscription;
}

export class Reconciler {
  /** Fills applied per account: a change during the snapshot call means its answer may miss or hold a fill. */
  private readonly fillsByAccount = new Map<string, number>();
  private followUps = 0;

  constructor(private readonly deps: ReconcilerDeps) {}

  /** A fill was applied to `account`'s portfolio. */
  noteFill(account: string): void {
    this.fillsByAccount.set(account, (this.fillsByAccount.get(account) ?? 0) + 1);
  }

  /** Reconciles now with every order that needs a lookup (after a snapshot or a settlement). */
  reconcileNow(): void {
    void this.reconcile(this.deps.tracker.needingLookup().map((o) => o.clordId));
  }

  /** One reconciliation, `unknown` being the orders the last snapshot left UNKNOWN. Never rejects. */
  async reconcile(unknown: readonly string[]): Promise<void> {
    const { log, counters, recovery } = this.deps;
    try {
      // restored orders first, so fills they reveal are in the exchange's positions fetched below
      if (recovery !== undefined && recovery.unsettled > 0) await recovery.settle();
      // orders that ended while the order stream was down: their real end and fills, before the positions
      if (unknown.length > 0) counters.gapLookups += await this.lookUpUnknown(unknown);
      const settled = await this.snapshot();
      if (settled === undefined) return; // stopped meanwhile
      const { snapshot, moved } = settled;
      this.followUpIfMoved(moved);
      const differences = this.applyPositions(snapshot, moved);
      counters.reconciliations += 1;
      this.deps.step(() => {
        this.settleUnknown(unknown, snapshot);
        this.cancelZombies(snapshot);
      });
      for (const difference of differences) {
        log.warn({ difference }, 'reconciliation: the exchange differs from the local view (the exchange wins)');
      }
      log.info({ openOrders: snapshot.openOrders.length, positions: snapshot.positions.length }, 'reconciled with the exchange');
    } catch (error) {
      log.error({ err: error }, `reconciliation failed: ${describeError(error)}`);
    }
  }

  /**
   * Looks up each of `clordIds` still UNKNOWN at the exchange (CONCURRENT_LOOKUPS at a time), applying each
   * answer in an engine step; returns how many the exchange answered for. Orders not found, or whose lookup
   * fails, stay UNKNOWN for the open-orders check that follows.
   */
  async lookUpUnknown(clordIds: readonly string[]): Promise<number> {
    const { venue, tracker, log, step } = this.deps;
    const lookupOrder = venue.lookupOrder?.bind(venue);
    if (lookupOrder === undefined) return 0;
    let answered = 0;
    const queue = [...clordIds];
    const worker = async (): Promise<void> => {
      for (let clordId = queue.shift(); clordId !== undefined; clordId = queue.shift()) {
        const order = tracker.get(clordId);
        if (order?.state !== 'UNKNOWN') continue;
        let found: Order | undefined;
        try {
          const { account, symbol, orderId } = order;
          found = await lookupOrder({ account, symbol, orderId, clordId: order.clordIds[0] ?? order.clordId });
        } catch (error) {
          const why = `lookup of an order missing from the stream's snapshot failed (its open-orders check follows)`;
          log.warn({ err: error, clordId, orderId: order.orderId }, `${why}: ${describeError(error)}`);
          continue;
        }
        if (found === undefined) continue;
        answered += 1;
        const answer = found;
        step(() => {
          if (tracker.get(clordId)?.state === 'UNKNOWN') tracker.lookupResult(clordId, answer);
        });
        const after = tracker.get(clordId);
        const fields = { clordId, orderId: after?.orderId, state: after?.state, filledQty: after?.filledQty.toString() };
        log.info(fields, 'an order missing from the stream snapshot, looked up at the exchange');
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_LOOKUPS, queue.length) }, worker));
    return answered;
  }

  /**
   * The exchange's snapshot of every account, asked again while fills keep arriving during the call;
   * `moved`: the accounts whose fills still raced the last answer. Undefined once the run stopped.
   */
  private async snapshot(): Promise<{ snapshot: VenueSnapshot; moved: string[] } | undefined> {
    const { venue, accounts, stopped } = this.deps;
    for (let attempt = 1; ; attempt += 1) {
      const before = new Map(this.fillsByAccount);
      const snapshot = await venue.snapshot(accounts);
      if (stopped()) return undefined;
      const moved = accounts.filter((account) => this.fillsByAccount.get(account) !== before.get(account));
      if (moved.length === 0 || attempt >= RECONCILE_ATTEMPTS) return { snapshot, moved };
    }
  }

  /** Accounts whose fills kept racing keep their local view for now: settled later, in a quieter moment. */
  private followUpIfMoved(moved: readonly string[]): void {
    if (moved.length === 0) {
      this.followUps = 0;
      return;
    }
    this.deps.log.warn(
      { accounts: moved },
      'reconciliation: fills kept arriving during the lookup; these accounts keep their local positions and cash for now',
    );
    // engine time, so backtests stay deterministic; bounded
    if (this.followUps < MAX_FOLLOW_UP_RECONCILIATIONS) {
      this.followUps += 1;
      this.deps.subscriptions.add(this.deps.clock.scheduler.schedule(() => void this.reconcile([]), FOLLOW_UP_RECONCILE_MS));
    }
  }

  /** Settlements at 0, then the exchange's positions and balances (but `moved` accounts'): the differences. */
  private applyPositions(snapshot: VenueSnapshot, moved: readonly string[]): readonly string[] {
    const { settlements, portfolio, log, accounts } = this.deps;
    const settled = (item: { account: string }) => !moved.includes(item.account);
    for (const symbol of settlements.beforeReconcile(
      accounts.filter((a) => !moved.includes(a)),
      snapshot.positions,
    )) {
      log.info({ symbol, price: '0' }, `${symbol} settled at 0 (the exchange closed the positions of the expired contract)`);
    }
    return portfolio.reconcile(snapshot.positions.filter(settled), snapshot.balances.filter(settled));
  }

  /** Orders still UNKNOWN: working when the exchange's open orders list them, else finished. */
  private settleUnknown(unknown: readonly string[], snapshot: VenueSnapshot): void {
    const { tracker } = this.deps;
    for (const clordId of unknown) {
      const order = tracker.get(clordId);
      if (order?.state !== 'UNKNOWN') continue;
      const found = snapshot.openOrders.find(
        (o) => (order.orderId !== undefined && o.id === order.orderId) || order.clordIds.includes(o.clordId),
      );
      tracker.lookupResult(clordId, found);
    }
  }

  /** Orders the exchange still works that the bot holds for finished: cancelled. */
  private cancelZombies(snapshot: VenueSnapshot): void {
    const { tracker, counters, log } = this.deps;
    for (const open of snapshot.openOrders) {
      const known = open.id === '' ? undefined : tracker.byOrderId(open.id);
      if (known === undefined || !isTerminal(known.state)) continue;
      counters.zombiesCancelled += 1;
      const fields = { clordId: known.clordId, orderId: open.id, state: known.state };
      log.warn(fields, 'reconciliation: the exchange works an order the bot holds for finished; cancelling it');
      this.deps.cancel(known.clordId);
    }
  }
}
