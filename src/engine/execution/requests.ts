/**
 * Approved intents as venue requests: a place as an order request (market-to-limit without a price, the
 * configured self-match prevention instruction when the intent carries none), a cross as its two IOC limit
 * legs. Pure mappings, no state; sides and times in force keep the intent's words (the venue maps them).
 */
import type { CrossIntent, CrossLeg, PlaceIntent } from '../intents.ts';
import type { VenueCrossRequest, VenueOrderRequest } from '../venue.ts';

export function orderRequest(
  intent: PlaceIntent,
  defaultAccount: string,
  selfMatchPrevention: VenueOrderRequest['selfMatchPreventionInstruction'],
): VenueOrderRequest {
  return {
    clordId: intent.clordId,
    account: intent.account ?? defaultAccount,
    symbol: intent.symbol,
    side: intent.side,
    type: intent.price === undefined ? 'MARKET_TO_LIMIT' : 'LIMIT',
    timeInForce: intent.timeInForce,
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
    side: l.side,
    type: 'LIMIT',
    timeInForce: 'IMMEDIATE_OR_CANCEL',
    qty: intent.qty,
    price: intent.price,
    postOnly: false,
    selfMatchPreventionInstruction: undefined,
  });
  return { crossId: intent.crossId, allOrNone: intent.allOrNone, buy: leg(intent.buy), sell: leg(intent.sell) };
}
