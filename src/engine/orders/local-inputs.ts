/**
 * What the bot itself says about its orders, as mutations of a record: submission, insert response,
 * insert failure, cancel and replace requests, cancel rejects and lookup results. Each function changes the
 * record and returns nothing; the tracker stamps the time and emits the update.
 *
 * Rules that are ours (the exchange docs are silent):
 * - Insert failure: a TradebotError of kind `connectivity` or `internal`, or any other thrown value, means
 *   the insert may have reached the exchange: the order becomes UNKNOWN (needs a lookup). Any other kind
 *   (rejection, validation, rate-limited, authentication, permission, config) means the exchange did not
 *   take it: REJECTED, set locally, so later exchange evidence for the order still wins.
 * - A cancel reject clears the matching overlay (cancel or replace); when its reason is TOO_LATE_TO_CANCEL
 *   or UNKNOWN_ORDER and the order still looks working, the order becomes UNKNOWN: it has probably just
 *   closed and the execution saying so may still be on its way (it clears UNKNOWN when it arrives).
 * - A lookup that does not find the order closes it locally: REJECTED if it never had an order id,
 *   CANCELED otherwise.
 * - A cancel or replace CALL that failed (the venue never answered it, or refused it) drops its overlay,
 *   so the order shows working again and the strategy may decide anew. If the request did reach the
 *   exchange, its execution (CANCELED, REPLACE) still arrives and wins; a stuck PENDING_CANCEL would
 *   otherwise never be cancelled again.
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { CancelReject } from '../../domain/index.ts';
import type { EpochMs } from '../../domain/time.ts';
import { isTradebotError } from '../../errors.ts';
import type { VenueOrderRequest } from '../venue.ts';
import { OrderTrackerErrorCode, orderTrackerError } from './errors.ts';
import type { OrderIndex } from './order-index.ts';
import { OrderRecord } from './record.ts';
import { advance, isTerminal } from './states.ts';
import type { RestoredHistory, SubmissionMeta } from './types.ts';

export function recordForSubmission(request: VenueOrderRequest, meta: SubmissionMeta, time: EpochMs): OrderRecord {
  const side = request.side;
  if ((side !== 'BUY' && side !== 'SELL') || !request.qty.isFinite() || request.qty.lte(0)) {
    throw orderTrackerError(
      OrderTrackerErrorCode.INVALID_SUBMISSION,
      `order ${request.clordId}: expected side BUY or SELL and a positive qty, got ${String(request.side)} ${request.qty.toString()}`,
      { clordId: request.clordId },
    );
  }
  return new OrderRecord({
    clordId: request.clordId,
    orderId: undefined,
    account: request.account,
    symbol: request.symbol,
    side,
    price: request.price,
    qty: request.qty,
    base: 'PENDING_NEW',
    adopted: false,
    intentId: meta.intentId,
    label: meta.label,
    crossId: meta.crossId,
    time,
  });
}

/**
 * Gives a new record what an earlier run knew (see OrderTracker.restored): the clordId chain, the order id
 * and the filled quantity as history (levels unknown, notional from the average price), so only later
 * increases of cum_qty become fills. With an order id the exchange took the order: NEW or PARTIALLY_FILLED.
 */
export function restoreHistory(record: OrderRecord, history: RestoredHistory): void {
  for (const clordId of history.clordIds) if (!record.chain.has(clordId)) record.chain.push(clordId, record.confirmed);
  record.orderId = history.orderId;
  if (history.filledQty.gt(0)) {
    record.filledQty = history.filledQty;
    record.notional = history.filledQty.times(history.avgPx);
    record.levels = undefined;
  }
  if (history.orderId !== undefined) record.base = history.filledQty.gt(0) ? 'PARTIALLY_FILLED' : 'NEW';
}

export function markAcknowledged(record: OrderRecord): void {
  record.base = advance(record.base, record.baseIsLocal, 'NEW');
  record.baseIsLocal = false;
  record.unknown = false;
}

/** True when an insert error leaves open whether the exchange took the order. */
export function insertOutcomeUnknown(error: unknown): boolean {
  return !isTradebotError(error) || error.kind === 'connectivity' || error.kind === 'internal';
}

/** Applies an insert failure; returns false (no change) once the exchange has said anything about it. */
export function markSendFailed(record: OrderRecord, error: unknown): boolean {
  if (record.base !== 'PENDING_NEW' || record.orderId !== undefined) return false;
  if (insertOutcomeUnknown(error)) {
    record.unknown = true;
  } else {
    record.base = 'REJECTED';
    record.baseIsLocal = true;
    record.pendingCancel = false;
    record.pendingReplace = undefined;
  }
  return true;
}

/** Marks a cancel in flight; false (no change) when the order is already terminal. */
export function markCancelRequested(record: OrderRecord): boolean {
  if (isTerminal(record.base)) return false;
  record.pendingCancel = true;
  return true;
}

export function markReplaceRequested(
  record: OrderRecord,
  index: OrderIndex,
  newClordId: string,
  price: Decimal | undefined,
  qty: Decimal | undefined,
): boolean {
  if (index.hasClordId(newClordId)) {
    throw orderTrackerError(
      OrderTrackerErrorCode.DUPLICATE_CLORD_ID,
      `replace of ${record.clordId}: clordId ${newClordId} is already used; issue a fresh one`,
      { clordId: record.clordId, newClordId },
    );
  }
  if (isTerminal(record.base)) return false;
  index.addClordId(record, newClordId);
  // a replace sent while another is in flight leaves the other's changes to stand (the exchange applies both):
  // the pending terms are the two merged
  const earlier = record.pendingReplace;
  record.pendingReplace = Object.freeze({ clordId: newClordId, price: price ?? earlier?.price, qty: qty ?? earlier?.qty });
  return true;
}

/** Forgets a replace target the exchange never confirmed. */
function dropPendingReplace(record: OrderRecord, index: OrderIndex): void {
  const pending = record.pendingReplace;
  if (pending === undefined) return;
  record.pendingReplace = undefined;
  const version = record.versionOf(pending.clordId);
  if (version > record.confirmed) {
    record.chain.removeAt(version);
    index.dropClordId(pending.clordId, record);
  }
}

export function markRequestFailed(record: OrderRecord, index: OrderIndex, request: 'cancel' | 'replace'): void {
  if (request === 'cancel') record.pendingCancel = false;
  else dropPendingReplace(record, index);
}

export function markCancelRejected(record: OrderRecord, index: OrderIndex, reject: CancelReject): void {
  if (reject.isReplace) dropPendingReplace(record, index);
  else record.pendingCancel = false;
  const closedMaybe = reject.rejectReason === 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL' || reject.rejectReason === 'CXL_REJ_REASON_UNKNOWN_ORDER';
  if (closedMaybe && !isTerminal(record.base)) record.unknown = true;
}

export function markNotFound(record: OrderRecord, index: OrderIndex): void {
  if (isTerminal(record.base) && !record.baseIsLocal) return;
  record.base = record.orderId === undefined ? 'REJECTED' : 'CANCELED';
  record.baseIsLocal = true;
  record.unknown = false;
  record.pendingCancel = false;
  dropPendingReplace(record, index);
}
