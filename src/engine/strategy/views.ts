/**
 * Read-only views a strategy sees: books (with a staleness flag and sequence), its open orders and
 * fills, positions. Views are plain data with Decimal prices; a strategy can read them but has no handle
 * on the exchange, the tracker or the portfolio.
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { IntentSide } from '../intents.ts';

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
  | 'PENDING_NEW'
  | 'NEW'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCELED'
  | 'REJECTED'
  | 'EXPIRED'
  | 'PENDING_CANCEL'
  | 'PENDING_REPLACE';

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
}

export interface FillView {
  readonly clordId: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal;
  readonly price: Decimal;
  readonly time: number;
}

/** A trade printed on the market (anyone's), as seen in the market data. */
export interface TradeView {
  readonly symbol: string;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly time: number;
}

/** What `onOrderUpdate` receives: an own order changed, was filled, or an intent was refused by risk. */
export type OrderUpdateView =
  | { readonly type: 'order'; readonly order: OrderView }
  | { readonly type: 'fill'; readonly fill: FillView; readonly order: OrderView | undefined }
  | { readonly type: 'refused'; readonly intentId: string; readonly clordId: string | undefined; readonly code: string; readonly message: string };
