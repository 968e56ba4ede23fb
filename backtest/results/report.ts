/**
 * report.json: the run's figures as one plain object (decimal values as strings, keys sorted when
 * written), deterministic for the same inputs: it holds no wall-clock value. `eventsPerSecond` is events
 * per second of MARKET time (the wall-clock throughput goes to run.json and the console).
 */
import { ZERO, type Decimal } from '../../src/domain/decimal.ts';
import { formatTimestamp } from '../../src/domain/time.ts';
import type { PortfolioSnapshot } from '../../src/engine/portfolio/index.ts';
import type { RunCounters } from '../../src/engine/run-counters.ts';
import type { HistoryHeader } from '../history/format.ts';
import { enough, MIN_RETURNS, ratioReasons, scaleOf, sharpe, sortino, type RatioPeriod, type TurnoverCounter } from '../metrics/index.ts';
import type { EquitySampler } from './sampler.ts';

/** Where a settlement price came from: the user's config, the exchange's data in the history, a recording. */
export type SettlementSource = 'config' | 'exchange' | 'recording';

export interface Settlement {
  readonly symbol: string;
  readonly time: number;
  readonly price: string;
  readonly source: SettlementSource;
}

/** A contract that expired in the data without a settlement price: its position stays open, marked at the last price. */
export interface Unsettled {
  readonly symbol: string;
  readonly time: number;
  readonly reason: string;
}

export interface ReportInputs {
  readonly strategy: string;
  readonly params: unknown;
  readonly file: string;
  readonly header: HistoryHeader;
  readonly dataStats: Readonly<Record<string, number>>;
  readonly config: Readonly<Record<string, unknown>>;
  readonly startingCash: Decimal;
  readonly metricsIntervalMs: number;
  /** The period of the returns behind sharpe and sortino (metrics/ratio-period.ts). */
  readonly ratioPeriod: RatioPeriod;
  readonly portfolio: PortfolioSnapshot;
  readonly counters: RunCounters;
  readonly sampler: EquitySampler;
  readonly turnover: TurnoverCounter;
  readonly events: number;
  readonly firstEventTime: number | undefined;
  readonly lastEventTime: number | undefined;
  readonly bookEvents: number;
  /** The replayed symbols (bySymbol lists each, traded or not). */
  readonly symbols: readonly string[];
  /** Orders that reached the exchange per symbol (inserts, cross legs). */
  readonly ordersBySymbol: ReadonlyMap<string, number>;
  readonly settlements: readonly Settlement[];
  readonly unsettled: readonly Unsettled[];
  readonly tradingState: string;
}

const fixed = (d: Decimal | undefined, places = 6): string | null => (d === undefined ? null : d.toDecimalPlaces(places).toString());

/** Each contract that expired without a settlement price: its open position, the price it is marked at, why. */
function unsettledOf(i: ReportInputs): Record<string, unknown>[] {
  return i.unsettled.map((u) => {
    const held = i.portfolio.accounts.flatMap((a) => a.positions.filter((p) => p.symbol === u.symbol));
    const qty = held.reduce((sum, p) => sum.plus(p.qty), ZERO);
    return {
      symbol: u.symbol,
      expired: formatTimestamp(u.time),
      position: qty.toString(),
      markedAt: held[0]?.mark?.toString() ?? null,
      reason: u.reason,
    };
  });
}

/**
 * How close to live the replay's market is: the fill model chosen and how often the strategy's book changed.
 * A book inferred from a trade tape changes only when a trade moves its top (316 times in the sample's 45
 * minutes, every ~8.5 s), where a live book changes on every order (every ~0.2 s on the embedded exchange's
 * demo market): rate limits and requote logic are barely exercised (docs/strategies.md).
 */
function realismOf(i: ReportInputs, marketSeconds: number): Record<string, unknown> {
  const recording = i.header.kind === 'recording';
  const perMinute = marketSeconds > 0 ? Math.round((i.bookEvents / marketSeconds) * 60 * 1000) / 1000 : null;
  const every = i.bookEvents > 0 && marketSeconds > 0 ? Math.round((marketSeconds / i.bookEvents) * 1000) / 1000 : null;
  return {
    book: recording ? 'recorded' : 'synthetic',
    bookSource: recording
      ? 'the live book as recorded (tradebot run --record)'
      : 'inferred from the trade tape: it changes only when a trade moves the best bid or offer',
    bookUpdates: i.bookEvents,
    bookUpdatesPerMinute: perMinute,
    secondsBetweenBookUpdates: every,
    fillModel: {
      tradeThrough: i.config['tradeThrough'] ?? null,
      queueAheadModel: i.config['queueAheadModel'] ?? null,
    },
  };
}

