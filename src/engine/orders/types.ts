/**
 * The OrderTracker's public shapes: the tracked states, the read-only view of an order (`TrackedOrder`),
 * the events it emits (`OrderUpdate` with its `cause`, `Fill`, `TrackerIssue`) and the metadata a local
 * submission carries. Everything is in the bot's terms: Decimal prices and quantities, plain sides,
 * EpochMs times. Views are immutable snapshots taken when the event was emitted.
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { CxlRejReason, ExecutionType } from '../../domain/enums.ts';
import type { EpochMs } from '../../domain/time.ts';
import type { IntentSide } from '../intents.ts';

/**
 * The state of a tracked order.
 * - PENDING_NEW: sent (or being sent), not yet acknowledged.
 * - NEW / PARTIALLY_FILLED: working at the exchange.
 * - PENDING_CANCEL / PENDING_REPLACE: working, with a cancel / replace in flight (a cancel reject goes back).
 * - UNKNOWN: may or may not be working (missing from a snapshot, insert failed on connectivity, cancel
 *   rejected as too late / unknown): needs a lookup. Counted as open, so risk stays conservative.
 * - FILLED / CANCELED / REJECTED / EXPIRED: terminal.
 */
export const TRACKED_STATES = [
  'PENDING_NEW',
  'NEW',
  'PARTIALLY_FILLED',
  'PENDING_CANCEL',
  'PENDING_REPLACE',
  'UNKNOWN',
  'FILLED',
  'CANCELED',
  'REJECTED',
  'EXPIRED',
] as const;
export type TrackedState = (typeof TRACKED_STATES)[number];

export type TerminalState = 'FILLED' | 'CANCELED' | 'REJECTED' | 'EXPIRED';

/** A replace the bot sent and the exchange has not confirmed or rejected yet. */
export interface PendingReplace {
  readonly clordId: string;
  readonly price: Decimal | undefined;
  readonly qty: Decimal | undefined;
}

/** Read-only view of one order. */
export interface TrackedOrder {
  /** The current client order id (the newest confirmed by the exchange, or the submitted one). */
  readonly clordId: string;
  /**
   * Client order ids the order has had, oldest first (replaces add one each): the first one, and the most
   * recent ones (at least 64; older ones of a much-replaced order are forgotten).
   */
  readonly clordIds: readonly string[];
  /** Exchange order id; undefined until the insert response or the first execution names it. */
  readonly orderId: string | undefined;
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  /** Limit price; undefined for a market-to-limit order that has not been priced. */
  readonly price: Decimal | undefined;
  /** Total order quantity (including what has filled). */
  readonly qty: Decimal;
  readonly filledQty: Decimal;
  /** qty - filledQty while working, 0 once terminal. */
  readonly leavesQty: Decimal;
  /** VWAP of the fills this tracker emitted (plus the adopted history); 0 when nothing filled. */
  readonly avgPx: Decimal;
  readonly state: TrackedState;
  /** The state as strategies see it: UNKNOWN shows as NEW (the order may still be working). */
  readonly status: Exclude<TrackedState, 'UNKNOWN'>;
  /** True when the order came from the exchange (snapshot or execution) rather than a local submission. */
  readonly adopted: boolean;
  readonly intentId: string | undefined;
  readonly label: string | undefined;
  /** The cross this order is a leg of (sent with insert_order_cross); undefined for an ordinary order. */
  readonly crossId: string | undefined;
  readonly pendingReplace: PendingReplace | undefined;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
}

