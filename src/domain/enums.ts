/**
 * Every exchange enumeration as a const array (in proto order) plus a string-literal union.
 *
 * Names are the full proto names, in the wire and in the domain alike (`SIDE_BUY`, not `BUY`).
 * The array index is the proto number: the first entry is the zero value, which proto3 JSON omits, so a
 * missing field decodes to it (a missing `side` is `SIDE_UNDEFINED`). Numbering follows the order listed
 * in EXCHANGE_API_NOTES.md; the real numbers are not public, so encoders always write names and numbers
 * are only accepted on input. Where the spec names an UNDEFINED value that the notes omit
 * (ORDER_CAPACITY_UNDEFINED), it is the zero value. Business defaults (DAY when time in force is
 * UNDEFINED) belong to business logic, not to decoding.
 * KYC status and decision are plain strings of family A, not proto enums (no prefix, no numbers).
 */

export const SIDES = ['SIDE_UNDEFINED', 'SIDE_BUY', 'SIDE_SELL'] as const;
export type Side = (typeof SIDES)[number];

export const ORDER_TYPES = [
  'ORDER_TYPE_UNDEFINED',
  'ORDER_TYPE_MARKET_TO_LIMIT',
  'ORDER_TYPE_LIMIT',
  'ORDER_TYPE_STOP',
  'ORDER_TYPE_STOP_LIMIT',
] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const TIME_IN_FORCES = [
  'TIME_IN_FORCE_UNDEFINED',
  'TIME_IN_FORCE_DAY',
  'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  'TIME_IN_FORCE_GOOD_TILL_TIME',
  'TIME_IN_FORCE_FILL_OR_KILL',
] as const;
export type TimeInForce = (typeof TIME_IN_FORCES)[number];

export const ORDER_STATES = [
  'ORDER_STATE_NEW',
  'ORDER_STATE_PARTIALLY_FILLED',
  'ORDER_STATE_FILLED',
  'ORDER_STATE_CANCELED',
  'ORDER_STATE_REPLACED',
  'ORDER_STATE_REJECTED',
  'ORDER_STATE_EXPIRED',
  'ORDER_STATE_PENDING_NEW',
  'ORDER_STATE_PENDING_REPLACE',
  'ORDER_STATE_PENDING_CANCEL',
  'ORDER_STATE_PENDING_RISK',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const EXECUTION_TYPES = [
  'EXECUTION_TYPE_NEW',
  'EXECUTION_TYPE_PARTIAL_FILL',
  'EXECUTION_TYPE_FILL',
  'EXECUTION_TYPE_CANCELED',
  'EXECUTION_TYPE_REPLACE',
  'EXECUTION_TYPE_REJECTED',
  'EXECUTION_TYPE_EXPIRED',
  'EXECUTION_TYPE_DONE_FOR_DAY',
] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];

/** Zero value EXCHANGE_OPTION also appears on ordinary executions; only EXECUTION_TYPE_REJECTED is a rejection. */
export const ORD_REJECT_REASONS = [
  'ORD_REJECT_REASON_EXCHANGE_OPTION',
  'ORD_REJECT_REASON_UNKNOWN_SYMBOL',
  'ORD_REJECT_REASON_EXCHANGE_CLOSED',
  'ORD_REJECT_REASON_INCORRECT_QUANTITY',
  'ORD_REJECT_REASON_INVALID_PRICE_INCREMENT',
  'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE',
  'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS',
  'ORD_REJECT_REASON_NO_LIQUIDITY',
] as const;
export type OrdRejectReason = (typeof ORD_REJECT_REASONS)[number];

export const UNSOLICITED_CXL_REASONS = [
  'UNSOLICITED_CXL_REASON_UNDEFINED',
  'UNSOLICITED_CXL_REASON_CONNECTION_LOSS',
  'UNSOLICITED_CXL_REASON_LOGOUT',
  'UNSOLICITED_CXL_REASON_EXCHANGE_OPTION',
  'UNSOLICITED_CXL_REASON_OTHER',
] as const;
export type UnsolicitedCxlReason = (typeof UNSOLICITED_CXL_REASONS)[number];

/** FIX-derived (our decision; the notes list these values). */
export const CXL_REJ_REASONS = [
  'CXL_REJ_REASON_EXCHANGE_OPTION',
  'CXL_REJ_REASON_TOO_LATE_TO_CANCEL',
  'CXL_REJ_REASON_UNKNOWN_ORDER',
  'CXL_REJ_REASON_DUPLICATE_CLORD_ID',
  'CXL_REJ_REASON_OTHER',
] as const;
export type CxlRejReason = (typeof CXL_REJ_REASONS)[number];

export const CONDITION_TRIGGER_METHODS = [
  'CONDITION_TRIGGER_METHOD_UNDEFINED',
  'CONDITION_TRIGGER_METHOD_LAST_PRICE',
  'CONDITION_TRIGGER_METHOD_SETTLEMENT_PRICE',
] as const;
export type ConditionTriggerMethod = (typeof CONDITION_TRIGGER_METHODS)[number];

