/**
 * Types of the matching engine: the enumerations (spelled exactly as their wire names, so mapping to
 * gateway JSON is the identity), the injected clock, the instrument definition, the requests the engine
 * accepts and the read-only views it returns. Prices and quantities are the wire's scaled integers held in
 * JS safe-integer numbers: a raw price 55 with price_scale 100 is 0.55; a raw quantity is in
 * fractional-quantity units. Nothing here is a float or a Decimal.
 */

/** Injected time source. `now()` returns epoch milliseconds (an integer); the engine never reads the wall clock. */
export interface Clock {
  now(): number;
}

export const Side = { BUY: 'SIDE_BUY', SELL: 'SIDE_SELL' } as const;
export type Side = (typeof Side)[keyof typeof Side];

export const OrderType = {
  UNDEFINED: 'ORDER_TYPE_UNDEFINED',
  LIMIT: 'ORDER_TYPE_LIMIT',
  MARKET_TO_LIMIT: 'ORDER_TYPE_MARKET_TO_LIMIT',
  STOP: 'ORDER_TYPE_STOP',
  STOP_LIMIT: 'ORDER_TYPE_STOP_LIMIT',
} as const;
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

export const TimeInForce = {
  UNDEFINED: 'TIME_IN_FORCE_UNDEFINED',
  DAY: 'TIME_IN_FORCE_DAY',
  GOOD_TILL_CANCEL: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  IMMEDIATE_OR_CANCEL: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  GOOD_TILL_TIME: 'TIME_IN_FORCE_GOOD_TILL_TIME',
  FILL_OR_KILL: 'TIME_IN_FORCE_FILL_OR_KILL',
} as const;
export type TimeInForce = (typeof TimeInForce)[keyof typeof TimeInForce];

export const OrderState = {
  NEW: 'ORDER_STATE_NEW',
  PARTIALLY_FILLED: 'ORDER_STATE_PARTIALLY_FILLED',
  FILLED: 'ORDER_STATE_FILLED',
  CANCELED: 'ORDER_STATE_CANCELED',
  REPLACED: 'ORDER_STATE_REPLACED',
  REJECTED: 'ORDER_STATE_REJECTED',
  EXPIRED: 'ORDER_STATE_EXPIRED',
} as const;
export type OrderState = (typeof OrderState)[keyof typeof OrderState];

export const ExecutionType = {
  NEW: 'EXECUTION_TYPE_NEW',
  PARTIAL_FILL: 'EXECUTION_TYPE_PARTIAL_FILL',
  FILL: 'EXECUTION_TYPE_FILL',
  CANCELED: 'EXECUTION_TYPE_CANCELED',
  REPLACE: 'EXECUTION_TYPE_REPLACE',
  REJECTED: 'EXECUTION_TYPE_REJECTED',
  EXPIRED: 'EXECUTION_TYPE_EXPIRED',
} as const;
export type ExecutionType = (typeof ExecutionType)[keyof typeof ExecutionType];

/** OrdRejectReason. EXCHANGE_OPTION is the proto zero value and appears on ordinary executions too. */
export const OrdRejectReason = {
  EXCHANGE_OPTION: 'ORD_REJECT_REASON_EXCHANGE_OPTION',
  UNKNOWN_SYMBOL: 'ORD_REJECT_REASON_UNKNOWN_SYMBOL',
  EXCHANGE_CLOSED: 'ORD_REJECT_REASON_EXCHANGE_CLOSED',
  INCORRECT_QUANTITY: 'ORD_REJECT_REASON_INCORRECT_QUANTITY',
  INVALID_PRICE_INCREMENT: 'ORD_REJECT_REASON_INVALID_PRICE_INCREMENT',
  INCORRECT_ORDER_TYPE: 'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE',
  PRICE_OUT_OF_BOUNDS: 'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS',
  NO_LIQUIDITY: 'ORD_REJECT_REASON_NO_LIQUIDITY',
} as const;
export type OrdRejectReason = (typeof OrdRejectReason)[keyof typeof OrdRejectReason];

