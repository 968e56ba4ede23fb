/**
 * Domain types of trading commands and their responses: order request (insert / preview / cross legs),
 * cancel, cancel-replace, cross, list variants, and the small id responses.
 * Business rules (exactly 2 orders per cross, at most 20 per list, DAY when time in force is
 * UNDEFINED) are not enforced here; see limits.ts for the numbers.
 */
import type { Decimal } from '../decimal.ts';
import type {
  ConditionTriggerMethod,
  CrossType,
  ManualOrderIndicator,
  OrderCapacity,
  OrderType,
  SelfMatchPreventionInstruction,
  Side,
  TimeInForce,
} from '../enums.ts';
import type { EpochMs } from '../time.ts';
import type { Order } from './order.ts';

export interface OrderRequest {
  readonly account: string;
  readonly clientAccountId: string;
  readonly clientParticipantId: string;
  readonly clordId: string;
  readonly symbol: string;
  readonly symbolSubType: string;
  readonly quote: string;
  readonly sessionId: string;
  readonly user: string;
  readonly selfMatchPreventionId: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly triggerMethod: ConditionTriggerMethod;
  readonly manualOrderIndicator: ManualOrderIndicator;
  readonly orderCapacity: OrderCapacity;
  readonly selfMatchPreventionInstruction: SelfMatchPreventionInstruction;
  readonly orderQty: Decimal;
  /** Money: scaled by price_scale × fractional_quantity_scale (our decision). */
  readonly cashOrderQty: Decimal;
  readonly minQty: Decimal;
  readonly price: Decimal;
  readonly stopPrice: Decimal;
  /** Plain decimal basis points; undefined = no override (absent or "" on the wire). */
  readonly commissionOverrideBasisPoints: Decimal | undefined;
  /** Money scaled like commissions; undefined = no override. */
  readonly commissionOverrideFlatFee: Decimal | undefined;
  readonly goodTillTime: EpochMs | undefined;
  readonly allOrNone: boolean;
  readonly bestLimit: boolean;
  readonly ignorePriceValidityChecks: boolean;
  readonly immediatelyExecutableLimit: boolean;
  readonly participateDontInitiate: boolean;
  readonly strictLimit: boolean;
}

/** Gateway insert_order answer (`order_id`, `clord_id`, `status`); family A returns only `orderId`. */
export interface InsertOrderResponse {
  readonly orderId: string;
  readonly clordId: string;
  readonly status: string;
}

export interface InsertOrderListRequest {
  readonly requests: readonly OrderRequest[];
}

export interface OrderIdResponse {
  readonly orderId: string;
}

/** insert_order_list and insert_order_cross answers: `{responses: [{order_id}]}`. */
export interface OrderIdsResponse {
  readonly responses: readonly OrderIdResponse[];
}

export interface PreviewOrderRequest {
  readonly request: OrderRequest;
}

export interface PreviewOrderResponse {
  readonly previewOrder: Order;
}

export interface CancelOrderRequest {
  readonly orderId: string;
  readonly symbol: string;
  readonly clordId: string;
  readonly symbolSubType: string;
}

export interface CancelOrderListRequest {
  readonly requests: readonly CancelOrderRequest[];
}

/** cancel_replace_order: the order to replace and its new terms (our field choice; the notes end in "..."). */
export interface ReplaceOrderRequest {
  readonly orderId: string;
  readonly symbol: string;
  readonly clordId: string;
  readonly symbolSubType: string;
  readonly orderQty: Decimal;
  readonly price: Decimal;
  readonly stopPrice: Decimal;
  readonly minQty: Decimal;
  readonly timeInForce: TimeInForce;
  readonly goodTillTime: EpochMs | undefined;
  readonly allOrNone: boolean;
}

export interface ReplaceOrderListRequest {
  readonly requests: readonly ReplaceOrderRequest[];
}

export interface CrossOrderRequest {
  readonly crossId: string;
  readonly crossType: CrossType;
  readonly crossPrioritizedSide: Side;
  readonly blockTradeIndicator: boolean;
  /** Exactly two on the exchange (not checked by the decoder). */
  readonly requests: readonly OrderRequest[];
  readonly transactionBookedTime: EpochMs | undefined;
}
