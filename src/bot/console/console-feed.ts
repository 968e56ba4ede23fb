/**
 * What the web console shows, gathered from a running pipeline: the strategy, the trading state and why, PnL
 * with an equity series, positions, open orders, the last fills, refusals by code with the latest messages,
 * the health of the two streams, the message rate against its limit, and each traded symbol's book (a few
 * levels) with the bot's own orders marked; with bot.strategies, each strategy's own trading state and the
 * figures of its run.summary part. `snapshot()` is a plain JSON-ready object of strings and numbers (amounts as
 * decimal strings, never floats; its shape is console-schema.ts); the feed keeps bounded rings, sampled once a
 * second by `tick()`.
 */
import type { Subscription } from 'rxjs';
import type { Decimal } from '../../domain/decimal.ts';
import type { RunningPipeline } from '../../engine/pipeline/index.ts';
import type { StrategyPart } from '../../engine/pipeline/strategies.ts';
import type { Portfolio } from '../../engine/portfolio/index.ts';
import { countersSummary } from '../strategy-members.ts';
import type { ConsoleLevel, ConsoleSnapshot, ConsoleStrategy } from './console-schema.ts';

export type { ConsoleLevel, ConsoleSnapshot, ConsoleStrategy, StreamHealth } from './console-schema.ts';

const MAX_FILLS = 50;
const MAX_REFUSAL_MESSAGES = 20;
const MAX_EQUITY_POINTS = 3600;
const BOOK_LEVELS = 5;

export interface ConsoleFeedOptions {
  readonly pipeline: RunningPipeline;
  readonly portfolio: Portfolio;
  readonly strategy: string;
  readonly symbols: readonly string[];
  readonly maxMessagesPerSecond: number;
  readonly now: () => number;
  /** With bot.strategies: each strategy, shown with its own state and figures; absent with the single form. */
  readonly strategies?: readonly ConsoleStrategySource[];
}

/** One strategy of the pipeline as the feed reads it. */
export interface ConsoleStrategySource {
  /** The plugin's name (the id is the part's). */
  readonly strategy: string;
  readonly part: StrategyPart;
  /** Its own portfolio (only its fills). */
  readonly portfolio: Portfolio;
}

/** A strategy's row: its own trading state, and the figures of its run.summary part. */
export function strategyRow(source: ConsoleStrategySource): ConsoleStrategy {
  const { part } = source;
  const state = part.risk.tradingState;
  return {
    id: part.id,
    strategy: source.strategy,
    symbols: [...part.symbols],
    tradingState: { state: state.state, cause: state.cause, reason: state.reason },
    ...countersSummary(part.counters, source.portfolio),
  };
}

const text = (value: Decimal): string => value.toString();

export class ConsoleFeed {
  private readonly fills: ConsoleSnapshot['fills'][number][] = [];
  private readonly refusalMessages: ConsoleSnapshot['refusals']['latest'][number][] = [];
  private readonly equity: ConsoleSnapshot['equity'][number][] = [];
  private readonly subscriptions: Subscription[] = [];
  private lastMarket: number | undefined;
  private lastOrders: number | undefined;
  private ordersConnected = false;
  private sentBefore = 0;
  private perSecond = 0;

  constructor(private readonly options: ConsoleFeedOptions) {
    const { pipeline } = options;
    this.subscriptions.push(
      pipeline.tracker.fills$.subscribe((fill) => {
        this.fills.unshift({ time: fill.time, symbol: fill.symbol, side: fill.side, qty: text(fill.qty), price: text(fill.price) });
        if (this.fills.length > MAX_FILLS) this.fills.pop();
      }),
      pipeline.refusals$.subscribe((refusal) => {
        this.refusalMessages.unshift({ time: options.now(), code: refusal.code, message: refusal.message });
        if (this.refusalMessages.length > MAX_REFUSAL_MESSAGES) this.refusalMessages.pop();
      }),
    );
    this.sentBefore = this.sentTotal();
  }

