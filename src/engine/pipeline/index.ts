/**
 * The event pipeline, assembled: venue streams -> local books and OrderTracker -> strategy callbacks ->
 * intents -> risk -> execution adapter -> venue, with fills into the portfolio and settlements of expired
 * contracts seen on the market data too. The same assembly runs live and in backtests; only the Venue and the
 * Clock differ. Every incoming event is handled to completion (books, tracker, strategy, risk) in one engine
 * step before the adapter flushes what it queued, so batching is deterministic.
 *
 * This file assembles and subscribes only; what the engine does is one module each:
 * - journal.ts: the order journal replayed first (orders an earlier run left in flight tracked again, never
 *   re-sent; ids continue after the journal's), written as the run trades (requests durable before sent);
 * - ledger.ts: the execution adapter's record of what it sends, kept in the OrderTracker;
 * - intent-gate.ts: intents through risk -> the adapter, or a refusal back to the strategy;
 * - strategy.ts: the strategy's host (its views, intents, timers, errors);
 * - on-market.ts: a market-data event into books, settlements, marks, risk, and the strategy (trades derived
 *   from the stats);
 * - on-orders.ts: order events into the tracker, fills into the portfolio, the adopted-order policy;
 * - reconcile.ts: the Reconciler (after each snapshot: lookups, positions with retries, zombie cancels);
 * - stop.ts: the stop sequence with the stop grace, and the journal compacted at stop.
 */
import type { Logger } from 'pino';
import { Subject, Subscription, type Observer } from 'rxjs';
import type { Instrument } from '../../domain/index.ts';
import { describeError } from '../../errors.ts';
import { BookStore } from '../books.ts';
import { ExecutionAdapter, type AdapterThrottle, type ThrottleOutcome } from '../execution/adapter.ts';
import { clordPrefixOf, newRunId, sharedIdFactory } from '../execution/ids.ts';
import { OrderTracker } from '../orders/index.ts';
import { RiskManager, type Approved, type RiskContext } from '../risk/index.ts';
import { engineRiskContext } from '../risk-context.ts';
import { RunCounters } from '../run-counters.ts';
import { SettlementWatch } from '../settlements.ts';
import type { RefusedView, ThrottledView } from '../strategy/views.ts';
import type { Intent } from '../intents.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
import type { Venue } from '../venue.ts';
import { IntentGate, engineCancelIntent } from './intent-gate.ts';
import { keepStrategyHoldings, replayJournal, restoreOrders, startJournal } from './journal.ts';
import { trackerLedger } from './ledger.ts';
import { MarketHandler } from './on-market.ts';
import { OrderFlow } from './on-orders.ts';
import type { PipelineOptions, RunningPipeline, Step, StrategySlot } from './options.ts';
import { Reconciler } from './reconcile.ts';
import { stopPipeline } from './stop.ts';
import { strategyRuntime } from './strategy.ts';
import { StrategySet, markedTogether } from './strategies.ts';

export type { PipelineOptions, RunningPipeline } from './options.ts';

