/**
 * Public API of the engine's order tracking: the OrderTracker, its events and views, the pure state and
 * fill-derivation rules (exported for tests and for the backtest's reports) and its error codes.
 */
export { OrderTracker, type OrderTrackerOptions } from './tracker.ts';
export { OrderTrackerErrorCode } from './errors.ts';
export { isOpen, isTerminal } from './states.ts';
export { deriveFills, type DerivedFill, type FillBasis, type FillEvidence } from './fill-derivation.ts';
export type {
  Fill,
  FillPriceSource,
  OrderCounts,
  OrderUpdate,
  PendingReplace,
  RestoredHistory,
  SubmissionMeta,
  TerminalState,
  TrackedOrder,
  TrackedState,
  TrackerIssue,
  UpdateCause,
} from './types.ts';
export { TRACKED_STATES } from './types.ts';
export { atWorstTerms, worstTerms, type OrderTerms } from './worst-terms.ts';
export { standingOf, type ReleasedRequests, type Standing } from './in-flight.ts';