export const CxlRejReason = {
  EXCHANGE_OPTION: 'CXL_REJ_REASON_EXCHANGE_OPTION',
  TOO_LATE_TO_CANCEL: 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL',
  UNKNOWN_ORDER: 'CXL_REJ_REASON_UNKNOWN_ORDER',
  DUPLICATE_CLORD_ID: 'CXL_REJ_REASON_DUPLICATE_CLORD_ID',
  OTHER: 'CXL_REJ_REASON_OTHER',
} as const;
export type CxlRejReason = (typeof CxlRejReason)[keyof typeof CxlRejReason];

export const SelfMatchPrevention = {
  UNDEFINED: 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
  REJECT_AGGRESSOR: 'SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR',
  CANCEL_RESTING: 'SELF_MATCH_PREVENTION_INSTRUCTION_CANCEL_RESTING',
  REMOVE_BOTH: 'SELF_MATCH_PREVENTION_INSTRUCTION_REMOVE_BOTH',
} as const;
export type SelfMatchPrevention = (typeof SelfMatchPrevention)[keyof typeof SelfMatchPrevention];

export const TradeType = { REGULAR: 'TRADE_TYPE_REGULAR', CROSS: 'TRADE_TYPE_CROSS' } as const;
export type TradeType = (typeof TradeType)[keyof typeof TradeType];

/** The wire's trade states; the engine creates trades in NEW (clearing happens elsewhere). */
export const TradeState = {
  NEW: 'TRADE_STATE_NEW',
  CLEARED: 'TRADE_STATE_CLEARED',
  BUSTED: 'TRADE_STATE_BUSTED',
  INFLIGHT: 'TRADE_STATE_INFLIGHT',
  PENDING_RISK: 'TRADE_STATE_PENDING_RISK',
  PENDING_CLEARED: 'TRADE_STATE_PENDING_CLEARED',
  REJECTED: 'TRADE_STATE_REJECTED',
  CLEARING_ACKNOWLEDGED: 'TRADE_STATE_CLEARING_ACKNOWLEDGED',
  RETRY_REQUEST: 'TRADE_STATE_RETRY_REQUEST',
} as const;
export type TradeState = (typeof TradeState)[keyof typeof TradeState];

export const CrossType = { UNDEFINED: 'CROSS_TYPE_UNDEFINED', ALL_OR_NONE: 'CROSS_TYPE_ALL_OR_NONE' } as const;
export type CrossType = (typeof CrossType)[keyof typeof CrossType];

export const InstrumentState = {
  CLOSED: 'INSTRUMENT_STATE_CLOSED',
  OPEN: 'INSTRUMENT_STATE_OPEN',
  PREOPEN: 'INSTRUMENT_STATE_PREOPEN',
  SUSPENDED: 'INSTRUMENT_STATE_SUSPENDED',
  EXPIRED: 'INSTRUMENT_STATE_EXPIRED',
  TERMINATED: 'INSTRUMENT_STATE_TERMINATED',
  HALTED: 'INSTRUMENT_STATE_HALTED',
  MATCH_AND_CLOSE_AUCTION: 'INSTRUMENT_STATE_MATCH_AND_CLOSE_AUCTION',
  PENDING: 'INSTRUMENT_STATE_PENDING',
} as const;
export type InstrumentState = (typeof InstrumentState)[keyof typeof InstrumentState];

/** What the engine needs to know about an instrument. All prices raw (scaled) integers. */
export interface InstrumentDefinition {
  symbol: string;
  /** Price increment in raw price units (a valid price is a multiple of it). */
  tickSize: number;
  /** Quantity increment in raw quantity units (a valid quantity is a positive multiple of it). */
  lotSize: number;
  /** Lowest and highest accepted limit/stop price, raw, inclusive; 0 <= low <= high. */
  priceLimitLow: number;
  priceLimitHigh: number;
  /** The wire's price_scale: settlement is at 0 or at priceScale raw (0.00 or 1.00). */
  priceScale: number;
  /**
   * Largest order quantity accepted. Defaults to floor(MAX_SAFE_INTEGER / max(priceLimitHigh, 1)) so that
   * an order's cumulative notional (sum of price x qty) always stays a safe integer; a larger value is refused.
   */
  maxOrderQty?: number;
  /** Initial state; defaults to OPEN. */
  state?: InstrumentState;
}

