/**
 * Field tables of orders and order requests (one table drives both wire families).
 * Order scales come from its symbol; the gateway also repeats `price_scale` and
 * `fractional_quantity_scale` on each order, which are checked against the instrument (or used when the
 * symbol's scales are unknown) and written back when encoding.
 */
import {
  CONDITION_TRIGGER_METHODS,
  MANUAL_ORDER_INDICATORS,
  ORDER_CAPACITIES,
  ORDER_STATES,
  ORDER_TYPES,
  SELF_MATCH_PREVENTION_INSTRUCTIONS,
  SIDES,
  TIME_IN_FORCES,
} from '../../enums.ts';
import type { FixContext, Order, OrderContext } from '../../types/order.ts';
import type { OrderRequest } from '../../types/requests.ts';
import { message, optMsg } from '../codec.ts';
import { avgPrice, bool, commission, dec, enumOf, json, list, optJson, optional, price, priceQtyMap, qty, str, time } from '../fields.ts';

export const fixContextCodec = message<FixContext>({
  name: 'FixContext',
  fields: {
    beginString: str(),
    onBehalfOfCompId: str(),
    onBehalfOfSubId: str(),
    origClordId: str(),
    securityType: str(),
    senderCompId: str(),
    senderLocationId: str(),
    senderSubId: str(),
    targetCompId: str(),
    targetLocationId: str(),
    targetSubId: str(),
  },
});

export const orderContextCodec = message<OrderContext>({
  name: 'OrderContext',
  fields: {
    anyContext: optJson(),
    fixContext: optMsg(fixContextCodec),
    serviceName: str(),
    validationContexts: list(json()),
  },
});

/** Shared enum field codecs (also used by requests). */
export const sideField = enumOf(SIDES, 'Side');
export const orderTypeField = enumOf(ORDER_TYPES, 'OrderType');
export const timeInForceField = enumOf(TIME_IN_FORCES, 'TimeInForce');
export const triggerMethodField = enumOf(CONDITION_TRIGGER_METHODS, 'ConditionTriggerMethod');
export const manualOrderIndicatorField = enumOf(MANUAL_ORDER_INDICATORS, 'ManualOrderIndicator');
export const orderCapacityField = enumOf(ORDER_CAPACITIES, 'OrderCapacity');
export const smpInstructionField = enumOf(SELF_MATCH_PREVENTION_INSTRUCTIONS, 'SelfMatchPreventionInstruction');

export const orderCodec = message<Order>({
  name: 'Order',
  scope: { symbolAt: ['symbol'], echo: { price: 'priceScale', qty: 'fractionalQuantityScale' } },
  fields: {
    id: str(),
    clordId: str(),
    crossId: str(),
    hostCrossId: str(),
    parentOrderId: str(),
    lastTradeId: str(),
    account: str(),
    clientAccountId: str(),
    clientParticipantId: str(),
    participant: str(),
    submittingParticipant: str(),
    symbol: str(),
    symbolSubType: str(),
    collateralMemo: str(),
    side: sideField,
    type: orderTypeField,
    timeInForce: timeInForceField,
    state: enumOf(ORDER_STATES, 'OrderState'),
    triggerMethod: triggerMethodField,
    manualOrderIndicator: manualOrderIndicatorField,
    orderCapacity: orderCapacityField,
    selfMatchPreventionInstruction: smpInstructionField,
    orderQty: qty(),
    cashOrderQty: commission(),
    minQty: qty(),
    cumQty: qty(),
    leavesQty: qty(),
    price: price(),
    stopPrice: price(),
    avgPx: avgPrice(),
    priorityWeight: str(),
    commissionsBasisPoints: dec(),
    makerCommissionsBasisPoints: dec(),
    commissionNotionalTotalCollected: commission(),
    priceToQuantityFilled: priceQtyMap(),
    allOrNone: bool(),
    bestLimit: bool(),
    blockTradeIndicator: bool(),
    ignorePriceValidityChecks: bool(),
    immediatelyExecutableLimit: bool(),
    participateDontInitiate: bool(),
    strictLimit: bool(),
    createTime: time(),
    insertTime: time(),
    goodTillTime: time(),
    lastTransactTime: time(),
    riskCheckTime: time(),
    transactionBookedTime: time(),
    context: optMsg(orderContextCodec),
  },
});

export const orderRequestCodec = message<OrderRequest>({
  name: 'OrderRequest',
  scope: { symbolAt: ['symbol'] },
  fields: {
    account: str(),
    clientAccountId: str(),
    clientParticipantId: str(),
    clordId: str(),
    symbol: str(),
    symbolSubType: str(),
    quote: str(),
    sessionId: str(),
    user: str(),
    selfMatchPreventionId: str(),
    side: sideField,
    type: orderTypeField,
    timeInForce: timeInForceField,
    triggerMethod: triggerMethodField,
    manualOrderIndicator: manualOrderIndicatorField,
    orderCapacity: orderCapacityField,
    selfMatchPreventionInstruction: smpInstructionField,
    orderQty: qty(),
    cashOrderQty: commission(),
    minQty: qty(),
    price: price(),
    stopPrice: price(),
    commissionOverrideBasisPoints: optional(dec()),
    commissionOverrideFlatFee: optional(commission()),
    goodTillTime: time(),
    allOrNone: bool(),
    bestLimit: bool(),
    ignorePriceValidityChecks: bool(),
    immediatelyExecutableLimit: bool(),
    participateDontInitiate: bool(),
    strictLimit: bool(),
  },
});
