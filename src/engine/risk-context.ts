/**
 * The engine's RiskContext: the risk layer's read-only view over the OrderTracker, the portfolio, the
 * local books and the run's reference data. Nothing here mutates state.
 */
import type { Decimal } from '../domain/decimal.ts';
import { ZERO } from '../domain/decimal.ts';
import type { Instrument } from '../domain/index.ts';
import { atWorstTerms, type OrderTracker } from './orders/index.ts';
import type { RiskContext, RiskInstrument, RiskOpenOrder, RiskPosition, ReferencePriceSource } from './risk/index.ts';
import type { RiskManager } from './risk/index.ts';
import type { BookStore } from './books.ts';
import type { PortfolioPort } from './portfolio-port.ts';

export interface RiskContextDeps {
  now(): number;
  defaultAccount: string;
  accounts: readonly string[];
  instruments: ReadonlyMap<string, Instrument>;
  eventGroups: ReadonlyMap<string, string>;
  tracker: OrderTracker;
  portfolio: PortfolioPort;
  books: BookStore;
  risk: () => RiskManager;
  /** Whether the venue has a cross (default true). */
  canCross?: boolean;
}

export function riskInstrument(instrument: Instrument, eventGroup: string | undefined): RiskInstrument {
  const increment = instrument.minimumTradeQty.gt(0) ? instrument.minimumTradeQty : ZERO.plus(1).div(instrument.fractionalQtyScale);
  return {
    symbol: instrument.symbol,
    tickSize: instrument.tickSize,
    lowPriceLimit: instrument.lowPriceLimit,
    highPriceLimit: instrument.highPriceLimit,
    minimumQty: increment,
    qtyIncrement: ZERO.plus(1).div(instrument.fractionalQtyScale),
    eventGroup: eventGroup ?? (instrument.eventId === '' ? undefined : instrument.eventId),
  };
}

export function engineRiskContext(deps: RiskContextDeps): RiskContext {
  const cache = new Map<string, RiskInstrument>();
  return {
    now: deps.now,
    defaultAccount: deps.defaultAccount,
    accounts: () => deps.accounts,
    instrument: (symbol) => {
      let cached = cache.get(symbol);
      const instrument = deps.instruments.get(symbol);
      if (cached === undefined && instrument !== undefined) {
        cached = riskInstrument(instrument, deps.eventGroups.get(symbol));
        cache.set(symbol, cached);
      }
      return cached;
    },
    referencePrice: (symbol: string, source: ReferencePriceSource): Decimal | undefined => {
      const book = deps.books.get(symbol);
      return source === 'mid' ? (book?.mid ?? undefined) : book?.lastTradePrice;
    },
    // the port's positions are RiskPositions already (same readonly fields): no copy per check
    positions: (): readonly RiskPosition[] => deps.portfolio.positions(),
    // the tracker's views are RiskOpenOrders already (and kept while the order does not change); one with a
    // replace in flight counts the larger of its old and new leaves until the exchange answers
    openOrders: (): readonly RiskOpenOrder[] => atWorstTerms(deps.tracker.open()),
    dailyPnl: () => deps.portfolio.dailyPnl(),
    tradingState: () => deps.risk().tradingState.state,
    canCross: () => deps.canCross ?? true,
  };
}
