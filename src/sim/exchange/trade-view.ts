/**
 * A trade as one firm may see it (trade searches of every door, the trade capture stream): its own side in
 * full, and of the other firm's side only what the tape needs: the fill's price, quantity and time, the order's
 * symbol and side, the trade id. Nothing that identifies the other firm or its order is kept: no account,
 * participant, clord_id, order id, execution id, cross id, client ids, the order's terms or its state. The
 * trade's own fields stay (id, type, state, aggressor side); its `trade_link_id` only when it comes from the
 * viewer's side (it is a client-assigned cross id). Ownership is by firm: `firms/<f>/accounts/...`.
 */
import { ZERO } from '../../domain/decimal.ts';
import type { InstrumentScales } from '../../domain/scales.ts';
import type { Execution as DomainExecution, Trade as DomainTrade } from '../../domain/types/execution.ts';
import type { Order } from '../../domain/types/order.ts';
import type { Execution, Trade } from '../matching/index.ts';
import { firmOf } from '../gateway/user-store.ts';
import { domainPrice, domainQty, toDomainExecution } from './to-domain.ts';

/** The other firm's order as a trade shows it: symbol and side, every other field its zero value. */
function anonymousOrder(execution: Execution): Order {
  return {
    id: '',
    clordId: '',
    crossId: '',
    hostCrossId: '',
    parentOrderId: '',
    lastTradeId: '',
    account: '',
    clientAccountId: '',
    clientParticipantId: '',
    participant: '',
    submittingParticipant: '',
    symbol: execution.order.symbol,
    symbolSubType: '',
    collateralMemo: '',
    side: execution.order.side,
    type: 'ORDER_TYPE_UNDEFINED',
    timeInForce: 'TIME_IN_FORCE_UNDEFINED',
    state: 'ORDER_STATE_NEW',
    triggerMethod: 'CONDITION_TRIGGER_METHOD_UNDEFINED',
    manualOrderIndicator: 'MANUAL_ORDER_INDICATOR_UNDEFINED',
    orderCapacity: 'ORDER_CAPACITY_UNDEFINED',
    selfMatchPreventionInstruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
    orderQty: ZERO,
    cashOrderQty: ZERO,
    minQty: ZERO,
    cumQty: ZERO,
    leavesQty: ZERO,
    price: ZERO,
    stopPrice: ZERO,
    avgPx: ZERO,
    priorityWeight: '',
    commissionsBasisPoints: ZERO,
    makerCommissionsBasisPoints: ZERO,
    commissionNotionalTotalCollected: ZERO,
    priceToQuantityFilled: [],
    allOrNone: false,
    bestLimit: false,
    blockTradeIndicator: false,
    ignorePriceValidityChecks: false,
    immediatelyExecutableLimit: false,
    participateDontInitiate: false,
    strictLimit: false,
    createTime: undefined,
    insertTime: undefined,
    goodTillTime: undefined,
    lastTransactTime: undefined,
    riskCheckTime: undefined,
    transactionBookedTime: undefined,
    context: undefined,
  };
}

/** The other firm's execution of a trade: the fill's facts (price, quantity, time, aggressor flag, trade id). */
function anonymousExecution(execution: Execution, scales: InstrumentScales, full: DomainExecution): DomainExecution {
  return {
    id: '',
    tradeId: execution.tradeId ?? '',
    traceId: '',
    text: '',
    order: anonymousOrder(execution),
    lastPx: domainPrice(execution.lastPx, scales),
    lastShares: domainQty(execution.lastQty, scales),
    commissionNotionalCollected: ZERO,
    commissionSpreadPx: ZERO,
    aggressor: execution.aggressor,
    type: execution.type,
    orderRejectReason: full.orderRejectReason,
    unsolicitedCancelReason: 'UNSOLICITED_CXL_REASON_UNDEFINED',
    transactTime: execution.transactTime,
    transactTradeDate: full.transactTradeDate,
    legPrices: [],
  };
}

/** Whether an execution belongs to `firm` (its account is `firms/<firm>/accounts/...`). */
export function ownedBy(execution: Execution, firm: string): boolean {
  return firm !== '' && firmOf(execution.order.account) === firm;
}

/** One side of a trade as `firm` sees it. */
function sideFor(execution: Execution, scales: InstrumentScales, firm: string): DomainExecution {
  const full = toDomainExecution(execution, scales);
  return ownedBy(execution, firm) ? full : anonymousExecution(execution, scales, full);
}

/**
 * A trade's `trade_link_id` as `firm` sees it: the cross_id of the cross that made it (its CROSS trade and the
 * trades of its prioritized leg against the book) when that cross is the firm's own; '' otherwise.
 */
export function tradeLinkIdSeenBy(trade: Trade, firm: string): string {
  for (const side of [trade.aggressor, trade.passive]) {
    if (side.order.crossId !== undefined && ownedBy(side, firm)) return side.order.crossId;
  }
  return '';
}

/** The trade as `firm` sees it (see the module comment). */
export function tradeSeenBy(trade: Trade, scales: InstrumentScales, firm: string): DomainTrade {
  return {
    id: trade.id,
    aggressor: sideFor(trade.aggressor, scales, firm),
    passive: sideFor(trade.passive, scales, firm),
    tradeType: trade.type,
    state: trade.state,
    reportingCounterparty: trade.aggressorSide,
    text: '',
    tradeLinkId: tradeLinkIdSeenBy(trade, firm),
    metadata: {},
  };
}
