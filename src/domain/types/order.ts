/**
 * Domain types of an order as the exchange reports it (gateway Order / family A order).
 *
 * Prices and quantities are `Decimal` (already divided by the instrument scales); times are EpochMs
 * (undefined when the wire omits them); enums keep their full proto names and their zero value when
 * absent. The wire's `price_scale` / `fractional_quantity_scale` are not domain fields: the mappers check
 * them against the instrument scales and write them back when encoding.
 */
import type { Decimal } from '../decimal.ts';
import type {
  ConditionTriggerMethod,
  ManualOrderIndicator,
  OrderCapacity,
  OrderState,
  OrderType,
  SelfMatchPreventionInstruction,
  Side,
  TimeInForce,
} from '../enums.ts';
import type { EpochMs } from '../time.ts';
import type { JsonObject, PriceQty } from './common.ts';

export interface FixContext {
  readonly beginString: string;
  readonly onBehalfOfCompId: string;
  readonly onBehalfOfSubId: string;
  readonly origClordId: string;
  readonly securityType: string;
  readonly senderCompId: string;
  readonly senderLocationId: string;
  readonly senderSubId: string;
  readonly targetCompId: string;
  readonly targetLocationId: string;
  readonly targetSubId: string;
}

export interface OrderContext {
  /** proto Any, kept as received (`@type` plus payload). */
  readonly anyContext: JsonObject | undefined;
  readonly fixContext: FixContext | undefined;
  readonly serviceName: string;
  readonly validationContexts: readonly JsonObject[];
}

export interface Order {
  readonly id: string;
  readonly clordId: string;
  readonly crossId: string;
  readonly hostCrossId: string;
  readonly parentOrderId: string;
  readonly lastTradeId: string;
  /** `firms/<firm_id>/accounts/<account_id>` */
  readonly account: string;
  readonly clientAccountId: string;
  readonly clientParticipantId: string;
  readonly participant: string;
  readonly submittingParticipant: string;
  readonly symbol: string;
  readonly symbolSubType: string;
  readonly collateralMemo: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly state: OrderState;
  readonly triggerMethod: ConditionTriggerMethod;
  readonly manualOrderIndicator: ManualOrderIndicator;
  readonly orderCapacity: OrderCapacity;
  readonly selfMatchPreventionInstruction: SelfMatchPreventionInstruction;
  readonly orderQty: Decimal;
  /** A money amount: scaled by price_scale × fractional_quantity_scale on the wire (our decision). */
  readonly cashOrderQty: Decimal;
  readonly minQty: Decimal;
  readonly cumQty: Decimal;
  readonly leavesQty: Decimal;
  readonly price: Decimal;
  readonly stopPrice: Decimal;
  /** Encoded rounded half-even to the price scale (an average need not be on the scale). */
  readonly avgPx: Decimal;
  /** Opaque int64 string as received. */
  readonly priorityWeight: string;
  /** Plain decimal strings on the wire (basis points are not scaled). */
  readonly commissionsBasisPoints: Decimal;
  readonly makerCommissionsBasisPoints: Decimal;
  /** Scaled by price_scale × fractional_quantity_scale on the wire. */
  readonly commissionNotionalTotalCollected: Decimal;
  /** Filled quantity per price, ascending by price (a JSON map keyed by raw price on the wire). */
  readonly priceToQuantityFilled: readonly PriceQty[];
  readonly allOrNone: boolean;
  readonly bestLimit: boolean;
  readonly blockTradeIndicator: boolean;
  readonly ignorePriceValidityChecks: boolean;
  readonly immediatelyExecutableLimit: boolean;
  readonly participateDontInitiate: boolean;
  readonly strictLimit: boolean;
  readonly createTime: EpochMs | undefined;
  readonly insertTime: EpochMs | undefined;
  readonly goodTillTime: EpochMs | undefined;
  readonly lastTransactTime: EpochMs | undefined;
  readonly riskCheckTime: EpochMs | undefined;
  readonly transactionBookedTime: EpochMs | undefined;
  readonly context: OrderContext | undefined;
}
