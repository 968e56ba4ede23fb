/**
 * What the engine does with one market-data event: a disconnect marks every book stale (risk's feed goes
 * stale, the strategy sees the stale books); a book update, unless older than one already applied, goes into
 * the local books (a fresh feed again after a disconnect), the settlement watch (an expired contract settles,
 * then a reconciliation runs), the portfolio's mark, risk's daily-loss refresh, and the strategy: first the
 * trade the stats reveal (TradesFromStats), then the book.
 */
import { ZERO, type Decimal } from '../../domain/decimal.ts';
import type { BookStore } from '../books.ts';
import type { Clock } from '../clock.ts';
import type { PortfolioPort } from '../portfolio-port.ts';
import type { RiskContext, RiskManager } from '../risk/index.ts';
import type { RunCounters } from '../run-counters.ts';
import type { SettlementWatch } from '../settlements.ts';
import type { TradeView } from '../strategy/views.ts';
import type { MarketDataEvent } from '../../domain/stream-events.ts';
import type { Logger } from 'pino';
import type { StrategySlot } from './options.ts';

type BookEvent = Extract<MarketDataEvent, { type: 'book' }>;

/**
 * Trades derived from a symbol's cumulative traded shares (`stats.sharesTraded`): when it grew since the
 * symbol's previous book event, the difference traded at `stats.lastTradePx`. The first event of a symbol
 * only sets the starting point; an event without stats counts as zero shares traded.
 */
export class TradesFromStats {
  private readonly lastShares = new Map<string, Decimal>();

  constructor(private readonly now: () => number) {}

  /** The trade `event` reveals, if any. */
  onBook(event: BookEvent): TradeView | undefined {
    const traded = event.stats?.sharesTraded ?? ZERO;
    const previous = this.lastShares.get(event.symbol);
    this.lastShares.set(event.symbol, traded);
    if (previous === undefined || !traded.gt(previous) || event.stats === undefined) return undefined;
    return { symbol: event.symbol, price: event.stats.lastTradePx, qty: traded.minus(previous), time: this.now() };
  }
}

export interface MarketHandlerDeps {
  readonly clock: Clock;
  readonly log: Logger;
  readonly books: BookStore;
  readonly counters: RunCounters;
  readonly risk: RiskManager;
  readonly context: RiskContext;
  readonly portfolio: PortfolioPort;
  readonly settlements: SettlementWatch;
  readonly strategy: StrategySlot;
  /** Asks for a reconciliation (after a settlement). */
  reconcile(): void;
}

export class MarketHandler {
  private readonly trades: TradesFromStats;

  constructor(private readonly deps: MarketHandlerDeps) {
    this.trades = new TradesFromStats(() => deps.clock.now());
  }

  /** Handles one event (call inside an engine step). */
  onEvent(event: MarketDataEvent): void {
    if (event.type === 'disconnected') this.onDisconnect();
    else if (event.type === 'book') this.onBook(event);
  }

  private onDisconnect(): void {
    const { counters, books, risk, clock, strategy } = this.deps;
    counters.feedDisconnects += 1;
    books.markAllStale();
    risk.tradingState.feedStale('all', clock.now());
    for (const view of books.all()) strategy.runtime?.book(view);
  }

  private onBook(event: BookEvent): void {
    const { counters, books, risk, clock, strategy, portfolio } = this.deps;
    if (books.isOutOfOrder(event)) {
      counters.bookUpdatesOutOfOrder += 1;
      return;
    }
    const wasConnected = books.isConnected;
    const { view, becameFresh } = books.apply(event, clock.now());
    counters.bookUpdates += 1;
    if (becameFresh && !wasConnected) risk.tradingState.feedFresh('all', clock.now());
    const settled = this.settle(event);
    const mark = settled ? undefined : books.markPrice(event.symbol);
    if (mark !== undefined) portfolio.mark(event.symbol, mark);
    risk.refresh(this.deps.context);
    const trade = this.trades.onBook(event);
    if (trade !== undefined) strategy.runtime?.trade(trade);
    strategy.runtime?.book(view);
  }

  /** True when the event is a settlement (settled here, or to be checked): a reconciliation follows. */
  private settle(event: BookEvent): boolean {
    const settlement = this.deps.settlements.onBook(event);
    if (settlement === undefined) return false;
    if (settlement.kind === 'settled') {
      const price = settlement.price.toString();
      this.deps.log.info({ symbol: settlement.symbol, price }, `${settlement.symbol} settled at ${price}`);
    }
    this.deps.reconcile();
    return true;
  }
}