/**
 * PnL (realized, unrealized, fees, net), fills, orders, turnover and position per symbol, summed over the
 * accounts: the parts of report.json's totals, adding up to them exactly (the same Decimals, summed).
 */
function bySymbolOf(i: ReportInputs): Record<string, unknown> {
  const symbols = [...new Set([...i.symbols, ...i.portfolio.accounts.flatMap((a) => a.positions.map((p) => p.symbol))])];
  return Object.fromEntries(
    symbols.map((symbol) => {
      const held = i.portfolio.accounts.flatMap((a) => a.positions.filter((p) => p.symbol === symbol));
      const sum = (pick: (p: (typeof held)[number]) => Decimal) => held.reduce((acc, p) => acc.plus(pick(p)), ZERO);
      const realized = sum((p) => p.realizedPnl);
      const unrealized = sum((p) => p.unrealizedPnl);
      const fees = sum((p) => p.fees);
      const traded = i.turnover.bySymbol.get(symbol);
      return [
        symbol,
        {
          pnl: {
            total: realized.plus(unrealized).minus(fees).toString(),
            realized: realized.toString(),
            unrealized: unrealized.toString(),
          },
          fees: fees.toString(),
          fills: traded?.fills ?? 0,
          orders: i.ordersBySymbol.get(symbol) ?? 0,
          turnover: (traded?.turnover ?? ZERO).toString(),
          position: sum((p) => p.qty).toString(),
        },
      ];
    }),
  );
}

export function buildReport(i: ReportInputs): Record<string, unknown> {
  const totals = i.portfolio.totals;
  const stats = i.sampler.returns;
  const ratios = {
    sharpe: enough(stats, sharpe(stats, scaleOf(i.ratioPeriod))),
    sortino: enough(stats, sortino(stats, scaleOf(i.ratioPeriod))),
  };
  const marketSeconds = i.firstEventTime === undefined || i.lastEventTime === undefined ? 0 : (i.lastEventTime - i.firstEventTime) / 1000;
  const positions: Record<string, string> = {};
  for (const account of i.portfolio.accounts) {
    for (const p of account.positions)
      positions[p.symbol] = (positions[p.symbol] === undefined ? p.qty : p.qty.plus(positions[p.symbol] as string)).toString();
  }
  return {
    strategy: i.strategy,
    params: i.params ?? {},
    data: {
      file: i.file,
      kind: i.header.kind,
      source: i.header.source,
      symbols: [...i.header.symbols],
      from: formatTimestamp(i.header.from),
      to: formatTimestamp(i.header.to),
      firstEvent: i.firstEventTime === undefined ? null : formatTimestamp(i.firstEventTime),
      lastEvent: i.lastEventTime === undefined ? null : formatTimestamp(i.lastEventTime),
      ...i.dataStats,
    },
    config: i.config,
    currency: i.portfolio.currency,
    pnl: { total: totals.netPnl.toString(), realized: totals.realizedPnl.toString(), unrealized: totals.unrealizedPnl.toString() },
    equity: { start: i.startingCash.toString(), end: totals.equity.toString() },
    fees: totals.fees.toString(),
    turnover: i.turnover.total.toString(),
    turnoverRatio: fixed(i.turnover.ratio(i.startingCash)),
    fills: i.counters.fills,
    orders: i.counters.orders,
    intents: i.counters.intents,
    requests: { ...i.counters.sentByKind },
    refusals: { ...i.counters.refusals },
    strategyErrors: i.counters.strategyErrors,
    tradingState: i.tradingState,
    positions,
    bySymbol: bySymbolOf(i),
    settlements: i.settlements.map((s) => ({ symbol: s.symbol, time: formatTimestamp(s.time), price: s.price, source: s.source })),
    ...(i.unsettled.length === 0 ? {} : { unsettled: unsettledOf(i) }),
    maxDrawdown: i.sampler.drawdown.maxAmount.toString(),
    maxDrawdownFraction: fixed(i.sampler.drawdown.maxFraction),
    sharpe: fixed(ratios.sharpe, 4),
    sortino: fixed(ratios.sortino, 4),
    returns: {
      period: i.ratioPeriod.period,
      periodMs: i.ratioPeriod.periodMs,
      annualised: i.ratioPeriod.annualised,
      periodsPerYear: i.ratioPeriod.periodsPerYear,
      count: stats.count,
      losing: stats.losing,
      minimum: MIN_RETURNS,
      intervalMs: i.metricsIntervalMs,
      whyNull: ratioReasons(stats, i.ratioPeriod, ratios),
    },
    events: i.events,
    bookEvents: i.bookEvents,
    realism: realismOf(i, marketSeconds),
    marketSeconds,
    eventsPerSecond: marketSeconds > 0 ? Math.round((i.events / marketSeconds) * 1000) / 1000 : null,
  };
}
