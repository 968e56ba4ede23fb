/**
 * Builds the `ctx` a strategy's callbacks receive from what the engine offers (StrategyHost): read-only
 * views (books, positions, open orders, instrument views of the host's reference data, the trading state,
 * the run's accounts and venue), intents out through `host.emit` with ids from the host's factory, and the
 * timers. Every intent call goes through `call` (the runtime's delivery rule: outcomes produced while the
 * call runs are delivered after it returns, never inside it).
 */
import type { Logger } from 'pino';
import { Decimal, parseDecimal } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/index.ts';
import type { Clock } from '../clock.ts';
import type { Intent } from '../intents.ts';
import type { TradingState } from '../risk/trading-state.ts';
import type { CrossOptions, PlaceOptions, StrategyContext } from './define-strategy.ts';
import { instrumentView, type InstrumentView } from './instrument-view.ts';
import type { StrategyTimers } from './timers.ts';
import type { BookView, OrderView, VenueView } from './views.ts';

export interface IdFactory {
  intentId(): string;
  clordId(): string;
  crossId(): string;
}

/** What the engine offers a strategy runtime. */
export interface StrategyHost {
  /** The strategy's id in a bot running several (#25): its intents and `ctx.name` carry it; default: the plugin's name. */
  readonly strategyId?: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly account: string;
  /** Every account the run follows (default: `[account]`). */
  readonly accounts?: readonly string[];
  /** The venue's name and what it can do (default: `{ name: 'unknown', canCross: true }`). */
  readonly venue?: VenueView;
  readonly symbols: readonly string[];
  readonly ids: IdFactory;
  book(symbol: string): BookView | undefined;
  /** Reference data of a symbol the run knows (the venue's instruments). */
  instrument(symbol: string): Instrument | undefined;
  position(symbol: string, account?: string): Decimal;
  openOrders(symbol?: string): readonly OrderView[];
  /** The trading state now (default: always `active`). */
  tradingState?(): TradingState;
  emit(intent: Intent): void;
  /** A callback threw: the host logs it and changes the trading state per config. */
  onError(error: unknown, callback: string): void;
  /** Runs work arising outside the host's own events (timers) as one engine step; default: runs it directly. */
  step?(work: () => void): void;
}

function toDecimal(value: Decimal | string | number, what: string): Decimal {
  return value instanceof Decimal ? value : parseDecimal(value, what);
}

/** Instrument views, made once per symbol. */
function instrumentViews(host: StrategyHost): (symbol: string) => InstrumentView | undefined {
  const views = new Map<string, InstrumentView>();
  return (symbol) => {
    const known = views.get(symbol);
    if (known !== undefined) return known;
    const data = host.instrument(symbol);
    if (data === undefined) return undefined;
    const view = instrumentView(data);
    views.set(symbol, view);
    return view;
  };
}

export interface ContextParts<P, S> {
  readonly strategy: string;
  readonly params: P;
  readonly state: S;
  readonly host: StrategyHost;
  readonly timers: StrategyTimers;
  /** Runs an intent call under the delivery rule. */
  readonly call: <T>(fn: () => T) => T;
}

// Intents are built as single literals: spreading a base object and then adding fields costs microseconds
// per object on Node 20's V8, the largest single cost of a market maker's requote.
function placeIntent(parts: ContextParts<unknown, unknown>, o: PlaceOptions, clordId: string): Intent {
  const { host, strategy } = parts;
  return {
    intentId: host.ids.intentId(),
    strategy,
    time: host.clock.now(),
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
  };
}

function crossIntent(parts: ContextParts<unknown, unknown>, o: CrossOptions, crossId: string): Intent {
  const { host, strategy } = parts;
  return {
    intentId: host.ids.intentId(),
    strategy,
    time: host.clock.now(),
    kind: 'cross',
    crossId,
    symbol: o.symbol,
    qty: toDecimal(o.qty, 'cross.qty'),
    price: toDecimal(o.price, 'cross.price'),
    buy: { clordId: host.ids.clordId(), account: o.buyAccount, side: 'BUY' },
    sell: { clordId: host.ids.clordId(), account: o.sellAccount, side: 'SELL' },
    allOrNone: o.allOrNone ?? true,
  };
}

export function buildContext<P, S>(parts: ContextParts<P, S>): StrategyContext<P, S> {
  const { host, strategy, timers, call } = parts;
  const generic = parts as ContextParts<unknown, unknown>;
  const emit = (intent: Intent) => host.emit(intent);
  const accounts = Object.freeze([...(host.accounts ?? [host.account])]);
  const venue = Object.freeze({ ...(host.venue ?? { name: 'unknown', canCross: true }) });
  return {
    name: strategy,
    params: parts.params,
    state: parts.state,
    instrument: instrumentViews(host),
    log: host.log,
    symbols: host.symbols,
    account: host.account,
    accounts,
    venue,
    get tradingState(): TradingState {
      return host.tradingState?.() ?? 'active';
    },
    now: () => host.clock.now(),
    book: (symbol) => host.book(symbol),
    position: (symbol, account) => host.position(symbol, account),
    openOrders: (symbol) => host.openOrders(symbol),
    place: (o) =>
      call(() => {
        const clordId = host.ids.clordId();
        emit(placeIntent(generic, o, clordId));
        return clordId;
      }),
    cancel: (clordId) => call(() => emit({ intentId: host.ids.intentId(), strategy, time: host.clock.now(), kind: 'cancel', clordId })),
    replace: (clordId, change) =>
      call(() => {
        const newClordId = host.ids.clordId();
        const price = change.price === undefined ? undefined : toDecimal(change.price, 'replace.price');
        const qty = change.qty === undefined ? undefined : toDecimal(change.qty, 'replace.qty');
        emit({ intentId: host.ids.intentId(), strategy, time: host.clock.now(), kind: 'replace', clordId, newClordId, price, qty });
        return newClordId;
      }),
    cancelAll: (symbol) => call(() => emit({ intentId: host.ids.intentId(), strategy, time: host.clock.now(), kind: 'cancelAll', symbol })),
    cross: (o) =>
      call(() => {
        const crossId = host.ids.crossId();
        emit(crossIntent(generic, o, crossId));
        return crossId;
      }),
    every: (name, everyMs) => timers.every(name, everyMs),
    after: (name, afterMs) => timers.after(name, afterMs),
    cancelTimer: (name) => timers.cancel(name),
  };
}
