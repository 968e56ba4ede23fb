/**
 * The risk layer's verdicts. `Approved<T>` is a branded type that only this module can mint, so code that
 * skips risk does not compile: the execution adapter accepts `Approved<Intent>` only. A refusal is data
 * (`Refused`), with a stable `code` that strategies, logs and reports count.
 */
import type { Intent } from '../intents.ts';

declare const approvedBrand: unique symbol;

export type Approved<T extends Intent = Intent> = T & {
  readonly [approvedBrand]: true;
  /**
   * Self-match prevention (`selfMatch.action: cancelResting`): client order ids of the bot's resting orders
   * this order would trade against. Their cancels are approved before it; the execution adapter keeps the
   * order from the venue until every one of them is confirmed finished.
   */
  readonly afterCancelOf?: readonly string[];
};

export const REFUSAL_CODES = [
  'RISK_MAX_ORDER_QTY',
  'RISK_MAX_ORDER_NOTIONAL',
  'RISK_MAX_POSITION',
  'RISK_MAX_EVENT_POSITION',
  'RISK_MAX_OPEN_ORDERS',
  'RISK_ORDER_RATE',
  'RISK_PRICE_BAND',
  'RISK_PRICE_LIMITS',
  'RISK_TICK_SIZE',
  'RISK_MIN_QTY',
  'RISK_LOT_SIZE',
  'RISK_NO_REFERENCE_PRICE',
  'RISK_DAILY_LOSS',
  'RISK_SELF_MATCH',
  'RISK_TRADING_HALTED',
  'RISK_TRADING_REDUCING',
  'RISK_UNKNOWN_SYMBOL',
  'RISK_UNKNOWN_ORDER',
  'RISK_INVALID_INTENT',
  'RISK_CROSS_UNSUPPORTED',
  'RISK_CHECK_FAILED',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface Refused<T extends Intent = Intent> {
  readonly kind: 'refused';
  readonly intent: T;
  readonly code: RefusalCode;
  /** What was wrong and what limit it hit, e.g. "position 12 would exceed maxPosition 10". */
  readonly message: string;
}

export type Verdict<T extends Intent = Intent> = { readonly kind: 'approved'; readonly intent: Approved<T> } | Refused<T>;

/** Mints an approval (of an order that must wait for the cancels of `afterCancelOf`). Only the risk layer calls this. */
export function approve<T extends Intent>(intent: T, afterCancelOf: readonly string[] = []): Approved<T> {
  if (afterCancelOf.length === 0) return intent as Approved<T>;
  return { ...intent, afterCancelOf: Object.freeze([...afterCancelOf]) } as Approved<T>;
}

export function refuse<T extends Intent>(intent: T, code: RefusalCode, message: string): Refused<T> {
  return { kind: 'refused', intent, code, message };
}