/** Why an order changed. */
export type UpdateCause =
  | { readonly kind: 'submitted' }
  /** Sent by an earlier run of the bot, brought back from the order journal on start. */
  | { readonly kind: 'restored' }
  | { readonly kind: 'acknowledged' }
  | { readonly kind: 'sendFailed'; readonly error: unknown }
  | { readonly kind: 'cancelRequested' }
  | { readonly kind: 'replaceRequested'; readonly newClordId: string }
  /** A cancel or replace call failed (retries exhausted or refused): its overlay is dropped. */
  | { readonly kind: 'requestFailed'; readonly request: 'cancel' | 'replace'; readonly error: unknown }
  | {
      readonly kind: 'execution';
      readonly executionId: string;
      readonly executionType: ExecutionType;
      /** The exchange's text (the reject reason on EXECUTION_TYPE_REJECTED). */
      readonly text: string;
    }
  | {
      readonly kind: 'cancelReject';
      readonly isReplace: boolean;
      readonly reason: CxlRejReason;
      readonly text: string;
    }
  | { readonly kind: 'snapshot'; readonly sessionId: string; readonly outcome: 'adopted' | 'present' | 'missing' }
  | { readonly kind: 'lookup'; readonly found: boolean };

export interface OrderUpdate {
  readonly order: TrackedOrder;
  /** undefined when the order was just created (submitted or adopted). */
  readonly previousState: TrackedState | undefined;
  readonly cause: UpdateCause;
}

/**
 * How a fill price was obtained.
 * - lastPx: the execution's last_px, whose last_shares equals the cum_qty increase (exact).
 * - levels: the increase of the order's filled quantity per price (exact).
 * - avgPx: reconstructed from avg_px (an estimate; see fill-derivation.ts).
 */
export type FillPriceSource = 'lastPx' | 'levels' | 'avgPx';

export interface Fill {
  /** Unique per fill: the execution id, suffixed `#n` when one increase is split by price. */
  readonly fillId: string;
  readonly clordId: string;
  readonly orderId: string | undefined;
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal;
  readonly price: Decimal;
  /** The exchange's commission for this execution when the fill is exactly that execution; else undefined. */
  readonly fee: Decimal | undefined;
  /** Execution transact time (engine time when the exchange did not give one). */
  readonly time: EpochMs;
  /** undefined when the fill was derived from a snapshot or a lookup. */
  readonly executionId: string | undefined;
  /** True when the bot took liquidity; undefined when unknown (derived from a snapshot or a lookup). */
  readonly aggressor: boolean | undefined;
  readonly priceSource: FillPriceSource;
  readonly intentId: string | undefined;
}

/** Something odd the tracker tolerated; for logs and counters, never thrown. */
export type TrackerIssue =
  | { readonly kind: 'unmatchedCancelReject'; readonly clordId: string; readonly orderId: string }
  | { readonly kind: 'unusableOrder'; readonly orderId: string; readonly clordId: string; readonly reason: string }
  | { readonly kind: 'estimatedFillPrice'; readonly clordId: string; readonly qty: Decimal; readonly price: Decimal }
  | { readonly kind: 'overfill'; readonly clordId: string; readonly filledQty: Decimal; readonly qty: Decimal }
  | { readonly kind: 'orderIdConflict'; readonly clordId: string; readonly known: string; readonly received: string }
  /** An execution for an order that finished and was forgotten (beyond the finished-order history): ignored. */
  | { readonly kind: 'lateExecution'; readonly orderId: string; readonly clordId: string; readonly executionId: string };

/** What the order journal knows of an order an earlier run sent (see `OrderTracker.restored`). */
export interface RestoredHistory {
  /** The exchange order id, when the earlier run learned it. */
  readonly orderId: string | undefined;
  /** ClordIds the order is known by, oldest first: the request's, and the latest replace's when there was one. */
  readonly clordIds: readonly string[];
  /** Filled quantity already seen (and counted) by the earlier run, and its average price. */
  readonly filledQty: Decimal;
  readonly avgPx: Decimal;
}

/** What a local submission carries besides the venue request. */
export interface SubmissionMeta {
  readonly intentId?: string | undefined;
  readonly label?: string | undefined;
  /** Set for the legs of a cross. */
  readonly crossId?: string | undefined;
}

export interface OrderCounts {
  readonly total: number;
  /** Working orders including pending and UNKNOWN ones. */
  readonly open: number;
  readonly byState: Readonly<Record<TrackedState, number>>;
}
