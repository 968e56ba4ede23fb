/**
 * Several strategies in one pipeline (#25, `bot.strategies`): one set of venue streams, books, order tracker,
 * bot-level risk and send queue, and per strategy its own runtime, client order id prefix (its id), risk
 * manager (its narrower limits and its own trading state), portfolio (its fills only) and counters. The
 * StrategySet stands where the single strategy's runtime stands: market events go to the strategies that
 * trade the symbol, order updates and fills to the strategy whose prefix the order's client order id carries
 * (orders restored from the journal included), refusals and throttle outcomes to the strategy whose id the
 * intent carries, changes of the bot's trading state to all.
 *
 * An intent passes the strategy's own risk first (a veto: its limits against its own orders, positions and
 * PnL, and its trading state), then the bot's risk over everything the process does (self-match prevention
 * across all strategies included). A strategy whose callback throws moves its own trading state
 * (risk.onStrategyError) and its open orders are cancelled; the others trade on, unless
 * `risk.strategyErrorScope: bot` moves the bot's state instead.
 */
import type { Logger } from 'pino';
import type { Subject, Subscription } from 'rxjs';
import type { Instrument } from '../../domain/index.ts';
import type { BookStore } from '../books.ts';
import type { ThrottleOutcome } from '../execution/adapter.ts';
import { clordPrefixOf } from '../execution/ids.ts';
import type { Fill, OrderTracker } from '../orders/index.ts';
import type { PortfolioPort } from '../portfolio-port.ts';
import { RiskManager, stricterState, type Approved, type RiskConfig, type RiskContext } from '../risk/index.ts';
import type { TradingStateChange } from '../risk/trading-state.ts';
import { RunCounters } from '../run-counters.ts';
import type { AnyStrategy } from '../strategy/define-strategy.ts';
import type { IdFactory, StrategyRuntime } from '../strategy/runtime.ts';
import type { BookView, OrderUpdateView, RefusedView, TradeView, TradingStateView } from '../strategy/views.ts';
import type { Intent } from '../intents.ts';
import { IntentGate } from './intent-gate.ts';
import type { PipelineOptions, Step, StrategyPort } from './options.ts';
import { strategyRuntime } from './strategy.ts';

/** One strategy of a bot running several. */
export interface StrategyMemberOptions {
  /** Unique in the bot; the prefix of its client order ids. */
  readonly id: string;
  readonly strategy: AnyStrategy;
  readonly params: unknown;
  readonly symbols: readonly string[];
  /** The account it trades by default. */
  readonly account: string;
  /** Its limits: the bot's risk section with the strategy's own keys over it. */
  readonly risk: RiskConfig;
  /** Its own portfolio: only its fills, so its positions and PnL. */
  readonly portfolio: PortfolioPort;
}

/** What a running pipeline tells about one of its strategies (run.summary, metrics, control). */
export interface StrategyPart {
  readonly id: string;
  readonly symbols: readonly string[];
  /** Its orders, fills and refusals (they add up, over the strategies, to the pipeline's). */
  readonly counters: RunCounters;
  /** Its own risk manager: its trading state (`tradingState.setState` halts it alone). */
  readonly risk: RiskManager;
  readonly portfolio: PortfolioPort;
}

export interface StrategySetDeps {
  readonly options: PipelineOptions;
  readonly members: readonly StrategyMemberOptions[];
  readonly log: Logger;
  readonly idsFor: (prefix: string) => IdFactory;
  readonly books: BookStore;
  readonly instruments: ReadonlyMap<string, Instrument>;
  readonly tracker: OrderTracker;
  /** The bot's risk and its view of everything the process does. */
  readonly risk: RiskManager;
  readonly context: RiskContext;
  readonly counters: RunCounters;
  readonly step: Step;
  submit(approved: Approved): void;
  queueFull(intent: Intent): string | undefined;
  readonly refusals$: Subject<RefusedView>;
  /** An engine cancel (approved by the bot's risk). */
  cancel(clordId: string): void;
  isImmediate(clordId: string): boolean;
  readonly subscriptions: Subscription;
}

