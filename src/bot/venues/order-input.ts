/**
 * The Venue port's order request in a client's terms: the engine's words (`BUY`, `LIMIT`,
 * `GOOD_TILL_CANCEL`) mapped to the wire enums (`SIDE_BUY`, `ORDER_TYPE_LIMIT`,
 * `TIME_IN_FORCE_GOOD_TILL_CANCEL`) here, once, for every venue adapter (the gateway and family A venues,
 * the backtest's SimulatedVenue, the scripted market). `toOrderInput` is the order input both clients take
 * (the gateway's OrderRequestInput and family A's OrderInput are the domain OrderRequest with these fields).
 */
import { ZERO } from '../../domain/decimal.ts';
import type { OrderRequest, OrderType, Side, TimeInForce } from '../../domain/index.ts';
import type { VenueOrderRequest, VenueOrderType, VenueReplaceRequest, VenueSide, VenueTimeInForce } from '../../engine/venue.ts';

export const WIRE_SIDE = { BUY: 'SIDE_BUY', SELL: 'SIDE_SELL' } as const satisfies Record<VenueSide, Side>;
export const WIRE_ORDER_TYPE = { LIMIT: 'ORDER_TYPE_LIMIT', MARKET_TO_LIMIT: 'ORDER_TYPE_MARKET_TO_LIMIT' } as const satisfies Record<
  VenueOrderType,
  OrderType
>;
export const WIRE_TIME_IN_FORCE = {
  DAY: 'TIME_IN_FORCE_DAY',
  GOOD_TILL_CANCEL: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  IMMEDIATE_OR_CANCEL: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  FILL_OR_KILL: 'TIME_IN_FORCE_FILL_OR_KILL',
} as const satisfies Record<VenueTimeInForce, TimeInForce>;

/** The wire time in force of a venue request. */
export type WireTimeInForce = (typeof WIRE_TIME_IN_FORCE)[VenueTimeInForce];

export type VenueOrderInput = Pick<
  OrderRequest,
  | 'account'
  | 'symbol'
  | 'side'
  | 'type'
  | 'orderQty'
  | 'price'
  | 'clordId'
  | 'timeInForce'
  | 'participateDontInitiate'
  | 'selfMatchPreventionInstruction'
>;

/** The request as either client's order input; no price is a zero price, no self-match instruction UNDEFINED. */
export function toOrderInput(request: VenueOrderRequest): VenueOrderInput {
  return {
    account: request.account,
    symbol: request.symbol,
    side: WIRE_SIDE[request.side],
    type: WIRE_ORDER_TYPE[request.type],
    orderQty: request.qty,
    price: request.price ?? ZERO,
    clordId: request.clordId,
    timeInForce: WIRE_TIME_IN_FORCE[request.timeInForce],
    participateDontInitiate: request.postOnly,
    selfMatchPreventionInstruction: request.selfMatchPreventionInstruction ?? 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
  };
}

/** A replace request as both clients take it: the order, and only the terms it changes. */
export function toReplaceInput(request: VenueReplaceRequest) {
  return {
    orderId: request.orderId,
    symbol: request.symbol,
    clordId: request.clordId,
    ...(request.price ? { price: request.price } : {}),
    ...(request.qty ? { orderQty: request.qty } : {}),
  };
}