export async function startPipeline(options: PipelineOptions): Promise<RunningPipeline> {
  const { venue, clock, log, accounts } = options;
  // with several strategies, marks and settlements reach their own portfolios too
  const portfolio = markedTogether(options.portfolio, options.strategies);
  const recovered = await replayJournal(options.journal);
  const runId = options.runId ?? newRunId(recovered?.runIds);
  const idsFor = sharedIdFactory(runId, recovered?.counters);
  const ids = idsFor('tb');
  const counters = new RunCounters();
  const instruments = await referenceData(venue, options.symbols, log);
  const books = new BookStore();
  const { finishedOrderHistory: finishedHistory, executionDedupeCapacity: dedupeCapacity, forgottenOrderMemory } = options;
  const tracker = new OrderTracker({ clock, finishedHistory, dedupeCapacity, forgottenOrderMemory });
  // over the message budget intents wait in the adapter's send queue (risk.maxQueuedMessages > 0), or are refused
  const queueing = options.risk.maxQueuedMessages > 0;
  const risk = new RiskManager(options.risk, { clock, messageRate: queueing ? 'queue' : 'refuse' });
  const writer = startJournal(options.journal, recovered, { clock, runId, tracker, risk, log });
  const context = riskContext(options, { instruments, tracker, books, risk });
  const adapter = new ExecutionAdapter({
    venue,
    log,
    defaultAccount: options.account,
    selfMatchPrevention: undefined,
    onSent: (kind, count, clordIds) => {
      counters.sent(kind, count);
      several?.sent(kind, count, clordIds);
    },
    ledger: trackerLedger(tracker),
    ...(writer === undefined ? {} : { journal: writer.recorder }),
    ...(queueing
      ? {
          throttle: throttleOf(
            options,
            () => step(() => undefined),
            (outcome) => (several === undefined ? gate.throttled(outcome, deliver) : several.throttled(outcome, gate)),
          ),
        }
      : {}),
  });
  const step = engineStep(adapter, log);
  const strategy: StrategySlot = { runtime: undefined };
  const strategyLog = log.child({ strategy: options.strategy.name });
  // intents through risk; a refusal goes back to the strategy (delivered after the call that emitted it)
  const symbolOf = (clordId: string) => tracker.get(clordId)?.symbol;
  const submit = (approved: Approved) => adapter.submit(approved);
  const refusals$ = new Subject<RefusedView>();
  const refused = (view: RefusedView) => {
    refusals$.next(view);
    strategy.runtime?.orderUpdate(view);
  };
  const deliver = (view: ThrottledView) => strategy.runtime?.orderUpdate(view);
  const queueFull = (intent: Intent) => adapter.queueFull(intent);
  const gate = new IntentGate({ risk, context, log: strategyLog, counters, submit, symbolOf, refused, queueFull });
  const cancel = (clordId: string) => gate.cancelByEngine(engineCancelIntent(clordId, ids.intentId(), clock.now()));
  /** Cancels every open order but those that cannot rest (IOC, FOK, cross legs): their outcome is on its way. */
  const cancelAllOpen = () => adapter.cancelAllOpen((clordId) => gate.isImmediate(clordId));
  const subscriptions = new Subscription();
  let several: StrategySet | undefined;
  if (options.strategies !== undefined && options.strategies.length > 0) {
    const members = options.strategies;
    const isImmediate = (clordId: string) => gate.isImmediate(clordId);
    const base = { options, members, log, idsFor, books, instruments, tracker, risk, context, counters, step, submit, queueFull };
    several = new StrategySet({ ...base, refusals$, cancel, isImmediate, subscriptions });
    strategy.runtime = several;
    keepStrategyHoldings(writer, members, { log, subscriptions });
  } else {
    strategy.runtime = strategyRuntime(options, { log: strategyLog, ids, books, instruments, tracker, risk, gate, counters, step });
  }
  const journal = restoreOrders(writer, { tracker, venue, log, step, counters });
  const settlements = new SettlementWatch(portfolio, () => clock.now());
  const stopped = () => strategy.runtime === undefined;
  const shared = { clock, log, tracker, portfolio, counters, step, strategy, cancel };
  const reconciler = new Reconciler({ ...shared, venue, settlements, accounts, recovery: journal?.recovery, stopped, subscriptions });
  const orders = new OrderFlow({ ...shared, recorder: journal?.recorder, unknownOrders: options.unknownOrders, gate, adapter, reconciler });
  orders.subscribe(subscriptions);
  subscriptions.add(risk.tradingState.cancelAllRequired$.subscribe(() => void cancelAllOpen()));
  subscriptions.add(
    risk.tradingState.changes$.subscribe((change) => {
      log.warn({ from: change.from, to: change.to, cause: change.cause }, `trading state ${change.from} -> ${change.to}: ${change.reason}`);
      strategy.runtime?.tradingState(change);
    }),
  );
  const reconcile = () => reconciler.reconcileNow();
  const market = new MarketHandler({ clock, log, books, counters, risk, context, portfolio, settlements, strategy, reconcile });
  subscriptions.add(venue.orderUpdates(accounts).subscribe(streamInto(options, step, 'orders', (event) => orders.onStreamEvent(event))));
  subscriptions.add(venue.marketData(options.symbols).subscribe(streamInto(options, step, 'market', (event) => market.onEvent(event))));
  step(() => strategy.runtime?.start());
  const { symbols, account } = options;
  const names = several === undefined ? options.strategy.name : [...several.parts.keys()].join(', ');
  log.info({ runId, strategy: names, symbols, account, venue: venue.name }, 'pipeline started');
  const isImmediate = (clordId: string) => gate.isImmediate(clordId);
  const idle = () => adapter.idle();
  const { stopGraceMs } = options;
  const stopDeps = { clock, log, tracker, step, strategy, stopGraceMs, cancelAllOpen, idle, isImmediate, journal, subscriptions };
  const stop = () => stopPipeline(stopDeps).finally(() => refusals$.complete());
  const cancelAll = () => new Promise<void>((resolve) => step(() => void cancelAllOpen().then(resolve, resolve)));
  const parts = several === undefined ? {} : { strategies: several.parts };
  return { counters, tracker, risk, books, instruments, refusals$: refusals$.asObservable(), cancelAll, stop, ...parts };
}

