/**
 * Runs one strategy plugin inside the engine: builds its context (context.ts: views from the host, intents
 * out through `host.emit`, the run's own state from the definition's `state()`), calls its callbacks, drives
 * its timers on the injected clock's scheduler (timers.ts), and isolates it: an exception in a callback is
 * reported to the host (which logs it with the plugin's name and moves risk to reducing or halted) and the
 * engine carries on.
 *
 * Delivery rule: callbacks never nest, and an intent call never delivers anything inside itself. An event
 * that arrives while a callback (or an intent call made outside one) runs, such as the order update or the
 * refusal an intent produced, is queued and delivered, in order, right after it returns: still within the
 * same engine step, before the step's intents are sent (a call made outside any callback: in a microtask).
 *
 * Timers: `every(name, ms)` / `after(name, ms)` fire `onTimer(ctx, name)` as one engine step of the host
 * each (`host.step`: its intents go through risk and leave at once, like a book event's).
 *
 * After `stop()` (which calls `onStop`) the plugin gets no more books, trades or timers; the outcomes of its
 * orders (`onOrderUpdate`) and trading-state changes are still delivered while the engine lets the orders
 * sent in `onStop` complete (the pipeline's stop grace).
 */
import { Subject, type Subscription } from 'rxjs';
import type { AnyStrategy, StrategyContext, StrategyEvent } from './define-strategy.ts';
import { buildContext, type StrategyHost } from './context.ts';
import { StrategyTimers } from './timers.ts';
import type { BookView, OrderUpdateView, TradeView, TradingStateView } from './views.ts';

export type { IdFactory, StrategyHost } from './context.ts';

export class StrategyRuntime<P = unknown> {
  readonly context: StrategyContext<P, unknown>;
  private readonly events = new Subject<StrategyEvent>();
  private readonly timers: StrategyTimers;
  private operatorSubscription: Subscription | undefined;
  /** Callbacks (or intent calls) running now; events arriving meanwhile wait in `pending`. */
  private depth = 0;
  private readonly pending: (() => void)[] = [];
  private stopped = false;

  constructor(
    private readonly definition: AnyStrategy,
    params: P,
    private readonly host: StrategyHost,
  ) {
    const fireTimer = (name: string) => (host.step === undefined ? this.timer(name) : host.step(() => this.timer(name)));
    this.timers = new StrategyTimers(host.clock, fireTimer);
    // made here, once per run: a throwing factory is a strategy error like a throwing callback
    const state = definition.state === undefined ? undefined : this.guard('state', () => definition.state?.());
    this.context = buildContext({
      strategy: host.strategyId ?? definition.name,
      params,
      state,
      host,
      timers: this.timers,
      call: (fn) => this.call(fn),
    });
  }

  get name(): string {
    return this.definition.name;
  }

  start(): void {
    this.deliver(() => {
      if (this.definition.operator) {
        const operator = this.guard('operator', () => this.definition.operator?.(this.context));
        if (operator) {
          this.operatorSubscription = this.events
            .pipe(operator)
            .subscribe({ error: (error: unknown) => this.host.onError(error, 'operator') });
        }
      }
      this.guard('onStart', () => this.definition.onStart?.(this.context));
    });
  }

  // The event object for an operator is built only when one subscribed (most plugins use callbacks only),
  // and a callback the plugin does not define costs no guard. Books and order updates (the frequent events)
  // make no closure unless they have to wait for a callback running now.
  book(book: BookView): void {
    if (this.stopped) return;
    if (this.depth > 0) this.pending.push(() => this.onBook(book));
    else this.outermost(this.onBook, book);
  }

  trade(trade: TradeView): void {
    if (this.stopped) return;
    if (this.depth > 0) this.pending.push(() => this.onTrade(trade));
    else this.outermost(this.onTrade, trade);
  }

  orderUpdate(update: OrderUpdateView): void {
    if (this.depth > 0) this.pending.push(() => this.onOrderUpdate(update));
    else this.outermost(this.onOrderUpdate, update);
  }

  tradingState(change: TradingStateView): void {
    if (this.depth > 0) this.pending.push(() => this.onTradingState(change));
    else this.outermost(this.onTradingState, change);
  }

  timer(name: string): void {
    if (this.stopped) return;
    if (this.depth > 0) this.pending.push(() => this.onTimer(name));
    else this.outermost(this.onTimer, name);
  }

  private onBook(book: BookView): void {
    if (this.events.observed) this.events.next({ type: 'book', book });
    const onBook = this.definition.onBook;
    if (onBook !== undefined) this.guard('onBook', () => onBook.call(this.definition, this.context, book));
  }

  private onTrade(trade: TradeView): void {
    if (this.events.observed) this.events.next({ type: 'trade', trade });
    const onTrade = this.definition.onTrade;
    if (onTrade !== undefined) this.guard('onTrade', () => onTrade.call(this.definition, this.context, trade));
  }

  private onOrderUpdate(update: OrderUpdateView): void {
    if (this.events.observed) this.events.next({ type: 'order', update });
    const onOrderUpdate = this.definition.onOrderUpdate;
    if (onOrderUpdate !== undefined) this.guard('onOrderUpdate', () => onOrderUpdate.call(this.definition, this.context, update));
  }

  private onTradingState(change: TradingStateView): void {
    if (this.events.observed) this.events.next({ type: 'tradingState', change });
    const onTradingState = this.definition.onTradingState;
    if (onTradingState !== undefined) this.guard('onTradingState', () => onTradingState.call(this.definition, this.context, change));
  }

  private onTimer(name: string): void {
    if (this.stopped) return;
    if (this.events.observed) this.events.next({ type: 'timer', name });
    const onTimer = this.definition.onTimer;
    if (onTimer !== undefined) this.guard('onTimer', () => onTimer.call(this.definition, this.context, name));
  }

  /** Cancels the timers and calls `onStop`; afterwards only order outcomes and state changes are delivered. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.timers.close();
    this.deliver(() => this.guard('onStop', () => this.definition.onStop?.(this.context)));
  }

  /** Ends the operator form's event stream (after the stop grace: nothing more is delivered). */
  close(): void {
    this.stop();
    this.operatorSubscription?.unsubscribe();
    this.events.complete();
  }

  /**
   * An intent call: what it produces is delivered after it returns. Inside a callback that is when the
   * callback returns; a call made outside any callback (not the way plugins act, but possible) has its
   * outcomes delivered in a microtask, once the caller's synchronous code is done.
   */
  private call<T>(fn: () => T): T {
    const outside = this.depth === 0;
    this.depth += 1;
    try {
      return fn();
    } finally {
      this.depth -= 1;
      if (outside && this.pending.length > 0) queueMicrotask(() => this.drainIdle());
    }
  }

  private drainIdle(): void {
    if (this.depth === 0 && this.pending.length > 0) this.outermost(() => undefined, undefined);
  }

  /** Runs `work` now, or after the callback running now. */
  private deliver(work: () => void): void {
    if (this.depth > 0) this.pending.push(work);
    else this.outermost(work, undefined);
  }

  /** Runs `handler(value)` as the outermost callback, then everything that arrived meanwhile, in order. */
  private outermost<T>(handler: (this: StrategyRuntime<P>, value: T) => void, value: T): void {
    this.depth += 1;
    try {
      handler.call(this, value);
      for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) next();
    } finally {
      this.depth -= 1;
    }
  }

  private guard<T>(callback: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      this.host.onError(error, callback);
      return undefined;
    }
  }
}
