/**
 * The execution adapter's ledger over the OrderTracker: what the adapter records as it sends (an order
 * submitted, acknowledged, failed, a cancel or replace requested or failed) goes into the tracker, and what it
 * asks (an order's exchange id, symbol, state, current client order id, the open orders) is read from there,
 * and the requests in flight (waiting for an acknowledgement, a cancel call on the wire) are kept on the
 * orders' records (orders/in-flight.ts).
 * An answer can come after its order finished and left the tracker's finished-order history: it is ignored.
 */
import type { ExecutionLedger } from '../execution/ledger.ts';
import type { OrderTracker } from '../orders/index.ts';

export function trackerLedger(tracker: OrderTracker): ExecutionLedger {
  return {
    submitted: (request, meta) => void tracker.submitted(request, meta),
    // an insert's answer can come after its order finished and left the finished-order history
    acknowledged: (clordId, orderId) => void (tracker.has(clordId) && tracker.acknowledged(clordId, orderId)),
    sendFailed: (clordId, error) => void (tracker.has(clordId) && tracker.sendFailed(clordId, error)),
    cancelRequested: (clordId) => void tracker.cancelRequested(clordId),
    replaceRequested: (intent) => void tracker.replaceRequested(intent.clordId, intent.newClordId, intent.price, intent.qty),
    requestFailed: (clordId, request, error) => {
      if (tracker.get(clordId) !== undefined) tracker.requestFailed(clordId, request, error);
    },
    orderIdOf: (clordId) => tracker.get(clordId)?.orderId,
    symbolOf: (clordId) => tracker.get(clordId)?.symbol,
    openClordIds: (symbol) => tracker.open(symbol).map((o) => o.clordId),
    stateOf: (clordId) => tracker.get(clordId)?.state,
    currentClordIdOf: (clordId) => tracker.get(clordId)?.clordId,
    pendingReplaceOf: (clordId) => tracker.get(clordId)?.pendingReplace,
    deferCancel: (clordId) => tracker.requests.deferCancel(clordId),
    deferReplace: (clordId, replaceOf) => tracker.requests.deferReplace(clordId, replaceOf),
    waitingReplaceOf: (clordId) => tracker.requests.waitingReplaceOf(clordId),
    hasDeferred: () => tracker.requests.hasWaiting,
    takeAcknowledged: (clordId) => tracker.requests.takeAcknowledged(clordId),
    takeReleased: () => tracker.requests.takeReleased(),
    cancelSent: (clordId) => tracker.requests.cancelSent(clordId),
    cancelAnswered: (clordId) => tracker.requests.cancelAnswered(clordId),
    isCancelInFlight: (clordId) => tracker.requests.isCancelInFlight(clordId),
  };
}
