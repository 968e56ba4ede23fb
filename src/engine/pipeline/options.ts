/**
 * The pipeline's options and what a running pipeline exposes (its counters, tracker, risk manager, books and
 * reference data, and `stop`). Kept apart from index.ts so the assembly there reads in one screen.
 */
import type { Logger } from 'pino';
import type { Instrument } from '../../domain/index.ts';
import type { BookStore } from '../books.ts';
import type { Clock } from '../clock.ts';
import type { Journal } from '../journal/index.ts';
import type { OrderTracker } from '../orders/index.ts';
import type { PortfolioPort } from '../portfolio-port.ts';
import type { RiskConfig, RiskManager } from '../risk/index.ts';
import type { RunCounters } from '../run-counters.ts';
import type { AnyStrategy } from '../strategy/define-strategy.ts';
import type { StrategyRuntime } from '../strategy/runtime.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
import type { Venue } from '../venue.ts';
import type { Observable } from 'rxjs';
import type { RefusedView } from '../strategy/views.ts';
import type { StrategyMemberOptions, StrategyPart } from './strategies.ts';

export interface PipelineOptions {
  venue: Venue;
  clock: Clock;
  log: Logger;
  /** The strategy (with `strategies`: ignored, give the first's). */
  strategy: AnyStrategy;
  params: unknown;
  /**
   * Several strategies in this pipeline (#25): each with its id (its client order id prefix), params, symbols,
   * account, limits and portfolio. Absent: `strategy` alone, with `tb` order ids, as before.
   */
  strategies?: readonly StrategyMemberOptions[];
  risk: RiskConfig;
  portfolio: PortfolioPort;
  /** The account intents trade by default, and every account the bot follows. */
  account: string;
  accounts: readonly string[];
  symbols: readonly string[];
  /** Orders found on the exchange that this run did not send: keep tracking them, or cancel them. */
  unknownOrders?: 'adopt' | 'cancel';
  /** Event group per symbol for the risk layer (default: the instrument's event id). */
  eventGroups?: ReadonlyMap<string, string>;
  runId?: string;
  /**
   * The order journal: replayed on start (orders in flight are tracked again, never re-sent), written as
   * the run trades (requests durable before they are sent), compacted at stop. The caller opens and closes it.
   */
  journal?: Journal;
  /** Finished orders the OrderTracker keeps (default 10000); older ones are forgotten so memory stays bounded. */
  finishedOrderHistory?: number;
  /** Execution ids the OrderTracker remembers to drop repeats (default 100000; 0: none, for a venue that never repeats one). */
  executionDedupeCapacity?: number;
  /** Ids of forgotten finished orders the OrderTracker remembers (default ten times finishedOrderHistory). */
  forgottenOrderMemory?: number;
  /**
   * After `onStop`, how long (engine ms) the intents it sent may take to complete before the engine cancels
   * what is left (default 1000; 0: cancel at once). Ends early once nothing is in flight (stop.ts).
   */
  stopGraceMs?: number;
  /** Called with every event the pipeline receives (recording for replay). */
  record?: (event: { stream: 'market' | 'orders'; time: number; event: MarketDataEvent | OrderStreamEvent }) => void;
}

export interface RunningPipeline {
  readonly counters: RunCounters;
  readonly tracker: OrderTracker;
  readonly risk: RiskManager;
  readonly books: BookStore;
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** Every refused intent, as the strategy is told it (for consoles and operators; completes at stop). */
  readonly refusals$: Observable<RefusedView>;
  /** Cancels every open order that can rest (an operator's cancel-all); resolves when the venue answered. */
  cancelAll(): Promise<void>;
  /** With several strategies: each one's counters, risk manager (its trading state) and portfolio, by id. */
  readonly strategies?: ReadonlyMap<string, StrategyPart>;
  /** Stops the strategy, cancels open orders, ends the streams. */
  stop(): Promise<void>;
}

/** What the pipeline drives: the strategy's runtime, or the StrategySet of several (strategies.ts). */
export type StrategyPort = Pick<StrategyRuntime, 'start' | 'stop' | 'close' | 'book' | 'trade' | 'orderUpdate' | 'tradingState'>;

/** The strategy's runtime while the run lasts; undefined once stopped (late events reach no strategy). */
export interface StrategySlot {
  runtime: StrategyPort | undefined;
}

/**
 * One engine step: `work` runs to completion (an error in it is logged, never thrown into a stream), then
 * the execution adapter sends what the step queued, so batching is deterministic.
 */
export type Step = (work: () => void) => void;
