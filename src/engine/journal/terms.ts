/**
 * Order terms between the venue's request and the journal's line: sides as BUY / SELL, decimals as strings,
 * optional fields left out; the order type and time in force as the journal has always written them (the
 * wire names, ORDER_TYPE_LIMIT, TIME_IN_FORCE_DAY). `requestOf` rebuilds the venue request a restarted run
 * tracks (never sends).
 */
import { Decimal } from '../../domain/decimal.ts';
import type { TrackedOrder } from '../orders/index.ts';
import type { VenueOrderType, VenueOrderRequest, VenueTimeInForce } from '../venue.ts';
import type { OrderTerms } from './entries.ts';

const ORDER_TYPE = { LIMIT: 'ORDER_TYPE_LIMIT', MARKET_TO_LIMIT: 'ORDER_TYPE_MARKET_TO_LIMIT' } as const satisfies Record<
  VenueOrderType,
  OrderTerms['orderType']
>;
const TIME_IN_FORCE = {
  DAY: 'TIME_IN_FORCE_DAY',
  GOOD_TILL_CANCEL: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  IMMEDIATE_OR_CANCEL: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  FILL_OR_KILL: 'TIME_IN_FORCE_FILL_OR_KILL',
} as const satisfies Record<VenueTimeInForce, OrderTerms['timeInForce']>;
const orderTypeOf = (line: OrderTerms['orderType']): VenueOrderType => (line === 'ORDER_TYPE_LIMIT' ? 'LIMIT' : 'MARKET_TO_LIMIT');
const timeInForceOf = (line: OrderTerms['timeInForce']): VenueTimeInForce => line.slice('TIME_IN_FORCE_'.length) as VenueTimeInForce;

export function termsOf(request: VenueOrderRequest): OrderTerms {
  return {
    account: request.account,
    symbol: request.symbol,
    side: request.side,
    qty: request.qty.toString(),
    ...(request.price === undefined ? {} : { price: request.price.toString() }),
    orderType: ORDER_TYPE[request.type],
    timeInForce: TIME_IN_FORCE[request.timeInForce],
    postOnly: request.postOnly,
    ...(request.selfMatchPreventionInstruction === undefined ? {} : { selfMatchPrevention: request.selfMatchPreventionInstruction }),
  };
}

/** Terms of a tracked order whose request the recorder did not see (fallback for compaction). */
export function termsOfTracked(order: TrackedOrder): OrderTerms {
  return {
    account: order.account,
    symbol: order.symbol,
    side: order.side,
    qty: order.qty.toString(),
    ...(order.price === undefined ? {} : { price: order.price.toString() }),
    orderType: order.price === undefined ? 'ORDER_TYPE_MARKET_TO_LIMIT' : 'ORDER_TYPE_LIMIT',
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    postOnly: false,
  };
}

export function requestOf(clordId: string, terms: OrderTerms): VenueOrderRequest {
  return {
    clordId,
    account: terms.account,
    symbol: terms.symbol,
    side: terms.side,
    type: orderTypeOf(terms.orderType),
    timeInForce: timeInForceOf(terms.timeInForce),
    qty: new Decimal(terms.qty),
    price: terms.price === undefined ? undefined : new Decimal(terms.price),
    postOnly: terms.postOnly,
    selfMatchPreventionInstruction: terms.selfMatchPrevention,
  };
}
