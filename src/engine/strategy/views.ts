/**
 * Read-only views a strategy sees: books (with a staleness flag and sequence), its open orders and
 * fills, trades on the market, positions, refusals and trading-state changes. Views are plain data with
 * Decimal prices; a strategy can read them but has no handle on the exchange, the tracker or the portfolio.
 * Every field declared here is there at run time (and nothing a plugin should count on is left undeclared).
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { Intent, IntentKind, IntentSide } from '../intents.ts';
import type { RefusalCode } from '../risk/verdict.ts';
import type { TradingState, TradingStateCause } from '../risk/trading-state.ts';

export interface BookLevelView {
  readonly price: Decimal;
  readonly qty: Decimal;
}

export interface BookView {
  readonly symbol: string;
  /** Price descending. */
  readonly bids: readonly BookLevelView[];
  /** Price ascending. */
  readonly offers: readonly BookLevelView[];
  readonly bestBid: Decimal | undefined;
  readonly bestOffer: Decimal | undefined;
  /** (bestBid + bestOffer) / 2 when both sides exist. */
  readonly mid: Decimal | undefined;
  readonly lastTradePrice: Decimal | undefined;
  /** True while the market feed is down or the book awaits a fresh snapshot; don't quote on it. */
  readonly stale: boolean;
  /** Increases with every update applied to this book. */
  readonly seq: number;
  /** Engine time of the update. */
  readonly time: number;
}

export type OrderStatus =
  'PENDING_NEW' | 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED' | 'EXPIRED' | 'PENDING_CANCEL' | 'PENDING_REPLACE';

export interface OrderView {
  readonly clordId: string;
  readonly orderId: string | undefined;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly price: Decimal | undefined;
  readonly qty: Decimal;
  readonly filledQty: Decimal;
  readonly leavesQty: Decimal;
  readonly status: OrderStatus;
  readonly label: string | undefined;
  /** The account the order trades (`firms/<firm>/accounts/<account>`). */
  readonly account: string;
  /** The intent that sent the order (its place, or the cross of a leg); undefined for an adopted order. */
  readonly intentId: string | undefined;
  /** The cross this order is a leg of (the id `ctx.cross` returned); undefined for an ordinary order. */
  readonly crossId: string | undefined;
  /** True when the order was found on the exchange (not sent by this run: `bot.unknownOrders: adopt`). */
  readonly adopted: boolean;
  /** Every client order id the order has had, oldest first (a confirmed replace adds one). */
  readonly clordIds: readonly string[];
  /** Average fill price; 0 while nothing filled. */
  readonly avgPx: Decimal;
}

export interface FillView {
  readonly clordId: string;
  /** The account that traded. */
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal;
  readonly price: Decimal;
  readonly time: number;
}

/**
 * What `onTrade(ctx, trade)` receives: volume traded on the market (anyone's), as the market data shows it:
 * `qty` is the volume traded since the previous book update of the symbol, `price` the last trade price.
 */
export interface TradeView {
  readonly symbol: string;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly time: number;
}

/**
 * Risk refused an intent; nothing was sent. `id` is what the call returned (`place`: the client order id,
 * `replace`: the new client order id, `cross`: the cross id, `cancel`: the client order id it was given;
 * undefined for `cancelAll`), `symbol` the symbol concerned (undefined for a cancel or replace of an order
 * the engine does not know), `intent` the refused intent itself.
 */
export interface RefusedView {
  readonly type: 'refused';
  readonly id: string | undefined;
  readonly kind: IntentKind;
  readonly symbol: string | undefined;
  /** The order concerned: the place's client order id, or the order a cancel or replace names. */
  readonly clordId: string | undefined;
  /** The cross id, for a refused cross. */
  readonly crossId: string | undefined;
  /** The engine's id of the intent (what logs and the journal name). */
  readonly intentId: string;
  readonly intent: Intent;
  readonly code: RefusalCode;
  readonly message: string;
}

/**
 * An intent over the message budget (`risk.maxMessagesPerSecond`) waits in the send queue instead of being
 * refused. `pending`: it waits (the order already shows as PENDING_NEW, PENDING_REPLACE or PENDING_CANCEL);
 * then exactly one of `sent` (it left for the exchange), `superseded` (a later replace or cancel of the same
 * order took its place: nothing of it was sent) or a `refused` update with RISK_ORDER_RATE (it waited longer
 * than `risk.maxQueueAgeMs`). An intent sent at once gets no `throttled` update; one superseded before it was
 * due to leave (a second replace of an order in the same callback) gets only `superseded`. `id`, `symbol`
 * and `clordId` as in RefusedView.
 */
export interface ThrottledView {
  readonly type: 'throttled';
  readonly status: 'pending' | 'sent' | 'superseded';
  readonly id: string | undefined;
  readonly kind: IntentKind;
  readonly symbol: string | undefined;
  readonly clordId: string | undefined;
  /** The engine's id of the intent. */
  readonly intentId: string;
  readonly intent: Intent;
  /** Engine time of the change. */
  readonly time: number;
}

/**
 * A fill of one of the bot's orders. `order` is the order's view with this fill counted; it is undefined only
 * when the engine keeps no finished orders (`finishedOrderHistory: 0`, an option of tests: never in `tradebot
 * run` or `tradebot backtest`), for the fill that finished the order.
 */
export interface FillUpdateView {
  readonly type: 'fill';
  readonly fill: FillView;
  readonly order: OrderView | undefined;
}

/**
 * What `onOrderUpdate` receives: an own order changed, was filled, an intent was refused by risk, or an intent
 * waits for the message budget (then was sent or superseded).
 */
export type OrderUpdateView = { readonly type: 'order'; readonly order: OrderView } | FillUpdateView | RefusedView | ThrottledView;

/** What `onTradingState(ctx, change)` receives: the trading state moved from `from` to `to`. */
export interface TradingStateView {
  readonly from: TradingState;
  readonly to: TradingState;
  /** Which hold decided it: `operator`, `feed`, `dailyLoss` or `strategyError`. */
  readonly cause: TradingStateCause;
  readonly reason: string;
  /** Engine time of the change. */
  readonly time: number;
}

/** What `ctx.venue` says about where orders go. */
export interface VenueView {
  /** `gateway`, `familyA`, `backtest`, ... */
  readonly name: string;
  /** False when the venue has no cross (family A): risk refuses `ctx.cross` with RISK_CROSS_UNSUPPORTED. */
  readonly canCross: boolean;
}