interface Member extends StrategyPart {
  readonly runtime: StrategyRuntime;
  readonly gate: IntentGate;
}

/**
 * The bot's portfolio as the pipeline uses it, with several strategies: marks and settlements reach every
 * strategy's portfolio too (their fills come from the StrategySet); the rest is the bot's alone.
 */
export function markedTogether(bot: PortfolioPort, members: readonly StrategyMemberOptions[] | undefined): PortfolioPort {
  if (members === undefined || members.length === 0) return bot;
  return {
    ...bot,
    mark: (symbol, price) => {
      bot.mark(symbol, price);
      for (const member of members) member.portfolio.mark(symbol, price);
    },
    settle: (symbol, price, time) => {
      bot.settle(symbol, price, time);
      for (const member of members) member.portfolio.settle(symbol, price, time);
    },
  };
}

export class StrategySet implements StrategyPort {
  readonly parts: ReadonlyMap<string, StrategyPart>;
  private readonly members = new Map<string, Member>();
  private readonly bySymbol = new Map<string, Member[]>();

  constructor(private readonly deps: StrategySetDeps) {
    for (const options of deps.members) this.add(options);
    this.parts = this.members;
    // a fill reaches the strategy's portfolio before the pipeline hands it to the strategy
    deps.subscriptions.add(deps.tracker.fills$.subscribe((fill) => this.attributeFill(fill)));
  }

  /** The strategy that sent the order with this client order id (undefined: an order of no strategy here). */
  ownerOf(clordId: string): StrategyPart | undefined {
    const prefix = clordPrefixOf(clordId);
    return prefix === undefined ? undefined : this.members.get(prefix);
  }

  /** A request the adapter sent: counted as the strategy's orders. */
  sent(kind: 'insert' | 'cancel' | 'replace' | 'cross', count: number, clordIds: readonly string[] | undefined): void {
    if (kind !== 'insert' && kind !== 'cross') return;
    for (const clordId of clordIds ?? []) this.ownerOf(clordId)?.counters.sent(kind, count === 1 || kind === 'insert' ? 1 : count);
  }

  /** What the send queue reports about a waiting intent: through the gate of the strategy that made it. */
  throttled(outcome: ThrottleOutcome, fallback: IntentGate): void {
    const member = this.members.get(outcome.intent.strategy);
    (member?.gate ?? fallback).throttled(outcome, (view) => member?.runtime.orderUpdate(view));
  }

  start(): void {
    for (const member of this.members.values()) member.runtime.start();
  }

  stop(): void {
    for (const member of this.members.values()) member.runtime.stop();
  }

  close(): void {
    for (const member of this.members.values()) member.runtime.close();
  }

  book(view: BookView): void {
    for (const member of this.bySymbol.get(view.symbol) ?? []) member.runtime.book(view);
  }

  trade(trade: TradeView): void {
    for (const member of this.bySymbol.get(trade.symbol) ?? []) member.runtime.trade(trade);
  }

  orderUpdate(update: OrderUpdateView): void {
    const member = this.memberOf(update);
    member?.runtime.orderUpdate(update);
  }

  tradingState(change: TradingStateView): void {
    for (const member of this.members.values()) member.runtime.tradingState(change);
  }

  private memberOf(update: OrderUpdateView): Member | undefined {
    switch (update.type) {
      case 'fill':
        return this.members.get(clordPrefixOf(update.fill.clordId) ?? '');
      case 'order':
        return this.members.get(clordPrefixOf(update.order.clordId) ?? '');
      case 'refused':
      case 'throttled':
        return this.members.get(update.intent.strategy);
    }
  }

