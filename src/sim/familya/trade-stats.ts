/**
 * Trade statistics for `POST /v1/report/trades/stats`: over the exchange's trade tape for one symbol,
 * the overall stats of a time window and `bars` equal slices of it (first, last, high, low, trade counts,
 * volume and notional, each also for cleared trades). The window is `[startTime, endTime)`, or whole UTC
 * trade dates `[startTradeDate, endTradeDate]`; by default from the start of the current UTC day to now.
 */
import { Decimal, ZERO } from '../../domain/decimal.ts';
import type { TradeStats, TradeStatsResult } from '../../domain/types/market.ts';
import type { TradeStatsRequest } from '../../domain/types/queries.ts';
import { DAY_MS, type ProtoDate } from '../../domain/time.ts';
import type { InstrumentScales } from '../../domain/scales.ts';
import { invalidArgument } from '../http/errors.ts';
import type { Trade } from '../matching/index.ts';

export const MAX_STATS_BARS = 1000;

const dateStart = (date: ProtoDate) => Date.UTC(date.year, date.month - 1, date.day);

export function statsWindow(request: TradeStatsRequest, now: number): { start: number; end: number } {
  const usesTimes = request.startTime !== undefined || request.endTime !== undefined;
  const usesDates = request.startTradeDate !== undefined || request.endTradeDate !== undefined;
  if (usesTimes && usesDates) throw invalidArgument('give either startTime/endTime or startTradeDate/endTradeDate, not both');
  let start: number;
  let end: number;
  if (usesDates) {
    const first = request.startTradeDate ?? request.endTradeDate;
    const last = request.endTradeDate ?? request.startTradeDate;
    start = first === undefined ? 0 : dateStart(first);
    end = last === undefined ? 0 : dateStart(last) + DAY_MS;
  } else {
    end = request.endTime ?? now;
    start = request.startTime ?? Math.floor(end / DAY_MS) * DAY_MS;
  }
  if (end <= start) throw invalidArgument('the stats window is empty: the end must be after the start');
  return { start, end };
}

function emptyStats(): TradeStats {
  return {
    first: ZERO,
    last: ZERO,
    high: ZERO,
    low: ZERO,
    totalTradeCount: 0,
    clearedTradeCount: 0,
    volume: ZERO,
    clearedVolume: ZERO,
    notional: ZERO,
    clearedNotional: ZERO,
  };
}

/** Folds trades (in tape order) into one stats object. */
export function statsOf(trades: readonly Trade[], scales: InstrumentScales): TradeStats {
  if (trades.length === 0) return emptyStats();
  let high = -Infinity;
  let low = Infinity;
  let volume = 0;
  let clearedVolume = 0;
  let notional = ZERO;
  let clearedNotional = ZERO;
  let cleared = 0;
  for (const trade of trades) {
    high = Math.max(high, trade.price);
    low = Math.min(low, trade.price);
    volume += trade.qty;
    const tradeNotional = new Decimal(trade.price).div(scales.priceScale).times(new Decimal(trade.qty).div(scales.qtyScale));
    notional = notional.plus(tradeNotional);
    if (trade.state === 'TRADE_STATE_CLEARED') {
      cleared += 1;
      clearedVolume += trade.qty;
      clearedNotional = clearedNotional.plus(tradeNotional);
    }
  }
  const px = (raw: number) => new Decimal(raw).div(scales.priceScale);
  const q = (raw: number) => new Decimal(raw).div(scales.qtyScale);
  return {
    first: px((trades[0] as Trade).price),
    last: px((trades[trades.length - 1] as Trade).price),
    high: px(high),
    low: px(low),
    totalTradeCount: trades.length,
    clearedTradeCount: cleared,
    volume: q(volume),
    clearedVolume: q(clearedVolume),
    notional,
    clearedNotional,
  };
}

export function tradeStats(tape: readonly Trade[], request: TradeStatsRequest, scales: InstrumentScales, now: number): TradeStatsResult {
  if (request.bars < 0 || request.bars > MAX_STATS_BARS)
    throw invalidArgument(`bars must be between 0 and ${MAX_STATS_BARS}, got ${request.bars}`);
  const { start, end } = statsWindow(request, now);
  const inWindow = tape.filter((t) => t.symbol === request.symbol && t.state !== 'TRADE_STATE_BUSTED' && t.time >= start && t.time < end);
  const barStartTime: number[] = [];
  const barEndTime: number[] = [];
  const bars: TradeStats[] = [];
  const width = (end - start) / Math.max(1, request.bars);
  for (let i = 0; i < request.bars; i++) {
    const from = start + Math.floor(i * width);
    const to = i === request.bars - 1 ? end : start + Math.floor((i + 1) * width);
    barStartTime.push(from);
    barEndTime.push(to);
    bars.push(
      statsOf(
        inWindow.filter((t) => t.time >= from && t.time < to),
        scales,
      ),
    );
  }
  return { stats: statsOf(inWindow, scales), bars, barStartTime, barEndTime };
}
