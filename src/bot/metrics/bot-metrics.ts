/**
 * The bot's Prometheus metrics, in their own prom-client Registry (never the global one):
 *
 *   tradebot_orders_sent_total{kind}        insert / cancel / replace / cross messages sent to the venue
 *   tradebot_fills_total                    fills booked
 *   tradebot_refusals_total{code}           intents refused by risk, by refusal code
 *   tradebot_pnl                            net PnL of the portfolio snapshot (realized + unrealized - fees)
 *   tradebot_open_orders                    the tracker's open orders
 *   tradebot_trading_state{state}           1 for the current state (active, reducing, halted), else 0
 *   tradebot_feed_latency_seconds           histogram: exchange transact time -> engine receive time of books
 *   tradebot_stream_reconnects_total{stream} market / orders streams connected again after a drop
 *
 * With several strategies in the bot (`bot.strategies`), each strategy's part, labelled by its id:
 *
 *   tradebot_strategy_orders_sent_total{strategy,kind}   its messages sent, by kind
 *   tradebot_strategy_fills_total{strategy}              its fills
 *   tradebot_strategy_refusals_total{strategy,code}      its intents refused, by code
 *   tradebot_strategy_pnl{strategy}                      its own portfolio's net PnL
 *   tradebot_strategy_trading_state{strategy,state}      1 for its own trading state, else 0
 *
 * The totals above stay unlabelled: they also hold what no strategy owns (run.summary's `unattributed`), so
 * summing a strategy series over `strategy` gives the strategies' parts, not the totals.
 *
 * Two ways in. Pull: counters, PnL, open orders and trading state are read at scrape time from a bound
 * `RunMetricsSource` (the run's RunCounters and portfolio), so the pipeline does no extra work per event;
 * before one is bound (the endpoint starts just before the pipeline) they read 0 and no trading state.
 * Push: `observe` takes the pipeline's per-event `record` hook and feeds the latency histogram and the
 * reconnect counter. Values are floats here for display only; the bot's own figures stay Decimal.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Decimal } from '../../domain/decimal.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
import type { RunCounters } from '../../engine/run-counters.ts';
import { TRADING_STATES, type TradingState } from '../../engine/risk/trading-state.ts';

/** What the metrics read at scrape time. */
export interface RunMetricsSource {
  readonly counters: Pick<RunCounters, 'sentByKind' | 'fills' | 'refusals'>;
  netPnl(): Decimal;
  openOrders(): number;
  tradingState(): TradingState;
  /** With several strategies: each one's part (absent for the single form). */
  strategies?(): readonly StrategyMetricsSource[];
}

/** One strategy's figures, read at scrape time. */
export interface StrategyMetricsSource {
  readonly id: string;
  readonly counters: Pick<RunCounters, 'sentByKind' | 'fills' | 'refusals'>;
  netPnl(): Decimal;
  tradingState(): TradingState;
}

/** The shape of PipelineOptions.record: every event the pipeline receives, with the engine time. */
export interface ObservedEvent {
  readonly stream: 'market' | 'orders';
  readonly time: number;
  readonly event: MarketDataEvent | OrderStreamEvent;
}

export interface BotMetricsOptions {
  /** Also export Node.js process metrics (CPU, memory, event loop lag) as tradebot_process_* etc. Default true. */
  readonly processMetrics?: boolean;
  /** Histogram buckets of the feed latency, seconds. */
  readonly latencyBuckets?: readonly number[];
}

export const DEFAULT_LATENCY_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const SENT_KINDS = ['insert', 'cancel', 'replace', 'cross'] as const;

export class BotMetrics {
  readonly registry = new Registry();
  private source: RunMetricsSource | undefined;
  private readonly latency: Histogram<never>;
  private readonly reconnects: Counter<'stream'>;