export const SELF_MATCH_PREVENTION_INSTRUCTIONS = [
  'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
  'SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR',
  'SELF_MATCH_PREVENTION_INSTRUCTION_CANCEL_RESTING',
  'SELF_MATCH_PREVENTION_INSTRUCTION_REMOVE_BOTH',
] as const;
export type SelfMatchPreventionInstruction = (typeof SELF_MATCH_PREVENTION_INSTRUCTIONS)[number];

export const ORDER_CAPACITIES = [
  'ORDER_CAPACITY_UNDEFINED',
  'ORDER_CAPACITY_AGENCY',
  'ORDER_CAPACITY_PRINCIPAL',
  'ORDER_CAPACITY_PROPRIETARY',
  'ORDER_CAPACITY_INDIVIDUAL',
  'ORDER_CAPACITY_RISKLESS_PRINCIPAL',
  'ORDER_CAPACITY_AGENT_FOR_OTHER_MEMBER',
] as const;
export type OrderCapacity = (typeof ORDER_CAPACITIES)[number];

export const MANUAL_ORDER_INDICATORS = [
  'MANUAL_ORDER_INDICATOR_UNDEFINED',
  'MANUAL_ORDER_INDICATOR_MANUAL',
  'MANUAL_ORDER_INDICATOR_AUTOMATED',
] as const;
export type ManualOrderIndicator = (typeof MANUAL_ORDER_INDICATORS)[number];

export const TRADE_TYPES = [
  'TRADE_TYPE_UNDEFINED',
  'TRADE_TYPE_REGULAR',
  'TRADE_TYPE_REQUEST_FOR_QUOTE',
  'TRADE_TYPE_BLOCK',
  'TRADE_TYPE_CROSS',
] as const;
export type TradeType = (typeof TRADE_TYPES)[number];

export const TRADE_STATES = [
  'TRADE_STATE_UNDEFINED',
  'TRADE_STATE_NEW',
  'TRADE_STATE_CLEARED',
  'TRADE_STATE_BUSTED',
  'TRADE_STATE_INFLIGHT',
  'TRADE_STATE_PENDING_RISK',
  'TRADE_STATE_PENDING_CLEARED',
  'TRADE_STATE_REJECTED',
  'TRADE_STATE_CLEARING_ACKNOWLEDGED',
  'TRADE_STATE_RETRY_REQUEST',
] as const;
export type TradeState = (typeof TRADE_STATES)[number];

/** Zero value is CLOSED. */
export const INSTRUMENT_STATES = [
  'INSTRUMENT_STATE_CLOSED',
  'INSTRUMENT_STATE_OPEN',
  'INSTRUMENT_STATE_PREOPEN',
  'INSTRUMENT_STATE_SUSPENDED',
  'INSTRUMENT_STATE_EXPIRED',
  'INSTRUMENT_STATE_TERMINATED',
  'INSTRUMENT_STATE_HALTED',
  'INSTRUMENT_STATE_MATCH_AND_CLOSE_AUCTION',
  'INSTRUMENT_STATE_PENDING',
] as const;
export type InstrumentState = (typeof INSTRUMENT_STATES)[number];

export const CROSS_TYPES = ['CROSS_TYPE_UNDEFINED', 'CROSS_TYPE_ALL_OR_NONE'] as const;
export type CrossType = (typeof CROSS_TYPES)[number];

/** Known KYC statuses; receivers must cope with any other string, which is kept as-is. */
export const KYC_STATUSES = ['NOT_STARTED', 'OPEN', 'ON_HOLD', 'CLOSED'] as const;
export type KnownKycStatus = (typeof KYC_STATUSES)[number];
// `string & {}` keeps editor completion for the known values while allowing any string.
export type KycStatus = KnownKycStatus | (string & {});

/** Known KYC decisions ('' means no decision yet); like statuses, any other string is kept as-is. */
export const KYC_DECISIONS = ['', 'ACCEPT', 'REJECT', 'REVIEW'] as const;
export type KnownKycDecision = (typeof KYC_DECISIONS)[number];
export type KycDecision = KnownKycDecision | (string & {});

/** Membership test usable as a type guard, e.g. `isMember(SIDES, x)`. */
export function isMember<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

export function isKnownKycStatus(status: string): status is KnownKycStatus {
  return isMember(KYC_STATUSES, status);
}

export function isKnownKycDecision(decision: string): decision is KnownKycDecision {
  return isMember(KYC_DECISIONS, decision);
}

/** The proto number of an enum value (its index), or -1. */
export function enumNumber<T extends string>(values: readonly T[], value: T): number {
  return values.indexOf(value);
}

/** The matching rule from the notes: an absent (UNDEFINED) time in force means DAY. Decoding keeps UNDEFINED. */
export function effectiveTimeInForce(timeInForce: TimeInForce): TimeInForce {
  return timeInForce === 'TIME_IN_FORCE_UNDEFINED' ? 'TIME_IN_FORCE_DAY' : timeInForce;
}
