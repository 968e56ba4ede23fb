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
  readonly risk: RiskManager;
  readonly gate: IntentGate;
  readonly counters: RunCounters;
  readonly step: Step;
}

/** The runtime of `options.strategy` (not started). */
export function strategyRuntime(options: PipelineOptions, deps: StrategyHostDeps): StrategyRuntime {
  const { clock, venue, portfolio, strategy } = options;
  const { log, books, instruments, tracker, risk, gate, counters } = deps;
  return new StrategyRuntime(strategy, options.params, {
    clock,
    log,
    account: options.account,
    accounts: options.accounts,
    venue: { name: venue.name, canCross: venue.canCross ?? true },
    tradingState: () => risk.tradingState.state,
    symbols: options.symbols,
    ids: deps.ids,
    book: (symbol) => books.get(symbol),
    instrument: (symbol) => instruments.get(symbol),
    position: (symbol, account) => portfolio.position(symbol, account),
    // a fresh array of the tracker's views (each an OrderView already): no second copy per call
    openOrders: (symbol): readonly OrderView[] => tracker.open(symbol),
    emit: (intent) => gate.handle(intent),
    // timers fire outside market and order events: each firing is a step of its own, so its intents leave at once
    step: (work) => deps.step(work),
    onError: (error, callback) => {
      counters.strategyErrors += 1;
      log.error({ err: error, callback }, `strategy ${strategy.name} failed in ${callback}: ${describeError(error)}`);
      risk.tradingState.strategyError(strategy.name, describeError(error), clock.now());
    },
  });
}
