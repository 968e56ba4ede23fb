/**
 * The event pipeline, assembled: venue streams -> local books and OrderTracker -> strategy callbacks ->
 * intents -> risk -> execution adapter -> venue, with fills into the portfolio and settlements of expired
 * contracts seen on the market data (settlements.ts) too. The same assembly runs live
 * and in backtests; only the Venue and the Clock differ. Every incoming event is handled to completion
 * (books, tracker, strategy, risk) before the adapter flushes what it queued, so batching is deterministic.
 * With an order journal (`journal`), the journal is replayed first (orders an earlier run left in flight are
 * tracked again and settled with the exchange, never re-sent; ids continue after the journal's), every request
 * is durable before it is sent, and the journal is compacted at stop (see src/engine/journal/).
 * Intents pass risk at the intent gate (intent-gate.ts); at stop, what `onStop` sent gets the stop grace
 * (stop-grace.ts) before the engine cancels what is left, never cancelling an order that cannot rest.
 */
import { Subscription } from 'rxjs';
import type { Logger } from 'pino';
import type { Decimal} from '../domain/decimal.ts';
import { ZERO } from '../domain/decimal.ts';
import type { Instrument } from '../domain/index.ts';
import { describeError } from '../errors.ts';
import type { Clock } from './clock.ts';
import type { CancelIntent } from './intents.ts';
import type { Venue, MarketDataEvent, OrderStreamEvent, VenueSnapshot } from './venue.ts';
import { OrderTracker, isTerminal, type TrackedOrder } from './orders/index.ts';
import { RiskManager, type RiskConfig } from './risk/index.ts';
import { ExecutionAdapter } from './execution/adapter.ts';
import { idFactory, newRunId } from './execution/ids.ts';
import { StrategyRuntime } from './strategy/runtime.ts';
import type { AnyStrategy } from './strategy/define-strategy.ts';
import type { OrderView } from './strategy/views.ts';
import { BookStore } from './books.ts';
import { engineRiskContext } from './risk-context.ts';
import type { PortfolioPort } from './portfolio-port.ts';
import { RunCounters } from './run-counters.ts';
import { SettlementWatch } from './settlements.ts';
import { lookUpUnknownOrders } from './gap-lookups.ts';
import { compare } from './decimal-compare.ts';
import { JournalRecorder, JournalRecovery, rebuildJournal, type Journal } from './journal/index.ts';
import { IntentGate } from './intent-gate.ts';
import { DEFAULT_STOP_GRACE_MS, stopGrace } from './stop-grace.ts';

/** Lookups per reconciliation while fills keep arriving during them. */
const RECONCILE_ATTEMPTS = 3;
/** A reconciliation that fills kept racing is tried again this much later, at most this many times in a row. */
const FOLLOW_UP_RECONCILE_MS = 2_000;
const MAX_FOLLOW_UP_RECONCILIATIONS = 10;

export interface PipelineOptions {
  venue: Venue;
  clock: Clock;
  log: Logger;
  strategy: AnyStrategy;
  params: unknown;
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
  /** Execution ids the OrderTracker remembers to drop repeats (default 100000). */
  executionDedupeCapacity?: number;
  /**
   * After `onStop`, how long (engine ms) the intents it sent may take to complete before the engine cancels
   * what is left (default 1000; 0: cancel at once). Ends early once nothing is in flight (stop-grace.ts).
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
  /** Stops the strategy, cancels open orders, ends the streams. */
  stop(): Promise<void>;
}

/** A strategy sees the tracker's own (frozen, kept while unchanged) view of an order: it has every field of OrderView. */
function orderView(order: TrackedOrder): OrderView {
  return order;
}

