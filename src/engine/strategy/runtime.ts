/**
 * Runs one strategy plugin inside the engine: builds its context (read-only views from the host, instrument
 * views of the host's reference data, the run's own state from the definition's `state()`, intents out
 * through `host.emit`), calls its callbacks, drives its timers on the injected clock's scheduler, and
 * isolates it: an exception in a callback is reported to the host (which logs it with the plugin's name
 * and moves risk to reducing or halted) and the engine carries on.
 *
 * Timers: `every(name, ms)` fires `onTimer(ctx, name)` every `ms` of engine time, each firing as one engine
 * step of the host (`host.step`: its intents go through risk and leave at once, like a book event's);
 * registering a name again replaces that timer, `cancelTimer(name)` stops it. Each period is scheduled anew
 * for its due time (no drift, and a virtual-time scheduler keeps no chain of finished actions).
 */
import { Subject, type Subscription } from 'rxjs';
import type { Logger } from 'pino';
import { Decimal } from '../../domain/decimal.ts';
import { parseDecimal } from '../../domain/decimal.ts';
import type { Clock } from '../clock.ts';
import type { Intent } from '../intents.ts';
import type { AnyStrategy, PlaceOptions, StrategyContext, StrategyEvent } from './define-strategy.ts';
import type { BookView, OrderUpdateView, OrderView, TradeView } from './views.ts';
import type { Instrument } from '../../domain/index.ts';
import { instrumentView, type InstrumentView } from './instrument-view.ts';

export interface IdFactory {
  intentId(): string;
  clordId(): string;
  crossId(): string;
}

/** What the engine offers a strategy runtime. */
export interface StrategyHost {
  readonly clock: Clock;
  readonly log: Logger;
  readonly account: string;
  readonly symbols: readonly string[];
  readonly ids: IdFactory;
  book(symbol: string): BookView | undefined;
  /** Reference data of a symbol the run knows (the venue's instruments). */
  instrument(symbol: string): Instrument | undefined;
  position(symbol: string, account?: string): Decimal;
  openOrders(symbol?: string): readonly OrderView[];
  emit(intent: Intent): void;
  /** A callback threw: the host logs it and changes the trading state per config. */
  onError(error: unknown, callback: string): void;
  /** Runs work arising outside the host's own events (timers) as one engine step; default: runs it directly. */
  step?(work: () => void): void;
}

/** One `every` timer: re-armed for each period at its due time until cancelled. */
class StrategyTimer {
  private subscription: Subscription | undefined;
  private due: number;

  constructor(
    private readonly clock: Clock,
    private readonly periodMs: number,
    private readonly fire: () => void,
  ) {
    this.due = clock.now() + periodMs;
    this.arm();
  }

  cancel(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  private arm(): void {
    this.subscription = this.clock.scheduler.schedule(() => {
      if (this.subscription === undefined) return;
      this.due += this.periodMs;
      this.arm();
      this.fire();
    }, Math.max(0, this.due - this.clock.now()));
  }
}

function toDecimal(value: Decimal | string | number, what: string): Decimal {
  return value instanceof Decimal ? value : parseDecimal(value, what);
}

export class StrategyRuntime<P = unknown> {
  readonly context: StrategyContext<P, unknown>;
  private readonly events = new Subject<StrategyEvent>();
  private readonly timers = new Map<string, StrategyTimer>();
  private operatorSubscription: Subscription | undefined;