  private attributeFill(fill: Fill): void {
    const member = this.members.get(clordPrefixOf(fill.clordId) ?? '');
    if (member === undefined) return;
    member.counters.fills += 1;
    member.portfolio.applyFill(fill);
  }

  private add(spec: StrategyMemberOptions): void {
    const { deps } = this;
    const log = deps.log.child({ strategy: spec.id });
    const counters = new RunCounters();
    const risk = new RiskManager(spec.risk, { clock: deps.options.clock, messageRate: 'queue' });
    const owns = (clordId: string) => clordPrefixOf(clordId) === spec.id;
    const context: RiskContext = {
      ...deps.context,
      defaultAccount: spec.account,
      positions: () => spec.portfolio.positions(),
      openOrders: () => deps.context.openOrders().filter((order) => owns(order.clordId)),
      dailyPnl: () => spec.portfolio.dailyPnl(),
      tradingState: () => risk.tradingState.state,
    };
    const firm = deps.counters;
    const teeCounters = {
      get intents() {
        return counters.intents;
      },
      set intents(n: number) {
        firm.intents += n - counters.intents;
        counters.intents = n;
      },
      refused: (code: string) => {
        firm.refused(code);
        counters.refused(code);
      },
    };
    const member: { runtime?: StrategyRuntime } = {};
    const refused = (view: RefusedView) => {
      deps.refusals$.next(view);
      member.runtime?.orderUpdate(view);
    };
    const gate = new IntentGate({
      risk: deps.risk,
      context: deps.context,
      log,
      counters: teeCounters,
      submit: deps.submit,
      symbolOf: (clordId) => deps.tracker.get(clordId)?.symbol,
      refused,
      queueFull: deps.queueFull,
      preCheck: (intent) => risk.check(intent, context).find((verdict) => verdict.kind === 'refused'),
    });
    const errorCounters = {
      get strategyErrors() {
        return counters.strategyErrors;
      },
      set strategyErrors(n: number) {
        firm.strategyErrors += n - counters.strategyErrors;
        counters.strategyErrors = n;
      },
    };
    const runtime = strategyRuntime(
      deps.options,
      {
        log,
        ids: deps.idsFor(spec.id),
        books: deps.books,
        instruments: deps.instruments,
        tracker: deps.tracker,
        risk,
        tradingState: () => stricterState(deps.risk.tradingState.state, risk.tradingState.state),
        gate,
        counters: errorCounters,
        step: deps.step,
        owns,
      },
      spec,
    );
    member.runtime = runtime;
    const full: Member = { id: spec.id, symbols: spec.symbols, counters, risk, portfolio: spec.portfolio, runtime, gate };
    this.members.set(spec.id, full);
    for (const symbol of spec.symbols) {
      const list = this.bySymbol.get(symbol) ?? [];
      list.push(full);
      this.bySymbol.set(symbol, list);
    }
    this.watchState(full, log, owns);
  }

  /** The strategy's own trading state: told to it, its orders cancelled when halted, the bot's moved per scope. */
  private watchState(member: Member, log: Logger, owns: (clordId: string) => boolean): void {
    const { deps } = this;
    const state = member.risk.tradingState;
    deps.subscriptions.add(
      state.changes$.subscribe((change: TradingStateChange) => {
        log.warn({ from: change.from, to: change.to, cause: change.cause }, `strategy ${member.id}: ${change.from} -> ${change.to}`);
        member.runtime.tradingState(change);
        if (change.cause === 'strategyError' && deps.options.risk.strategyErrorScope === 'bot')
          deps.risk.tradingState.strategyError(member.id, change.reason, change.time);
      }),
    );
    deps.subscriptions.add(
      state.cancelAllRequired$.subscribe(() => {
        const open = deps.tracker
          .open()
          .map((order) => order.clordId)
          .filter((clordId) => owns(clordId) && !deps.isImmediate(clordId));
        deps.step(() => {
          for (const clordId of open) deps.cancel(clordId);
        });
      }),
    );
  }
}
