/**
 * The strategy's host: the StrategyRuntime the pipeline runs the plugin in, with its views (books, reference
 * data, positions, the tracker's open orders, the trading state), its intents out through the intent gate,
 * its timers as engine steps of their own, and a throwing callback counted, logged with the plugin's name and
 * reported to risk (which moves the trading state per config).
 */
import type { Logger } from 'pino';
import { describeError } from '../../errors.ts';
import type { Instrument } from '../../domain/index.ts';
import type { BookStore } from '../books.ts';
import type { OrderTracker } from '../orders/index.ts';
import type { RiskManager } from '../risk/index.ts';
import type { TradingState } from '../risk/trading-state.ts';
import type { RunCounters } from '../run-counters.ts';
import { StrategyRuntime, type IdFactory } from '../strategy/runtime.ts';
import type { OrderView } from '../strategy/views.ts';
import type { IntentGate } from './intent-gate.ts';
import type { PipelineOptions, Step } from './options.ts';

export interface StrategyHostDeps {
  /** The strategy's own logger (a child named after it). */
  readonly log: Logger;
  readonly ids: IdFactory;
  readonly books: BookStore;
  readonly instruments: ReadonlyMap<string, Instrument>;
  readonly tracker: OrderTracker;
  /** The risk manager whose trading state the strategy sees and whose state its errors move. */
  readonly risk: RiskManager;
  readonly gate: IntentGate;
  readonly counters: Pick<RunCounters, 'strategyErrors'>;
  readonly step: Step;
  /** With several strategies (#25): true for the orders this strategy sent (it sees only those). */
  readonly owns?: (clordId: string) => boolean;
  /** The state the strategy sees (default: `risk`'s); with several, the stricter of the bot's and its own. */
  readonly tradingState?: () => TradingState;
}

/** What a runtime runs: the plugin, its params, account, symbols and the portfolio its positions come from. */
export interface RuntimeSpec {
  readonly strategy: PipelineOptions['strategy'];
  readonly params: unknown;
  readonly account: string;
  readonly symbols: readonly string[];
  readonly portfolio: PipelineOptions['portfolio'];
  /** Its id in a bot running several (absent: the plugin's name). */
  readonly id?: string;
}

/** The runtime of `spec` (default: `options.strategy`; not started). */
export function strategyRuntime(options: PipelineOptions, deps: StrategyHostDeps, spec: RuntimeSpec = options): StrategyRuntime {
  const { clock, venue } = options;
  const { portfolio, strategy } = spec;
  const { log, books, instruments, tracker, risk, gate, counters, owns } = deps;
  const name = spec.id ?? strategy.name;
  return new StrategyRuntime(strategy, spec.params, {
    ...(spec.id === undefined ? {} : { strategyId: spec.id }),
    clock,
    log,
    account: spec.account,
    accounts: options.accounts,
    venue: { name: venue.name, canCross: venue.canCross ?? true },
    tradingState: deps.tradingState ?? (() => risk.tradingState.state),
    symbols: spec.symbols,
    ids: deps.ids,
    book: (symbol) => books.get(symbol),
    instrument: (symbol) => instruments.get(symbol),
    position: (symbol, account) => portfolio.position(symbol, account),
    // a fresh array of the tracker's views (each an OrderView already): no second copy per call
    openOrders: (symbol): readonly OrderView[] =>
      owns === undefined ? tracker.open(symbol) : tracker.open(symbol).filter((order) => owns(order.clordId)),
    emit: (intent) => gate.handle(intent),
    // timers fire outside market and order events: each firing is a step of its own, so its intents leave at once
    step: (work) => deps.step(work),
    onError: (error, callback) => {
      counters.strategyErrors += 1;
      log.error({ err: error, callback }, `strategy ${name} failed in ${callback}: ${describeError(error)}`);
      risk.tradingState.strategyError(name, describeError(error), clock.now());
    },
  });
}
