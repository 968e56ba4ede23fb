/**
 * The execution adapter's view of the order tracker (`ExecutionLedger`): what the adapter records as it sends,
 * what it asks about an order, and the requests in flight kept on the orders' records (orders/in-flight.ts).
 * The pipeline implements it over the OrderTracker (pipeline/ledger.ts); tests implement it with plain state.
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { PendingReplace, ReleasedRequests, SubmissionMeta, TrackedState } from '../orders/index.ts';
import type { VenueOrderRequest } from '../venue.ts';

/** A replace's order (`clordId`), new id and terms: from the intent, or (once the order is acknowledged) from the order's record. */
export interface ReplaceTerms {
  readonly clordId: string;
  readonly newClordId: string;
  readonly price: Decimal | undefined;
  readonly qty: Decimal | undefined;
}

/**
 * What the adapter needs from the order tracker, the one owner of every order's state: what the adapter sends
 * is recorded there as it goes, requests that must wait for an order's acknowledgement wait on the order's
 * record, and whether a cancel call is on the wire is kept there too (orders/in-flight.ts).
 */
export interface ExecutionLedger {
  /** An order (a place, or a cross leg) is being sent: track it from now on. */
  submitted(request: VenueOrderRequest, meta: SubmissionMeta): void;
  acknowledged(clordId: string, orderId: string): void;
  sendFailed(clordId: string, error: unknown): void;
  cancelRequested(clordId: string): void;
  replaceRequested(replace: ReplaceTerms): void;
  /** A cancel or replace call failed: the order is no longer pending that request. */
  requestFailed?(clordId: string, request: 'cancel' | 'replace', error: unknown): void;
  /**
   * The client order id the order goes by until a replace of it is confirmed (what its acknowledgement
   * names), for any id it has had or is being given; absent: `clordId` itself.
   */
  currentClordIdOf?(clordId: string): string | undefined;
  orderIdOf(clordId: string): string | undefined;
  symbolOf(clordId: string): string | undefined;
  /** Working orders (incl. pending) as clordIds, optionally for one symbol. */
  openClordIds(symbol?: string): readonly string[];
  /** The order's tracked state; undefined when the order is not (or no longer) tracked. */
  stateOf(clordId: string): TrackedState | undefined;
  /** The replace in flight (or waiting) for the order: its new client order id and terms. */
  pendingReplaceOf(clordId: string): PendingReplace | undefined;

  // ---- requests in flight (orders/in-flight.ts) ----
  /** A cancel of an order not acknowledged yet waits on its record for the acknowledgement. */
  deferCancel(clordId: string): void;
  /** A replace (its terms recorded by replaceRequested) waits on the record; `replaceOf`: the id it was asked with. */
  deferReplace(clordId: string, replaceOf: string): void;
  /** The id the replace waiting for the order's acknowledgement was asked with, if one waits. */
  waitingReplaceOf(clordId: string): string | undefined;
  /** True while a request waits for an acknowledgement. */
  hasDeferred(): boolean;
  /** Takes what waits for this (just acknowledged) order. */
  takeAcknowledged(clordId: string): ReleasedRequests | undefined;
  /** Takes what waits for orders acknowledged now; drops what waits for orders that ended without one. */
  takeReleased(): readonly ReleasedRequests[];
  cancelSent(clordId: string): void;
  cancelAnswered(clordId: string): void;
  isCancelInFlight(clordId: string): boolean;
}
