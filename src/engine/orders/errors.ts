/**
 * Errors the OrderTracker throws on misuse of its local inputs (programming errors of the caller, never
 * exchange data: odd exchange data is tolerated and reported as a TrackerIssue). Stable codes.
 */
import { TradebotError } from '../../errors.ts';

export const OrderTrackerErrorCode = {
  /** `submitted` with a clordId the tracker already knows (as a current id or an alias). */
  DUPLICATE_CLORD_ID: 'ORDER_TRACKER_DUPLICATE_CLORD_ID',
  /** A local input named a clordId the tracker has never seen. */
  UNKNOWN_ORDER: 'ORDER_TRACKER_UNKNOWN_ORDER',
  /** A submission the tracker cannot represent (side or quantity invalid). */
  INVALID_SUBMISSION: 'ORDER_TRACKER_INVALID_SUBMISSION',
} as const;

export type OrderTrackerErrorCode = (typeof OrderTrackerErrorCode)[keyof typeof OrderTrackerErrorCode];

export function orderTrackerError(code: OrderTrackerErrorCode, message: string, details: Record<string, unknown>): TradebotError {
  return new TradebotError(code, message, { kind: 'validation', details });
}