/** A new order. Optional fields default as documented; enum zero values (UNDEFINED) mean "absent". */
export interface OrderRequest {
  symbol: string;
  side: Side;
  type: OrderType;
  /** Raw quantity; a positive multiple of the instrument's lot. */
  orderQty: number;
  /** Raw limit price; required for LIMIT and STOP_LIMIT, refused for MARKET_TO_LIMIT and STOP. */
  price?: number;
  /** Raw stop price; required for STOP and STOP_LIMIT only. */
  stopPrice?: number;
  timeInForce?: TimeInForce;
  /** Epoch ms; required (and only allowed) with GOOD_TILL_TIME. */
  goodTillTime?: number;
  /** Minimum quantity that must execute on entry, else the order is cancelled unexecuted. */
  minQty?: number;
  allOrNone?: boolean;
  participateDontInitiate?: boolean;
  account: string;
  clordId?: string;
  participant?: string;
  selfMatchPreventionId?: string;
  selfMatchPreventionInstruction?: SelfMatchPrevention;
  /** Carried on the order for the portfolio's fee computation; the engine does not compute fees. */
  commissionBasisPoints?: number;
  makerCommissionBasisPoints?: number;
  /** Opaque value carried unchanged on every execution of the order (e.g. wire-only fields). */
  tag?: unknown;
}

/** Identify an order by its exchange id, or by (account, clordId) of a working order. */
export interface OrderRef {
  orderId?: string;
  account?: string;
  clordId?: string;
  /** When given, must match the order's symbol (else UNKNOWN_ORDER). */
  symbol?: string;
}

export interface CancelRequest extends OrderRef {
  /** Client id of the cancel request itself, echoed on a cancel reject. */
  cancelClordId?: string;
}

export interface ReplaceRequest extends OrderRef {
  /** New client order id of the replaced order; the previous one becomes orig_clord_id. */
  newClordId?: string;
  price?: number;
  stopPrice?: number;
  /** New total order quantity (including what has already filled). */
  orderQty?: number;
  timeInForce?: TimeInForce;
  goodTillTime?: number;
}

export interface CrossRequest {
  crossId: string;
  crossType?: CrossType;
  /** Side whose leg goes to the book first (see cross.ts); absent or SIDE_UNDEFINED = neither. */
  crossPrioritizedSide?: Side | 'SIDE_UNDEFINED';
  /** Exactly two LIMIT requests, opposite sides, same symbol, price and quantity. */
  requests: readonly OrderRequest[];
}

export interface MassCancelRequest {
  account?: string;
  symbol?: string;
}

export interface OpenOrdersFilter {
  account?: string;
  symbol?: string;
}

/** One aggregated price level. */
export interface DepthLevel {
  readonly price: number;
  readonly qty: number;
}

/** Aggregated book: bids by price descending, offers ascending. */
export interface Depth {
  readonly symbol: string;
  readonly bids: DepthLevel[];
  readonly offers: DepthLevel[];
}

/** Best bid and offer; a missing side is undefined. */
export interface Bbo {
  readonly symbol: string;
  readonly bid: DepthLevel | undefined;
  readonly offer: DepthLevel | undefined;
}

/** Read-only view of one instrument's book. */
export interface BookView {
  readonly symbol: string;
  readonly state: InstrumentState;
  depth(levels?: number): Depth;
  bbo(): Bbo;
  lastTradePrice(): number | undefined;
  /** True when the best bid is >= the best offer (only possible outside OPEN). */
  isCrossed(): boolean;
  /** Number of orders resting on the book (stop orders excluded). */
  orderCount(): number;
}

/** A point-in-time copy of an instrument's definition and status. */
export interface InstrumentInfo extends Required<Omit<InstrumentDefinition, 'state'>> {
  readonly state: InstrumentState;
  readonly lastTradePrice: number | undefined;
  readonly settlementPrice: number | undefined;
}
