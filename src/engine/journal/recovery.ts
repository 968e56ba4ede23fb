/**
 * Bringing back, on start, the orders an earlier run sent and never saw finish, and settling them against
 * the exchange. `restore` feeds them to the OrderTracker as this run's own orders (with their order ids and
 * filled quantities) before any stream starts; they are never sent again. Then, after the order stream's
 * first snapshot, the tracker has sorted them:
 * - in the snapshot: resumed (the tracker updated them; nothing else to do);
 * - acknowledged but missing from it: UNKNOWN, looked up by order id: its final state (or, when the
 *   exchange does not know it, CANCELED);
 * - never acknowledged and missing from it: looked up by clordId: tracked when the exchange has it, else
 *   REJECTED ("the request never arrived"): the recovery never sends it again.
 * `settle` runs those lookups (before the reconciliation fetches positions, so fills they reveal are
 * already in the exchange's positions the portfolio then takes). An order whose lookup fails stays pending
 * for the next snapshot. `settleForStop` looks up every order still open at a clean stop, so the compacted
 * journal keeps only orders that are really open.
 */
import type { Logger } from 'pino';
import type { Order } from '../../domain/index.ts';
import { describeError } from '../../errors.ts';
import { isTerminal, type OrderTracker, type TrackedOrder } from '../orders/index.ts';
import type { Venue, VenueOrderQuery } from '../venue.ts';
import type { RecoveredOrder } from './rebuild.ts';
import { requestOf } from './terms.ts';

export interface JournalRecoveryOptions {
  tracker: OrderTracker;
  venue: Venue;
  log: Logger;
  /** Runs tracker inputs as one engine step (the adapter flushes after it). */
  step(work: () => void): void;
}

export class JournalRecovery {
  /** Restored orders not yet settled with the exchange, by their first clordId. */
  private readonly pending = new Set<string>();

  constructor(private readonly options: JournalRecoveryOptions) {}

  /** Tracks `orders` again (call before the order stream starts). */
  restore(orders: readonly RecoveredOrder[]): void {
    for (const order of orders) {
      this.options.tracker.restored(
        requestOf(order.clordId, order.terms),
        { intentId: order.intentId, label: order.label },
        {
          orderId: order.orderId,
          clordIds: order.clordIds,
          filledQty: order.cumQty,
          avgPx: order.avgPx,
        },
      );
      this.pending.add(order.clordId);
    }
  }

  /** Restored orders still to settle. */
  get unsettled(): number {
    return this.pending.size;
  }

  /**
   * After an order-stream snapshot: looks up the restored orders the snapshot could not place (UNKNOWN, or
   * still without an order id) and applies the answers. Resolves when every lookup settled.
   */
  async settle(): Promise<void> {
    const { tracker } = this.options;
    const due: TrackedOrder[] = [];
    for (const clordId of [...this.pending]) {
      const order = tracker.get(clordId);
      if (order === undefined || isTerminal(order.state) || (order.state !== 'UNKNOWN' && order.orderId !== undefined)) {
        this.pending.delete(clordId); // finished, or placed by the snapshot
        continue;
      }
      due.push(order);
    }
    await Promise.all(
      due.map(async (order) => {
        if (await this.lookUp(order, 'restart')) this.pending.delete(order.clordIds[0] ?? order.clordId);
      }),
    );
  }

  /** At a clean stop: looks up each of `orders` (our open ones), so only really open orders stay journaled. */
  async settleForStop(orders: readonly TrackedOrder[]): Promise<void> {
    await Promise.all(orders.map((order) => this.lookUp(order, 'stop')));
  }

  /** Looks one order up and feeds the answer to the tracker; false when the lookup failed. */
  private async lookUp(order: TrackedOrder, when: 'restart' | 'stop'): Promise<boolean> {
    const { venue, tracker, log, step } = this.options;
    const query: VenueOrderQuery = {
      account: order.account,
      symbol: order.symbol,
      orderId: order.orderId,
      clordId: order.clordIds[0] ?? order.clordId,
    };
    let found: Order | undefined;
    try {
      found = venue.lookupOrder !== undefined ? await venue.lookupOrder(query) : await this.fromOpenOrders(query);
    } catch (error) {
      const next = when === 'restart' ? 'retried after the next snapshot' : 'kept open in the compacted journal';
      log.warn(
        { err: error, clordId: order.clordId, orderId: order.orderId },
        `order journal: lookup failed, ${next}: ${describeError(error)}`,
      );
      return false;
    }
    step(() => {
      const current = tracker.get(order.clordId);
      if (current === undefined || isTerminal(current.state)) return;
      tracker.lookupResult(order.clordId, found);
    });
    const after = tracker.get(order.clordId);
    const fields = { clordId: order.clordId, orderId: after?.orderId, found: found !== undefined, state: after?.state };
    if (when === 'restart') log.info(fields, 'order journal: an order of an earlier run settled with the exchange');
    else log.debug(fields, 'order journal: order looked up at stop');
    return true;
  }

  /** Without a single-order lookup: the order is found among the open orders, or taken as closed. */
  private async fromOpenOrders(query: VenueOrderQuery): Promise<Order | undefined> {
    const snapshot = await this.options.venue.snapshot([query.account]);
    return snapshot.openOrders.find((o) => (query.orderId !== undefined && o.id === query.orderId) || o.clordId === query.clordId);
  }
}
