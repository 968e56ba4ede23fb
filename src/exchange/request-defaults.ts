/**
 * The proto3 zero values of the domain's trading and lookup requests, shared by both clients: the family A
 * client fills what its callers leave out from these (familya/inputs.ts, where `undefined` means "the
 * default"), the gateway and gRPC clients spread them under their callers' inputs (gateway/order-inputs.ts).
 * A zero value is omitted on the wire. The request's required fields (and the generated clord_id) are the
 * callers' own; the lookups' defaults are functions, so no two requests share an array.
 */
import { ZERO } from '../domain/index.ts';
import type {
  CancelOrderRequest,
  OpenOrdersRequest,
  OrderRequest,
  ReplaceOrderRequest,
  SearchOrdersRequest,
  SearchTradesRequest,
} from '../domain/index.ts';

/** An order's optional fields at their zero values (all but account, clordId, symbol, side, type, orderQty). */
export const ORDER_ZEROS: Omit<OrderRequest, 'account' | 'clordId' | 'symbol' | 'side' | 'type' | 'orderQty'> = {
  clientAccountId: '',
  clientParticipantId: '',
  symbolSubType: '',
  quote: '',
  sessionId: '',
  user: '',
  selfMatchPreventionId: '',
  timeInForce: 'TIME_IN_FORCE_UNDEFINED',
  triggerMethod: 'CONDITION_TRIGGER_METHOD_UNDEFINED',
  manualOrderIndicator: 'MANUAL_ORDER_INDICATOR_UNDEFINED',
  orderCapacity: 'ORDER_CAPACITY_UNDEFINED',
  selfMatchPreventionInstruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
  cashOrderQty: ZERO,
  minQty: ZERO,
  price: ZERO,
  stopPrice: ZERO,
  commissionOverrideBasisPoints: undefined,
  commissionOverrideFlatFee: undefined,
  goodTillTime: undefined,
  allOrNone: false,
  bestLimit: false,
  ignorePriceValidityChecks: false,
  immediatelyExecutableLimit: false,
  participateDontInitiate: false,
  strictLimit: false,
};

/** A cancel's optional fields (all but orderId and symbol). */
export const CANCEL_ZEROS: Omit<CancelOrderRequest, 'orderId' | 'symbol'> = { clordId: '', symbolSubType: '' };

/** A replace's new terms at their zero values (all but orderId, symbol and clordId). */
export const REPLACE_ZEROS: Omit<ReplaceOrderRequest, 'orderId' | 'symbol' | 'clordId'> = {
  symbolSubType: '',
  orderQty: ZERO,
  price: ZERO,
  stopPrice: ZERO,
  minQty: ZERO,
  timeInForce: 'TIME_IN_FORCE_UNDEFINED',
  goodTillTime: undefined,
  allOrNone: false,
};

export function searchTradesZeros(): SearchTradesRequest {
  return {
    accounts: [],
    startTime: undefined,
    endTime: undefined,
    execId: '',
    orderId: '',
    tradeId: '',
    tradeLinkId: '',
    symbol: '',
    states: [],
    pageSize: 0,
    pageToken: '',
  };
}

export function searchOrdersZeros(): SearchOrdersRequest {
  return {
    accounts: [],
    symbol: '',
    orderId: '',
    clordId: '',
    startTime: undefined,
    endTime: undefined,
    states: [],
    pageSize: 0,
    pageToken: '',
  };
}

export function openOrdersZeros(): OpenOrdersRequest {
  return { accounts: [], symbols: [] };
}