/** The risk layer's view of the engine (instruments, event groups, the tracker's orders, positions, books). */
function riskContext(
  options: PipelineOptions,
  parts: { instruments: ReadonlyMap<string, Instrument>; tracker: OrderTracker; books: BookStore; risk: RiskManager },
): RiskContext {
  const { clock, venue } = options;
  const context = engineRiskContext({
    now: () => clock.now(),
    defaultAccount: options.account,
    accounts: options.accounts,
    instruments: parts.instruments,
    eventGroups: options.eventGroups ?? new Map(),
    tracker: parts.tracker,
    portfolio: options.portfolio,
    books: parts.books,
    risk: () => parts.risk,
    canCross: venue.canCross ?? true,
  });
  if (options.strategies === undefined || options.strategies.length === 0) return context;
  // several strategies: a self-match refusal names the strategy whose order would have been crossed
  const ids = new Set(options.strategies.map((s) => s.id));
  const strategyOf = (clordId: string) => {
    const prefix = clordPrefixOf(clordId);
    return prefix !== undefined && ids.has(prefix) ? prefix : undefined;
  };
  return { ...context, strategyOf };
}

/** The traded symbols' reference data (a symbol without any is warned about: every intent on it is refused). */
async function referenceData(venue: Venue, symbols: readonly string[], log: Logger): Promise<ReadonlyMap<string, Instrument>> {
  const instruments = new Map((await venue.instruments(symbols)).map((i) => [i.symbol, i]));
  for (const symbol of symbols) {
    if (!instruments.has(symbol)) log.warn({ symbol }, 'no reference data for a traded symbol: every intent on it will be refused');
  }
  return instruments;
}

/** The adapter's message throttle from the risk config: drains run as engine steps on the pipeline's clock. */
function throttleOf(options: PipelineOptions, drain: () => void, onOutcome: (outcome: ThrottleOutcome) => void): AdapterThrottle {
  const { maxMessagesPerSecond: maxPerSecond, maxQueuedMessages: maxQueued, maxQueueAgeMs: maxAgeMs } = options.risk;
  const limits = { maxPerSecond, maxQueued, maxAgeMs };
  if (options.strategies === undefined || options.strategies.length === 0) return { limits, clock: options.clock, drain, onOutcome };
  // several strategies share the budget round-robin, each within its own risk.maxMessagesPerSecond when narrower
  const own = new Map(options.strategies.map((s) => [s.id, s.risk.maxMessagesPerSecond] as const));
  const fairness = {
    groupOf: (clordId: string) => clordPrefixOf(clordId) ?? '',
    limitOf: (group: string) => {
      const limit = own.get(group);
      return limit !== undefined && limit < maxPerSecond ? limit : undefined;
    },
  };
  return { limits, clock: options.clock, drain, onOutcome, fairness };
}

/** An engine step (see Step): the work, an error in it logged, then the adapter's flush. */
function engineStep(adapter: ExecutionAdapter, log: Logger): Step {
  return (work) => {
    try {
      work();
    } catch (error) {
      log.error({ err: error }, `pipeline step failed: ${describeError(error)}`);
    }
    adapter.flush();
  };
}

/** A venue stream into the engine: each event recorded (when asked), then handled as one engine step. */
function streamInto<E extends MarketDataEvent | OrderStreamEvent>(
  options: PipelineOptions,
  step: Step,
  stream: 'market' | 'orders',
  handle: (event: E) => void,
): Partial<Observer<E>> {
  const { clock, log, record } = options;
  const ended = stream === 'market' ? 'market data stream ended' : 'order stream ended';
  return {
    next: (event) => {
      record?.({ stream, time: clock.now(), event });
      step(() => handle(event));
    },
    error: (error: unknown) => log.error({ err: error }, `${ended}: ${describeError(error)}`),
  };
}
