/**
 * Orders the order stream lost track of, looked up one by one at the exchange. After a reconnect the order
 * stream starts again with a snapshot of the working orders only: an order that filled or was cancelled
 * while the stream was down is simply missing from it (the tracker marks it UNKNOWN). When the venue can
 * look single orders up (`Venue.lookupOrder`: the gateway's search_orders, family A's order search), each
 * such order is asked for before the reconciliation fetches positions, so it gets its real end (FILLED,
 * CANCELED, ...) and the fills it made meanwhile are derived from its cum_qty / avg_px: they reach the
 * portfolio, the strategy and the fill count like any other fill (and are then already in the exchange's
 * positions the reconciliation compares with), instead of being papered over by the position reconciliation
 * and the order being taken for cancelled. Orders the lookup does not find, or whose lookup fails, stay
 * UNKNOWN for the open-orders check of the reconciliation that follows.
 */
import type { Logger } from 'pino';
import type { Order } from '../domain/index.ts';
import { describeError } from '../errors.ts';
import type { OrderTracker } from './orders/index.ts';
import type { Venue } from './venue.ts';

/** Lookups in flight at once (an outage can leave a full book of quotes unknown; stay well under the rate limit). */
const CONCURRENT_LOOKUPS = 4;

export interface GapLookupDeps {
  readonly venue: Pick<Venue, 'lookupOrder'>;
  readonly tracker: OrderTracker;
  readonly log: Logger;
  /** Runs tracker changes as a pipeline step (so intents they cause are flushed). */
  readonly step: (work: () => void) => void;
}

/** Looks up each of `clordIds` that is still UNKNOWN; returns how many the exchange answered for. */
export async function lookUpUnknownOrders(clordIds: readonly string[], deps: GapLookupDeps): Promise<number> {
  const { venue, tracker, log, step } = deps;
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
        found = await lookupOrder({ account: order.account, symbol: order.symbol, orderId: order.orderId, clordId: order.clordIds[0] ?? order.clordId });
      } catch (error) {
        log.warn({ err: error, clordId, orderId: order.orderId }, `lookup of an order missing from the stream's snapshot failed (its open-orders check follows): ${describeError(error)}`);
        continue;
      }
      if (found === undefined) continue;
      answered += 1;
      const answer = found;
      step(() => {
        if (tracker.get(clordId)?.state === 'UNKNOWN') tracker.lookupResult(clordId, answer);
      });
      const after = tracker.get(clordId);
      log.info({ clordId, orderId: after?.orderId, state: after?.state, filledQty: after?.filledQty.toString() }, 'an order missing from the stream snapshot, looked up at the exchange');
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_LOOKUPS, queue.length) }, worker));
  return answered;
}