  constructor(options: BotMetricsOptions = {}) {
    const registers = [this.registry];
    const read = <T>(fn: (source: RunMetricsSource) => T): T | undefined => (this.source === undefined ? undefined : fn(this.source));

    const sent = new Counter({
      name: 'tradebot_orders_sent_total',
      help: 'Order messages sent to the venue, by kind (insert, cancel, replace, cross)',
      labelNames: ['kind'] as const,
      registers,
      collect: () => {
        sent.reset();
        for (const kind of SENT_KINDS) sent.inc({ kind }, read((s) => s.counters.sentByKind[kind]) ?? 0);
      },
    });
    const fills = new Counter({
      name: 'tradebot_fills_total',
      help: 'Fills booked into the portfolio',
      registers,
      collect: () => {
        fills.reset();
        fills.inc(read((s) => s.counters.fills) ?? 0);
      },
    });
    const refusals = new Counter({
      name: 'tradebot_refusals_total',
      help: 'Intents refused by the risk layer, by refusal code',
      labelNames: ['code'] as const,
      registers,
      collect: () => {
        refusals.reset();
        for (const [code, count] of Object.entries(read((s) => s.counters.refusals) ?? {})) refusals.inc({ code }, count);
      },
    });
    const pnl = new Gauge({
      name: 'tradebot_pnl',
      help: 'Net PnL of the portfolio snapshot (realized + unrealized - fees), in the account currency',
      registers,
      collect: () => {
        pnl.set(read((s) => s.netPnl().toNumber()) ?? 0);
      },
    });
    const openOrders = new Gauge({
      name: 'tradebot_open_orders',
      help: 'Orders working or in flight',
      registers,
      collect: () => {
        openOrders.set(read((s) => s.openOrders()) ?? 0);
      },
    });
    const tradingState = new Gauge({
      name: 'tradebot_trading_state',
      help: 'Trading state: 1 for the current state (active, reducing, halted), 0 for the others',
      labelNames: ['state'] as const,
      registers,
      collect: () => {
        const current = read((s) => s.tradingState());
        tradingState.reset();
        if (current !== undefined) for (const state of TRADING_STATES) tradingState.set({ state }, state === current ? 1 : 0);
      },
    });
    this.strategyMetrics(registers, () => read((s) => s.strategies?.()) ?? []);
    this.latency = new Histogram({
      name: 'tradebot_feed_latency_seconds',
      help: 'Book updates: engine receive time minus the exchange transact time (negative clock skew counts as 0)',
      buckets: [...(options.latencyBuckets ?? DEFAULT_LATENCY_BUCKETS)],
      registers,
    });
    this.reconnects = new Counter({
      name: 'tradebot_stream_reconnects_total',
      help: 'Streams connected again after a drop (market data, order updates)',
      labelNames: ['stream'] as const,
      registers,
    });
    for (const stream of ['market', 'orders']) this.reconnects.inc({ stream }, 0);
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'tradebot_' });
  }

  /** The per-strategy series (see the header), read from `parts` at every scrape. */
  private strategyMetrics(registers: Registry[], parts: () => readonly StrategyMetricsSource[]): void {
    const sent = new Counter({
      name: 'tradebot_strategy_orders_sent_total',
      help: "A strategy's order messages sent to the venue, by kind",
      labelNames: ['strategy', 'kind'] as const,
      registers,
      collect: () => {
        sent.reset();
        for (const part of parts()) for (const kind of SENT_KINDS) sent.inc({ strategy: part.id, kind }, part.counters.sentByKind[kind]);
      },
    });
    const fills = new Counter({
      name: 'tradebot_strategy_fills_total',
      help: "A strategy's fills",
      labelNames: ['strategy'] as const,
      registers,
      collect: () => {
        fills.reset();
        for (const part of parts()) fills.inc({ strategy: part.id }, part.counters.fills);
      },
    });
    const refusals = new Counter({
      name: 'tradebot_strategy_refusals_total',
      help: "A strategy's intents refused by the risk layer, by refusal code",
      labelNames: ['strategy', 'code'] as const,
      registers,
      collect: () => {
        refusals.reset();
        for (const part of parts())
          for (const [code, count] of Object.entries(part.counters.refusals)) refusals.inc({ strategy: part.id, code }, count);
      },
    });
    const pnl = new Gauge({
      name: 'tradebot_strategy_pnl',
      help: "Net PnL of a strategy's own portfolio (its fills only), in the account currency",
      labelNames: ['strategy'] as const,
      registers,
      collect: () => {
        pnl.reset();
        for (const part of parts()) pnl.set({ strategy: part.id }, part.netPnl().toNumber());
      },
    });
    const state = new Gauge({
      name: 'tradebot_strategy_trading_state',
      help: "A strategy's own trading state: 1 for the current state (active, reducing, halted), 0 for the others",
      labelNames: ['strategy', 'state'] as const,
      registers,
      collect: () => {
        state.reset();
        for (const part of parts()) {
          const current = part.tradingState();
          for (const s of TRADING_STATES) state.set({ strategy: part.id, state: s }, s === current ? 1 : 0);
        }
      },
    });
  }

  /** Reads counters, PnL, open orders and trading state from `source` at every scrape. */
  bind(source: RunMetricsSource): void {
    this.source = source;
  }

  /** Per-event hook, shaped like PipelineOptions.record: feed latency of books, stream reconnects. */
  readonly observe = (observed: ObservedEvent): void => {
    const { event } = observed;
    if (event.type === 'connected') {
      if (event.attempt > 1) this.reconnects.inc({ stream: observed.stream });
      return;
    }
    if (event.type === 'book' && event.transactTime !== undefined) {
      this.latency.observe(Math.max(0, observed.time - event.transactTime) / 1000);
    }
  };

  /** The exposition text (Prometheus text format 0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
