/**
 * Domain types of market data: order book snapshots and stream updates, best bid/offer, instrument
 * statistics, and aggregated trade statistics with bars.
 */
import type { Decimal } from '../decimal.ts';
import type { InstrumentState } from '../enums.ts';
import type { EpochMs } from '../time.ts';
import type { PriceQty } from './common.ts';

export type BookLevel = PriceQty;

/** Scaled with the instrument's scales; absent fields are 0 (proto3 int64 zero). */
export interface InstrumentStats {
  readonly openPx: Decimal;
  readonly closePx: Decimal;
  readonly lowPx: Decimal;
  readonly highPx: Decimal;
  readonly lastTradePx: Decimal;
  readonly indicativeOpenPx: Decimal;
  readonly settlementPx: Decimal;
  readonly sharesTraded: Decimal;
  /** Scaled by price_scale × fractional_quantity_scale (our decision). */
  readonly notionalTraded: Decimal;
  readonly openInterest: Decimal;
}

/**
 * Family A GET /v1/orderbook/{symbol} and the market data stream's `update` (same shape).
 * `state` and `stats` are optional (the stream marks them `state?`, `stats?`): undefined when absent,
 * NOT the enum zero value CLOSED. Every stream update carries the full levels up to the depth.
 */
export interface OrderBook {
  readonly symbol: string;
  /** Price descending. */
  readonly bids: readonly BookLevel[];
  /** Price ascending. */
  readonly offers: readonly BookLevel[];
  readonly state: InstrumentState | undefined;
  readonly stats: InstrumentStats | undefined;
  readonly transactTime: EpochMs | undefined;
}

export type MarketDataUpdate = OrderBook;

/** GET /v1/orderbook/{symbol}/bbo (shape not shown by the spec: our design). Empty side = undefined. */
export interface BestBidOffer {
  readonly symbol: string;
  readonly bid: BookLevel | undefined;
  readonly offer: BookLevel | undefined;
  readonly state: InstrumentState | undefined;
  readonly transactTime: EpochMs | undefined;
}

export interface TradeStats {
  readonly first: Decimal;
  readonly last: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly totalTradeCount: number;
  readonly clearedTradeCount: number;
  readonly volume: Decimal;
  readonly clearedVolume: Decimal;
  /** Scaled by price_scale × fractional_quantity_scale (our decision). */
  readonly notional: Decimal;
  readonly clearedNotional: Decimal;
}

/** POST /v1/report/trades/stats answer: overall stats and `bars` with parallel start/end times. */
export interface TradeStatsResult {
  readonly stats: TradeStats | undefined;
  readonly bars: readonly TradeStats[];
  readonly barStartTime: readonly EpochMs[];
  readonly barEndTime: readonly EpochMs[];
}