  /** A message of a venue stream arrived (the pipeline's record hook). */
  observe(stream: 'market' | 'orders', eventType: string): void {
    const now = this.options.now();
    if (stream === 'market') this.lastMarket = now;
    else {
      this.lastOrders = now;
      if (eventType === 'snapshot' || eventType === 'connected') this.ordersConnected = true;
      if (eventType === 'disconnected') this.ordersConnected = false;
    }
  }

  /** Once a second: an equity point and the message rate of the last second. */
  tick(): void {
    const sent = this.sentTotal();
    this.perSecond = sent - this.sentBefore;
    this.sentBefore = sent;
    this.equity.push({ time: this.options.now(), net: text(this.options.portfolio.snapshot().totals.netPnl) });
    if (this.equity.length > MAX_EQUITY_POINTS) this.equity.shift();
  }

  snapshot(): ConsoleSnapshot {
    const { pipeline, portfolio, now } = this.options;
    const time = now();
    const portfolioNow = portfolio.snapshot();
    const totals = portfolioNow.totals;
    const state = pipeline.risk.tradingState;
    const open = pipeline.tracker.open();
    const counters = pipeline.counters;
    const age = (last: number | undefined) => (last === undefined ? null : Math.max(0, time - last));
    return {
      time,
      strategy: this.options.strategy,
      symbols: [...this.options.symbols],
      tradingState: { state: state.state, cause: state.cause, reason: state.reason },
      pnl: {
        realized: text(totals.realizedPnl),
        unrealized: text(totals.unrealizedPnl),
        fees: text(totals.fees),
        net: text(totals.netPnl),
        equity: text(totals.equity),
      },
      equity: [...this.equity],
      positions: portfolioNow.accounts.flatMap((a) =>
        a.positions.map((p) => ({ account: a.account, symbol: p.symbol, qty: text(p.qty), avgPx: text(p.avgPx) })),
      ),
      openOrders: open.map((o) => ({
        clordId: o.clordId,
        symbol: o.symbol,
        side: o.side,
        price: o.price === undefined ? null : text(o.price),
        leavesQty: text(o.leavesQty),
        state: o.state,
      })),
      fills: [...this.fills],
      refusals: { byCode: { ...counters.refusals }, latest: [...this.refusalMessages] },
      streams: {
        market: { connected: pipeline.books.isConnected, lastMessageAgeMs: age(this.lastMarket), reconnects: counters.feedDisconnects },
        orders: {
          connected: this.ordersConnected && !pipeline.tracker.stale,
          lastMessageAgeMs: age(this.lastOrders),
          reconnects: Math.max(0, counters.orderStreamConnects - 1),
        },
      },
      messages: { perSecond: this.perSecond, limit: this.options.maxMessagesPerSecond, sent: this.sentTotal() },
      counters: { orders: counters.orders, fills: counters.fills, refusals: counters.refusalCount },
      books: this.options.symbols.map((symbol) => this.book(symbol)),
      ...(this.options.strategies === undefined ? {} : { strategies: this.options.strategies.map(strategyRow) }),
    };
  }

  close(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  private book(symbol: string): ConsoleSnapshot['books'][number] {
    const book = this.options.pipeline.books.get(symbol);
    const own = new Map<string, Decimal>();
    for (const order of this.options.pipeline.tracker.open(symbol)) {
      if (order.price === undefined) continue;
      const key = `${order.side}:${order.price.toString()}`;
      const before = own.get(key);
      own.set(key, before === undefined ? order.leavesQty : before.plus(order.leavesQty));
    }
    const levels = (side: 'BUY' | 'SELL', list: readonly { price: Decimal; qty: Decimal }[] | undefined): ConsoleLevel[] =>
      (list ?? []).slice(0, BOOK_LEVELS).map((level) => ({
        price: text(level.price),
        qty: text(level.qty),
        own: own.get(`${side}:${level.price.toString()}`)?.toString() ?? '0',
      }));
    return {
      symbol,
      stale: book?.stale ?? true,
      bids: levels('BUY', book?.bids),
      offers: levels('SELL', book?.offers),
      lastTrade: book?.lastTradePrice === undefined ? null : text(book.lastTradePrice),
    };
  }

  private sentTotal(): number {
    const sent = this.options.pipeline.counters.sentByKind;
    return sent.insert + sent.cancel + sent.replace + sent.cross;
  }
}
