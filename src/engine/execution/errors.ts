/**
 * Why the execution adapter did not send an approved order. These reach the OrderTracker as the order's
 * send failure (kind `rejection`: the exchange never saw the order, so it is REJECTED locally, not UNKNOWN)
 * and the strategy as the order's update. Stable codes.
 */
import { TradebotError } from '../../errors.ts';

export const ExecutionErrorCode = {
  /** The strategy (or a cancelAll, or the stop) cancelled the order before it left the adapter. */
  CANCELLED_BEFORE_SENT: 'EXECUTION_CANCELLED_BEFORE_SENT',
  /**
   * Self-match prevention: the bot's own resting order this order would trade against is working again
   * (its cancel failed or was rejected), so the order was not sent.
   */
  SELF_MATCH_CANCEL_FAILED: 'EXECUTION_SELF_MATCH_CANCEL_FAILED',
  /** A replace of an order that finished, or whose state is unknown (probably just finished), was not sent. */
  ORDER_NOT_WORKING: 'EXECUTION_ORDER_NOT_WORKING',
  /**
   * A replace waiting for its order's acknowledgement was taken over by a later replace of the order (which
   * keeps the changes it does not make itself): only that one is sent.
   */
  REPLACE_MERGED: 'EXECUTION_REPLACE_MERGED',
  /**
   * The request waited for the message budget (risk.maxMessagesPerSecond) longer than risk.maxQueueAgeMs and
   * was not sent; the strategy is told RISK_ORDER_RATE and decides again.
   */
  THROTTLE_EXPIRED: 'EXECUTION_THROTTLE_EXPIRED',
} as const;

export type ExecutionErrorCode = (typeof ExecutionErrorCode)[keyof typeof ExecutionErrorCode];

export function notSent(code: ExecutionErrorCode, message: string, details: Record<string, unknown>): TradebotError {
  return new TradebotError(code, message, { kind: 'rejection', details });
}
