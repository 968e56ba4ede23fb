/**
 * Approved intents as venue requests: a place as an order request (market-to-limit without a price, the
 * configured self-match prevention instruction when the intent carries none), a cross as its two IOC limit
 * legs. Pure mappings, no state.
 */
import type { CrossIntent, CrossLeg, PlaceIntent } from '../intents.ts';
import type { VenueCrossRequest, VenueOrderRequest } from '../venue.ts';

const TIF = {
  DAY: 'TIME_IN_FORCE_DAY',
  GOOD_TILL_CANCEL: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  IMMEDIATE_OR_CANCEL: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  FILL_OR_KILL: 'TIME_IN_FORCE_FILL_OR_KILL',
} as const;

export function orderRequest(intent: PlaceIntent, defaultAccount: string, selfMatchPrevention: VenueOrderRequest['selfMatchPreventionInstruction']): VenueOrderRequest {
  return {
    clordId: intent.clordId,
    account: intent.account ?? defaultAccount,
    symbol: intent.symbol,
    side: intent.side === 'BUY' ? 'SIDE_BUY' : 'SIDE_SELL',
    type: intent.price === undefined ? 'ORDER_TYPE_MARKET_TO_LIMIT' : 'ORDER_TYPE_LIMIT',
    timeInForce: TIF[intent.timeInForce],
    qty: intent.qty,
    price: intent.price,
    postOnly: intent.postOnly,
    selfMatchPreventionInstruction: intent.selfMatchPrevention ?? selfMatchPrevention,
  };
}

export function crossRequest(intent: CrossIntent): VenueCrossRequest {
  const leg = (l: CrossLeg): VenueOrderRequest => ({
    clordId: l.clordId,
    account: l.account,
    symbol: intent.symbol,
    side: l.side === 'BUY' ? 'SIDE_BUY' : 'SIDE_SELL',
    type: 'ORDER_TYPE_LIMIT',
    timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
    qty: intent.qty,
    price: intent.price,
    postOnly: false,
    selfMatchPreventionInstruction: undefined,
  });
  return { crossId: intent.crossId, allOrNone: intent.allOrNone, buy: leg(intent.buy), sell: leg(intent.sell) };
}