  constructor(
    private readonly definition: AnyStrategy,
    params: P,
    private readonly host: StrategyHost,
  ) {
    // Intents are built as single literals: spreading a base object and then adding fields costs microseconds
    // per object on Node 20's V8, the largest single cost of a market maker's requote.
    const strategy = definition.name;
    const intentId = () => host.ids.intentId();
    const now = () => host.clock.now();
    const emit = (intent: Intent) => host.emit(intent);
    const fireTimer = (name: string) => (host.step === undefined ? this.timer(name) : host.step(() => this.timer(name)));
    const instruments = new Map<string, InstrumentView>();
    const instrument = (symbol: string): InstrumentView | undefined => {
      const known = instruments.get(symbol);
      if (known !== undefined) return known;
      const data = host.instrument(symbol);
      if (data === undefined) return undefined;
      const view = instrumentView(data);
      instruments.set(symbol, view);
      return view;
    };
    this.context = {
      name: definition.name,
      params,
      // made here, once per run: a throwing factory is a strategy error like a throwing callback
      state: definition.state === undefined ? undefined : this.guard('state', () => definition.state?.()),
      instrument,
      log: host.log,
      symbols: host.symbols,
      account: host.account,
      now: () => host.clock.now(),
      book: (symbol) => host.book(symbol),
      position: (symbol, account) => host.position(symbol, account),
      openOrders: (symbol) => host.openOrders(symbol),
      place: (o: PlaceOptions) => {
        const clordId = host.ids.clordId();
        emit({
          intentId: intentId(),
          strategy,
          time: now(),
          kind: 'place',
          clordId,
          symbol: o.symbol,
          side: o.side,
          qty: toDecimal(o.qty, 'place.qty'),
          price: o.price === undefined ? undefined : toDecimal(o.price, 'place.price'),
          timeInForce: o.timeInForce ?? 'GOOD_TILL_CANCEL',
          postOnly: o.postOnly ?? false,
          account: o.account,
          selfMatchPrevention: undefined,
          label: o.label,
        });
        return clordId;
      },
      cancel: (clordId) => emit({ intentId: intentId(), strategy, time: now(), kind: 'cancel', clordId }),
      replace: (clordId, change) => {
        const newClordId = host.ids.clordId();
        emit({
          intentId: intentId(),
          strategy,
          time: now(),
          kind: 'replace',
          clordId,
          newClordId,
          price: change.price === undefined ? undefined : toDecimal(change.price, 'replace.price'),
          qty: change.qty === undefined ? undefined : toDecimal(change.qty, 'replace.qty'),
        });
        return newClordId;
      },
      cancelAll: (symbol) => emit({ intentId: intentId(), strategy, time: now(), kind: 'cancelAll', symbol }),
      cross: (o) => {
        const crossId = host.ids.crossId();
        emit({
          intentId: intentId(),
          strategy,
          time: now(),
          kind: 'cross',
          crossId,
          symbol: o.symbol,
          qty: toDecimal(o.qty, 'cross.qty'),
          price: toDecimal(o.price, 'cross.price'),
          buy: { clordId: host.ids.clordId(), account: o.buyAccount, side: 'BUY' },
          sell: { clordId: host.ids.clordId(), account: o.sellAccount, side: 'SELL' },
          allOrNone: o.allOrNone ?? true,
        });
        return crossId;
      },
      every: (name, everyMs) => {
        if (!(everyMs > 0) || !Number.isFinite(everyMs)) throw new RangeError(`every(${name}): the period must be a positive number of milliseconds`);
        this.timers.get(name)?.cancel();
        this.timers.set(name, new StrategyTimer(host.clock, everyMs, () => fireTimer(name)));
      },
      cancelTimer: (name) => {
        this.timers.get(name)?.cancel();
        this.timers.delete(name);
      },
    };
  }

  get name(): string {
    return this.definition.name;
  }

  start(): void {
    if (this.definition.operator) {
      const operator = this.guard('operator', () => this.definition.operator?.(this.context));
      if (operator) {
        this.operatorSubscription = this.events.pipe(operator).subscribe({ error: (error: unknown) => this.host.onError(error, 'operator') });
      }
    }
    this.guard('onStart', () => this.definition.onStart?.(this.context));
  }

  // The event object for an operator is built only when one subscribed (most plugins use callbacks only),
  // and a callback the plugin does not define costs no guard (called on every book, trade and order update).
  book(book: BookView): void {
    if (this.events.observed) this.events.next({ type: 'book', book });
    const onBook = this.definition.onBook;
    if (onBook !== undefined) this.guard('onBook', () => onBook.call(this.definition, this.context, book));
  }

  trade(trade: TradeView): void {
    if (this.events.observed) this.events.next({ type: 'trade', trade });
    const onTrade = this.definition.onTrade;
    if (onTrade !== undefined) this.guard('onTrade', () => onTrade.call(this.definition, this.context, trade));
  }

  orderUpdate(update: OrderUpdateView): void {
    if (this.events.observed) this.events.next({ type: 'order', update });
    const onOrderUpdate = this.definition.onOrderUpdate;
    if (onOrderUpdate !== undefined) this.guard('onOrderUpdate', () => onOrderUpdate.call(this.definition, this.context, update));
  }

  timer(name: string): void {
    if (this.events.observed) this.events.next({ type: 'timer', name });
    const onTimer = this.definition.onTimer;
    if (onTimer !== undefined) this.guard('onTimer', () => onTimer.call(this.definition, this.context, name));
  }

  stop(): void {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    this.guard('onStop', () => this.definition.onStop?.(this.context));
    this.operatorSubscription?.unsubscribe();
    this.events.complete();
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
