/**
 * RiskContext: the read-only view of the bot's world that the risk layer checks intents against. The engine
 * implements it over its OrderTracker, Portfolio, local books and reference data; tests implement it with
 * plain objects. Risk never mutates it and never calls the venue.
 *
 * Contract for implementers:
 * - `openOrders()` lists every order the bot has working or in flight (sent but not yet acknowledged,
 *   pending replace), with its remaining (leaves) quantity: in-flight orders are exposure too. An order with
 *   a replace in flight counts the larger of its old and new leaves and names the replace (`pendingReplace`).
 * - `positions()` lists signed positions (long > 0, short < 0) per symbol and account; a missing entry is flat.
 * - `canCross()` says whether the venue has a cross (family A's /v1 has none); absent: it has.
 * - `tradingState()` is normally `riskManager.tradingState.state`; risk gates on the more restrictive of it and
 *   its own state machine, so a context can tighten trading but never loosen it.
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { IntentSide } from '../intents.ts';
import type { TradingState } from './trading-state.ts';

/** Which market price anchors the price band: the book's mid, or the last trade. */
export type ReferencePriceSource = 'mid' | 'last';

/** What risk needs from an instrument's reference data. */
export interface RiskInstrument {
  readonly symbol: string;
  /** Prices must be multiples of this (> 0). */
  readonly tickSize: Decimal;
  /** Lowest and highest accepted limit prices (inclusive), e.g. 0.01 and 0.99 for an event contract. */
  readonly lowPriceLimit: Decimal;
  readonly highPriceLimit: Decimal;
  /** Smallest order quantity the exchange accepts. */
  readonly minimumQty: Decimal;
  /** Quantities must be multiples of this (the lot; 1 / fractional quantity scale, 1 for whole contracts). */
  readonly qtyIncrement: Decimal;
  /** The event this contract belongs to (all strikes / outcomes of one event); undefined: its own group. */
  readonly eventGroup: string | undefined;
}

/** One of the bot's working (or in-flight) orders. */
export interface RiskOpenOrder {
  readonly clordId: string;
  readonly symbol: string;
  readonly side: IntentSide;
  /** Limit price; undefined for a market-to-limit order not yet priced. */
  readonly price: Decimal | undefined;
  /** Quantity still working (> 0); while a replace is in flight, the larger of the old and the new. */
  readonly leavesQty: Decimal;
  readonly account: string;
  /**
   * A replace sent and not yet confirmed: the client order id it gives the order (a strategy holds that one
   * already) and the price it moves the order to (undefined: unchanged). Until the exchange answers the order
   * may rest at either price, so self-match prevention checks both.
   */
  readonly pendingReplace?: { readonly clordId: string; readonly price: Decimal | undefined } | undefined;
}

/** True when `clordId` names the order: its current client order id, or the one a replace in flight gives it. */
export function isOpenOrder(order: RiskOpenOrder, clordId: string): boolean {
  return order.clordId === clordId || order.pendingReplace?.clordId === clordId;
}

/** A signed position: long > 0, short < 0. */
export interface RiskPosition {
  readonly symbol: string;
  readonly account: string;
  readonly qty: Decimal;
}

export interface RiskContext {
  /** Engine time, epoch milliseconds (clock.now()). */
  now(): number;
  /** The account intents trade when they name none. */
  readonly defaultAccount: string;
  /** Every account the bot trades (self-match prevention scope `bot` covers all of them). */
  accounts(): readonly string[];
  /** Reference data; undefined when the symbol is unknown (intents on it are refused). */
  instrument(symbol: string): RiskInstrument | undefined;
  /** The current mid or last trade price; undefined when there is none (one-sided book, no trade yet). */
  referencePrice(symbol: string, source: ReferencePriceSource): Decimal | undefined;
  positions(): readonly RiskPosition[];
  openOrders(): readonly RiskOpenOrder[];
  /** Today's realized + unrealized PnL of the bot, in the settlement currency (a loss is negative). */
  dailyPnl(): Decimal;
  tradingState(): TradingState;
  /** With several strategies in the bot (#25): the id of the strategy whose order this is (self-match messages). */
  strategyOf?(clordId: string): string | undefined;
  /** False when the venue cannot cross (crosses are refused RISK_CROSS_UNSUPPORTED); absent: true. */
  canCross?(): boolean;
}
