/**
 * Domain types of fills and their records: Execution (with its Order and leg prices), Trade (an
 * aggressor and a passive execution) and the cancel reject of the order stream.
 */
import type { Decimal } from '../decimal.ts';
import type { CxlRejReason, ExecutionType, OrdRejectReason, Side, TradeState, TradeType, UnsolicitedCxlReason } from '../enums.ts';
import type { EpochMs, ProtoDate } from '../time.ts';
import type { JsonObject } from './common.ts';
import type { Order } from './order.ts';

export interface LegPrice {
  readonly symbol: string;
  readonly anchor: boolean;
  readonly px: Decimal;
  readonly qty: Decimal;
  readonly referencePx: Decimal;
  /** A Side enum in the gateway; a plain string in family A (we accept `SIDE_BUY` or `BUY`). */
  readonly side: Side;
}

export interface Execution {
  readonly id: string;
  readonly tradeId: string;
  readonly traceId: string;
  /** The reason text when `type` is EXECUTION_TYPE_REJECTED. */
  readonly text: string;
  /** The order after this execution (required: an execution without its order is refused). */
  readonly order: Order;
  readonly lastPx: Decimal;
  readonly lastShares: Decimal;
  /** Scaled by price_scale × fractional_quantity_scale on the wire. */
  readonly commissionNotionalCollected: Decimal;
  readonly commissionSpreadPx: Decimal;
  readonly aggressor: boolean;
  readonly type: ExecutionType;
  /** Zero value ORD_REJECT_REASON_EXCHANGE_OPTION appears on ordinary executions; look at `type`. */
  readonly orderRejectReason: OrdRejectReason;
  readonly unsolicitedCancelReason: UnsolicitedCxlReason;
  readonly transactTime: EpochMs | undefined;
  readonly transactTradeDate: ProtoDate | undefined;
  readonly legPrices: readonly LegPrice[];
}

export interface Trade {
  /** A busted trade is sent again with the same id; the later record supersedes the earlier one. */
  readonly id: string;
  readonly aggressor: Execution;
  readonly passive: Execution;
  readonly tradeType: TradeType;
  readonly state: TradeState;
  readonly reportingCounterparty: Side;
  readonly text: string;
  readonly tradeLinkId: string;
  readonly metadata: JsonObject;
}

export interface CancelReject {
  readonly clordId: string;
  readonly orderId: string;
  readonly text: string;
  readonly isReplace: boolean;
  readonly rejectReason: CxlRejReason;
  readonly transactTime: EpochMs | undefined;
}