export async function startPipeline(options: PipelineOptions): Promise<RunningPipeline> {
  const { venue, clock, log, portfolio } = options;
  const recovered = options.journal === undefined ? undefined : await rebuildJournal(options.journal.replay());
  const runId = options.runId ?? newRunId(recovered?.runIds);
  const ids = idFactory(runId, 'tb', recovered?.counters);
  const counters = new RunCounters();
  const instrumentList = await venue.instruments(options.symbols);
  const instruments = new Map(instrumentList.map((i) => [i.symbol, i]));
  for (const symbol of options.symbols) {
    if (!instruments.has(symbol)) log.warn({ symbol }, 'no reference data for a traded symbol: every intent on it will be refused');
  }
  const books = new BookStore();
  const tracker = new OrderTracker({ clock, finishedHistory: options.finishedOrderHistory, dedupeCapacity: options.executionDedupeCapacity });
  const risk = new RiskManager(options.risk, { clock });
  const recorder =
    options.journal === undefined || recovered === undefined
      ? undefined
      : new JournalRecorder({
          journal: options.journal,
          clock,
          runId,
          recovered,
          orderOf: (clordId) => tracker.get(clordId),
          onFailure: (error) => {
            log.error({ err: error }, `order journal failed, trading halted: ${describeError(error)}`);
            risk.tradingState.setState('halted', `order journal: ${error.code}`);
          },
        });
  recorder?.start();
  const context = engineRiskContext({
    now: () => clock.now(),
    defaultAccount: options.account,
    accounts: options.accounts,
    instruments,
    eventGroups: options.eventGroups ?? new Map(),
    tracker,
    portfolio,
    books,
    risk: () => risk,
    canCross: venue.canCross ?? true,
  });
  const adapter = new ExecutionAdapter({
    venue,
    log,
    defaultAccount: options.account,
    selfMatchPrevention: undefined,
    onSent: (kind, count) => counters.sent(kind, count),
    ledger: {
      submitted: (request, meta) => void tracker.submitted(request, meta),
      // an insert's answer can come after its order finished and left the finished-order history
      acknowledged: (clordId, orderId) => void (tracker.has(clordId) && tracker.acknowledged(clordId, orderId)),
      sendFailed: (clordId, error) => void (tracker.has(clordId) && tracker.sendFailed(clordId, error)),
      cancelRequested: (clordId) => void tracker.cancelRequested(clordId),
      replaceRequested: (intent) => void tracker.replaceRequested(intent.clordId, intent.newClordId, intent.price, intent.qty),
      requestFailed: (clordId, request, error) => {
        if (tracker.get(clordId) !== undefined) tracker.requestFailed(clordId, request, error);
      },
      orderIdOf: (clordId) => tracker.get(clordId)?.orderId,
      symbolOf: (clordId) => tracker.get(clordId)?.symbol,
      openClordIds: (symbol) => tracker.open(symbol).map((o) => o.clordId),
      stateOf: (clordId) => tracker.get(clordId)?.state,
      currentClordIdOf: (clordId) => tracker.get(clordId)?.clordId,
    },
    ...(recorder === undefined ? {} : { journal: recorder }),
  });

  /** A cancel the engine decides (reconciliation); approved by risk like any other intent. */
  const engineCancel = (clordId: string): CancelIntent => ({ kind: 'cancel', clordId, intentId: ids.intentId(), strategy: 'reconciliation', time: clock.now() });
  const strategyLog = log.child({ strategy: options.strategy.name });
  let runtime: StrategyRuntime | undefined;
  // intents through risk; a refusal goes back to the strategy (delivered after the call that emitted it)
  const gate = new IntentGate({ risk, context, log: strategyLog, counters, submit: (approved) => adapter.submit(approved), symbolOf: (clordId) => tracker.get(clordId)?.symbol, refused: (view) => runtime?.orderUpdate(view) });
  /** Cancels every open order but those that cannot rest (IOC, FOK, cross legs): their outcome is on its way. */
  const cancelAllOpen = () => adapter.cancelAllOpen((clordId) => gate.isImmediate(clordId));
  runtime = new StrategyRuntime(options.strategy, options.params, {
    clock,
    log: strategyLog,
    account: options.account,
    accounts: options.accounts,
    venue: { name: venue.name, canCross: venue.canCross ?? true },
    tradingState: () => risk.tradingState.state,
    symbols: options.symbols,
    ids,
    book: (symbol) => books.get(symbol),
    instrument: (symbol) => instruments.get(symbol),
    position: (symbol, account) => portfolio.position(symbol, account),
    // a fresh array of the tracker's views (each an OrderView already): no second copy per call
    openOrders: (symbol): readonly OrderView[] => tracker.open(symbol),
    emit: (intent) => gate.handle(intent),
    // timers fire outside market and order events: each firing is a step of its own, so its intents leave at once
    step: (work) => step(work),
    onError: (error, callback) => {
      counters.strategyErrors += 1;
      strategyLog.error({ err: error, callback }, `strategy ${options.strategy.name} failed in ${callback}: ${describeError(error)}`);
      risk.tradingState.strategyError(options.strategy.name, describeError(error), clock.now());
    },
  });

  const subscriptions = new Subscription();
  const step = (work: () => void) => {
    try {
      work();
    } catch (error) {
      log.error({ err: error }, `pipeline step failed: ${describeError(error)}`);
    }
    adapter.flush();
  };

  const recovery = recorder === undefined ? undefined : new JournalRecovery({ tracker, venue, log, step });
  if (recovery !== undefined && recovered !== undefined) {
    recovery.restore(recovered.open);
    counters.restored = recovered.open.length;
    log.info(
      { journal: options.journal?.description, restored: recovered.open.length, ordersInJournal: recovered.orders, runs: recovered.runIds.size, next: recovered.counters },
      `order journal replayed: ${recovered.open.length} order(s) in flight from earlier runs tracked again (not re-sent)`,
    );
  }

  const fillsByAccount = new Map<string, number>();
  subscriptions.add(
    tracker.fills$.subscribe((fill) => {
      counters.fills += 1;
      fillsByAccount.set(fill.account, (fillsByAccount.get(fill.account) ?? 0) + 1);
      portfolio.applyFill(fill);
      const order = tracker.get(fill.clordId);
      const view = { clordId: fill.clordId, account: fill.account, symbol: fill.symbol, side: fill.side, qty: fill.qty, price: fill.price, time: fill.time };
      runtime?.orderUpdate({ type: 'fill', fill: view, order: order ? orderView(order) : undefined });
    }),
  );
  subscriptions.add(
    tracker.updates$.subscribe((update) => {
      recorder?.onUpdate(update);
      if (isTerminal(update.order.state)) gate.finished(update.order.clordIds);
      if (adapter.hasWaiting) adapter.onOrderChanged();
      if (update.previousState === undefined && update.order.adopted) {
        counters.adopted += 1;
        if (options.unknownOrders === 'cancel') adapter.submit(risk.approveEngineCancel(engineCancel(update.order.clordId)));
      }
      runtime?.orderUpdate({ type: 'order', order: orderView(update.order) });
    }),
  );
  // oddities the tracker tolerated (late executions of forgotten orders, estimated fill prices, ...): logged
  subscriptions.add(tracker.issues$.subscribe((issue) => log.debug({ issue }, `order tracker: ${issue.kind}`)));
  subscriptions.add(risk.tradingState.cancelAllRequired$.subscribe(() => void cancelAllOpen()));
  subscriptions.add(
    risk.tradingState.changes$.subscribe((change) => {
      log.warn({ from: change.from, to: change.to, cause: change.cause }, `trading state ${change.from} -> ${change.to}: ${change.reason}`);
      runtime?.tradingState(change);
    }),
  );

  /**
   * After each order-stream snapshot: positions and balances from the exchange (the exchange wins), and the
   * orders the snapshot left UNKNOWN (missing from it: they closed while the stream was down, or their
   * outcome is not known) looked up one by one when the venue can (gap-lookups.ts), else (or when not found)
   * in the exchange's open orders, fetched after the snapshot. Without this
   * they would stay "working" forever and a strategy would keep quoting against phantom orders. Orders the
   * exchange lists as working that the bot holds for finished are cancelled (see below).
   */
  let followUpReconciliations = 0;
  const reconcile = async (unknown: readonly string[]) => {
    try {
      // orders restored from the journal that the snapshot could not place: looked up first, so fills they
      // reveal are in the exchange's positions fetched below
      if (recovery !== undefined && recovery.unsettled > 0) await recovery.settle();
      // orders that ended while the order stream was down: their real end and fills, before the positions
      if (unknown.length > 0) counters.gapLookups += await lookUpUnknownOrders(unknown, { venue, tracker, log, step });
      let snapshot: VenueSnapshot;
      let moved: string[];
      for (let attempt = 1; ; attempt += 1) {
        // A fill applied while the lookup is in flight may or may not be in the exchange's answer: taking that
        // answer as truth would drop or double the fill. Ask again; in the end keep those accounts' local view.
        const before = new Map(fillsByAccount);
        snapshot = await venue.snapshot(options.accounts);
        if (runtime === undefined) return; // stopped meanwhile
        moved = options.accounts.filter((account) => fillsByAccount.get(account) !== before.get(account));
        if (moved.length === 0 || attempt >= RECONCILE_ATTEMPTS) break;
      }
      if (moved.length > 0) {
        log.warn({ accounts: moved }, 'reconciliation: fills kept arriving during the lookup; these accounts keep their local positions and cash for now');
        // Settle them later, in a quieter moment (engine time, so backtests stay deterministic); bounded.
        if (followUpReconciliations < MAX_FOLLOW_UP_RECONCILIATIONS) {
          followUpReconciliations += 1;
          subscriptions.add(clock.scheduler.schedule(() => void reconcile([]), FOLLOW_UP_RECONCILE_MS));
        }
      } else followUpReconciliations = 0;
      const settled = (item: { account: string }) => !moved.includes(item.account);
      for (const symbol of settlements.beforeReconcile(options.accounts.filter((a) => !moved.includes(a)), snapshot.positions)) {
        log.info({ symbol, price: '0' }, `${symbol} settled at 0 (the exchange closed the positions of the expired contract)`);
      }
      const differences = portfolio.reconcile(snapshot.positions.filter(settled), snapshot.balances.filter(settled));
      counters.reconciliations += 1;
      step(() => {
        for (const clordId of unknown) {
          const order = tracker.get(clordId);
          if (order?.state !== 'UNKNOWN') continue;
          const found = snapshot.openOrders.find((o) => (order.orderId !== undefined && o.id === order.orderId) || order.clordIds.includes(o.clordId));
          tracker.lookupResult(clordId, found);
        }
        // Orders the exchange still works that the bot holds for finished (an exchange restarted from an older
        // state forgot their cancel or fill): nothing would manage them, so they are cancelled.
        for (const open of snapshot.openOrders) {
          const known = open.id === '' ? undefined : tracker.byOrderId(open.id);
          if (known === undefined || !isTerminal(known.state)) continue;
          counters.zombiesCancelled += 1;
          log.warn({ clordId: known.clordId, orderId: open.id, state: known.state }, 'reconciliation: the exchange works an order the bot holds for finished; cancelling it');
          adapter.submit(risk.approveEngineCancel(engineCancel(known.clordId)));
        }
      });
      for (const difference of differences) log.warn({ difference }, 'reconciliation: the exchange differs from the local view (the exchange wins)');
      log.info({ openOrders: snapshot.openOrders.length, positions: snapshot.positions.length }, 'reconciled with the exchange');
    } catch (error) {
      log.error({ err: error }, `reconciliation failed: ${describeError(error)}`);
    }
  };

  const settlements = new SettlementWatch(portfolio, () => clock.now());
  const lastShares = new Map<string, Decimal>();
  subscriptions.add(
    venue.orderUpdates(options.accounts).subscribe({
      next: (event) => {
        options.record?.({ stream: 'orders', time: clock.now(), event });
        step(() => {
          if (event.type === 'connected') counters.orderStreamConnects += 1;
          tracker.onStreamEvent(event);
          if (event.type === 'snapshot') void reconcile(tracker.needingLookup().map((o) => o.clordId));
        });
      },
      error: (error: unknown) => log.error({ err: error }, `order stream ended: ${describeError(error)}`),
    }),
  );
  subscriptions.add(
    venue.marketData(options.symbols).subscribe({
      next: (event) => {
        options.record?.({ stream: 'market', time: clock.now(), event });
        step(() => {
          if (event.type === 'disconnected') {
            counters.feedDisconnects += 1;
            books.markAllStale();
            risk.tradingState.feedStale('all', clock.now());
            for (const view of books.all()) runtime?.book(view);
            return;
          }
          if (event.type !== 'book') return;
          if (books.isOutOfOrder(event)) {
            counters.bookUpdatesOutOfOrder += 1;
            return;
          }
          const wasConnected = books.isConnected;
          const { view, becameFresh } = books.apply(event, clock.now());
          counters.bookUpdates += 1;
          if (becameFresh && !wasConnected) risk.tradingState.feedFresh('all', clock.now());
          const settlement = settlements.onBook(event);
          if (settlement !== undefined) {
            if (settlement.kind === 'settled') log.info({ symbol: settlement.symbol, price: settlement.price.toString() }, `${settlement.symbol} settled at ${settlement.price.toString()}`);
            void reconcile(tracker.needingLookup().map((o) => o.clordId));
          }
          const mark = settlement === undefined ? books.markPrice(event.symbol) : undefined;
          if (mark !== undefined) portfolio.mark(event.symbol, mark);
          risk.refresh(context);
          const traded = event.stats?.sharesTraded ?? ZERO;
          const previous = lastShares.get(event.symbol);
          lastShares.set(event.symbol, traded);
          if (previous !== undefined && compare(traded, previous) > 0 && event.stats !== undefined) {
            runtime?.trade({ symbol: event.symbol, price: event.stats.lastTradePx, qty: traded.minus(previous), time: clock.now() });
          }
          runtime?.book(view);
        });
      },
      error: (error: unknown) => log.error({ err: error }, `market data stream ended: ${describeError(error)}`),
    }),
  );

  step(() => runtime?.start());
  log.info({ runId, strategy: options.strategy.name, symbols: options.symbols, account: options.account, venue: venue.name }, 'pipeline started');

  return {
    counters,
    tracker,
    risk,
    books,
    instruments,
    stop: async () => {
      step(() => runtime?.stop());
      // what onStop sent may complete (its outcomes still reach onOrderUpdate); then the rest is cancelled
      const grace = await stopGrace({ clock, tracker, isImmediate: (clordId) => gate.isImmediate(clordId) }, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
      if (grace === 'timeout') log.info({ stopGraceMs: options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS }, 'stop grace over with orders still in flight: cancelling what is left');
      runtime?.close();
      runtime = undefined;
      await cancelAllOpen();
      await adapter.idle();
      if (recorder !== undefined && recovery !== undefined) {
        // what the cancels left open is all the compacted journal keeps: ask the exchange, not the stream
        await recovery.settleForStop(tracker.open().filter((order) => recorder.isOurs(order)));
      }
      subscriptions.unsubscribe();
      tracker.close();
      if (recorder !== undefined) {
        try {
          await recorder.finish(tracker.open());
        } catch (error) {
          log.error({ err: error }, `order journal: compaction at stop failed, the full journal is kept: ${describeError(error)}`);
        }
      }
    },
  };
}
