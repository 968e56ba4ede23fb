/**
 * The Venue port: everything the engine needs from an exchange, live or simulated. Live venues wrap the
 * gateway client or the family A client (streams over gRPC or gateway NDJSON); the backtest's
 * SimulatedVenue replays history. The engine never sees wire formats: prices are Decimal, requests use the
 * engine's words, events are the typed stream events shared by every transport (src/domain/stream-events.ts).
 */
import type { Observable } from 'rxjs';
import type { Decimal } from '../domain/decimal.ts';
import type { Balance, Instrument, Order, Position, SelfMatchPreventionInstruction } from '../domain/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../domain/stream-events.ts';

/**
 * The requests are in the engine's terms (`BUY`, `LIMIT`, `GOOD_TILL_CANCEL`): each venue adapter maps them to
 * its wire enums (`SIDE_BUY`, `ORDER_TYPE_LIMIT`, `TIME_IN_FORCE_GOOD_TILL_CANCEL`) once, where it builds its
 * client's input.
 */
export type VenueSide = 'BUY' | 'SELL';
export type VenueOrderType = 'LIMIT' | 'MARKET_TO_LIMIT';
export type VenueTimeInForce = 'DAY' | 'GOOD_TILL_CANCEL' | 'IMMEDIATE_OR_CANCEL' | 'FILL_OR_KILL';

export interface VenueOrderRequest {
  readonly clordId: string;
  readonly account: string;
  readonly symbol: string;
  readonly side: VenueSide;
  /** MARKET_TO_LIMIT has no price. */
  readonly type: VenueOrderType;
  readonly timeInForce: VenueTimeInForce;
  readonly qty: Decimal;
  readonly price: Decimal | undefined;
  readonly postOnly: boolean;
  readonly selfMatchPreventionInstruction: SelfMatchPreventionInstruction | undefined;
}

export interface VenueCancelRequest {
  readonly orderId: string;
  readonly clordId: string;
  readonly symbol: string;
}

export interface VenueReplaceRequest {
  readonly orderId: string;
  readonly symbol: string;
  /** New client order id for the replaced order. */
  readonly clordId: string;
  readonly qty: Decimal | undefined;
  readonly price: Decimal | undefined;
}

export interface VenueCrossRequest {
  readonly crossId: string;
  readonly allOrNone: boolean;
  readonly buy: VenueOrderRequest;
  readonly sell: VenueOrderRequest;
}

/** One order to find at the exchange: by order id when known (stable across replaces), else by clordId. */
export interface VenueOrderQuery {
  readonly account: string;
  readonly symbol: string;
  readonly orderId: string | undefined;
  readonly clordId: string;
}

/** The exchange's view of the bot's accounts, fetched once on start and after each reconnect. */
export interface VenueSnapshot {
  readonly openOrders: readonly Order[];
  readonly positions: readonly Position[];
  readonly balances: readonly Balance[];
}

export interface Venue {
  readonly name: string;
  /** False when the venue has no cross (`cross()` always fails): risk refuses crosses before sending. Absent: true. */
  readonly canCross?: boolean;
  /** Reference data of the symbols the run trades (scales, ticks, price limits). */
  instruments(symbols: readonly string[]): Promise<readonly Instrument[]>;
  /** Full books per update, with connected/disconnected lifecycle events. */
  marketData(symbols: readonly string[]): Observable<MarketDataEvent>;
  /** Snapshot of working orders on each (re)connection, then executions and cancel rejects. */
  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent>;
  /** Inserts one or more orders (the adapter batches up to 20). Resolves with exchange order ids in order. */
  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]>;
  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void>;
  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void>;
  cross(request: VenueCrossRequest): Promise<readonly string[]>;
  /** One lookup of open orders, positions and balances for reconciliation (never polled). */
  snapshot(accounts: readonly string[]): Promise<VenueSnapshot>;
  /**
   * One order in any state (working or finished), or undefined when the exchange does not know it. Used
   * by the order journal's recovery to settle orders an earlier run sent; optional (a venue without it
   * settles them from the open orders only).
   */
  lookupOrder?(query: VenueOrderQuery): Promise<Order | undefined>;
  close(): Promise<void>;
}
