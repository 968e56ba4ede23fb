/**
 * Field tables of market data: book levels, order book / market data update, best bid/offer,
 * instrument stats and trade stats. Books use their symbol's scales; trade stats have no symbol and
 * use the scales the caller passes (those of the requested symbol).
 */
import { INSTRUMENT_STATES } from '../../enums.ts';
import type { BestBidOffer, BookLevel, InstrumentStats, OrderBook, TradeStats, TradeStatsResult } from '../../types/market.ts';
import { message, msg, optMsg } from '../codec.ts';
import { commission, int64, list, optEnum, price, qty, str, time, timeReq } from '../fields.ts';

export const bookLevelCodec = message<BookLevel>({
  name: 'BookLevel',
  fields: { px: price(), qty: qty() },
});

export const instrumentStatsCodec = message<InstrumentStats>({
  name: 'InstrumentStats',
  fields: {
    openPx: price(),
    closePx: price(),
    lowPx: price(),
    highPx: price(),
    lastTradePx: price(),
    indicativeOpenPx: price(),
    settlementPx: price(),
    sharesTraded: qty(),
    notionalTraded: commission(),
    openInterest: qty(),
  },
});

const stateField = optEnum(INSTRUMENT_STATES, 'InstrumentState');

export const orderBookCodec = message<OrderBook>({
  name: 'OrderBook',
  scope: { symbolAt: ['symbol'] },
  fields: {
    symbol: str(),
    bids: list(msg(bookLevelCodec)),
    offers: list(msg(bookLevelCodec)),
    state: stateField,
    stats: optMsg(instrumentStatsCodec),
    transactTime: time(),
  },
});

export const bestBidOfferCodec = message<BestBidOffer>({
  name: 'BestBidOffer',
  scope: { symbolAt: ['symbol'] },
  fields: {
    symbol: str(),
    bid: optMsg(bookLevelCodec),
    offer: optMsg(bookLevelCodec),
    state: stateField,
    transactTime: time(),
  },
});

export const tradeStatsCodec = message<TradeStats>({
  name: 'TradeStats',
  fields: {
    first: price(),
    last: price(),
    high: price(),
    low: price(),
    totalTradeCount: int64(),
    clearedTradeCount: int64(),
    volume: qty(),
    clearedVolume: qty(),
    notional: commission(),
    clearedNotional: commission(),
  },
});

export const tradeStatsResultCodec = message<TradeStatsResult>({
  name: 'TradeStatsResult',
  fields: {
    stats: optMsg(tradeStatsCodec),
    bars: list(msg(tradeStatsCodec)),
    barStartTime: list(timeReq()),
    barEndTime: list(timeReq()),
  },
});
