/**
 * Order terms between the venue's request and the journal's line: sides as BUY / SELL, decimals as strings,
 * optional fields left out. `requestOf` rebuilds the venue request a restarted run tracks (never sends).
 */
import { Decimal } from '../../domain/decimal.ts';
import type { TrackedOrder } from '../orders/index.ts';
import type { VenueOrderRequest } from '../venue.ts';
import type { OrderTerms } from './entries.ts';

export function termsOf(request: VenueOrderRequest): OrderTerms {
  return {
    account: request.account,
    symbol: request.symbol,
    side: request.side === 'SIDE_BUY' ? 'BUY' : 'SELL',
    qty: request.qty.toString(),
    ...(request.price === undefined ? {} : { price: request.price.toString() }),
    orderType: request.type,
    timeInForce: request.timeInForce,
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
    side: terms.side === 'BUY' ? 'SIDE_BUY' : 'SIDE_SELL',
    type: terms.orderType,
    timeInForce: terms.timeInForce,
    qty: new Decimal(terms.qty),
    price: terms.price === undefined ? undefined : new Decimal(terms.price),
    postOnly: terms.postOnly,
    selfMatchPreventionInstruction: terms.selfMatchPrevention,
  };
}
