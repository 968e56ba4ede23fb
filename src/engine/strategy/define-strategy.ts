/**
 * The strategy plugin API. A plugin module default-exports `defineStrategy({...})`: a name, a params
 * schema (zod, validated from YAML before start), the symbols it trades, an optional per-run `state`
 * factory (`ctx.state`), and callbacks that read views (books, positions, open orders, instruments, the
 * trading state, the run's accounts and venue) and emit intents through the context. Advanced plugins give
 * an RxJS `operator` from the engine's event stream instead of callbacks. Plugin authors import all of it
 * from src/strategy.ts.
 *
 * Delivery rule: callbacks never nest. An intent call returns at once; every outcome (the order's updates,
 * fills, a risk refusal) is delivered to `onOrderUpdate` after the callback that made the call has returned,
 * never inside the call.
 */
import type { Observable, OperatorFunction } from 'rxjs';
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Decimal } from '../../domain/decimal.ts';
import type { IntentSide, IntentTimeInForce } from '../intents.ts';
import type { TradingState } from '../risk/trading-state.ts';
import type { BookView, OrderUpdateView, OrderView, TradeView, TradingStateView, VenueView } from './views.ts';
import type { InstrumentView } from './instrument-view.ts';
import { TradebotError } from '../../errors.ts';

export interface PlaceOptions {
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal | string | number;
  /** Limit price; omit for a market-to-limit order. */
  readonly price?: Decimal | string | undefined;
  readonly timeInForce?: IntentTimeInForce;
  readonly postOnly?: boolean;
  readonly account?: string;
  readonly label?: string;
}

export interface CrossOptions {
  readonly symbol: string;
  readonly qty: Decimal | string | number;
  readonly price: Decimal | string;
  readonly buyAccount: string;
  readonly sellAccount: string;
  readonly allOrNone?: boolean;
}

/**
 * What every callback receives: read-only views, and the only way to act, intents. `S` is the type of the
 * plugin's per-run state (`undefined` without a `state` factory).
 */
export interface StrategyContext<P, S = unknown> {
  readonly name: string;
  readonly params: P;
  /** This run's own state, made by the definition's `state()` at start; mutate its fields freely. */
  readonly state: S;
  readonly log: Logger;
  /** The symbols this run trades. */
  readonly symbols: readonly string[];
  /** The run's default account. */
  readonly account: string;
  /** Every account the run follows (`bot.accounts`; the default account first): a cross needs both of its accounts here. */
  readonly accounts: readonly string[];
  /** Where orders go and what it can do (`ctx.venue.canCross`). */
  readonly venue: VenueView;
  /** The trading state now: `active`, `reducing` (only reducing orders pass) or `halted` (only cancels pass). */
  readonly tradingState: TradingState;
  now(): number;
  book(symbol: string): BookView | undefined;
  /** The venue's reference data for a traded symbol (tick, price limits, minimum and lot quantity, scales, state). */
  instrument(symbol: string): InstrumentView | undefined;
  /** Net position (signed) in `symbol`, across the run's accounts unless `account` is given. */
  position(symbol: string, account?: string): Decimal;
  openOrders(symbol?: string): readonly OrderView[];
  /**
   * Intents: each returns at once; its outcome arrives later in `onOrderUpdate` (after the current callback
   * returns), tied to the returned id (the order's `clordId`, a cross leg's `crossId`, a refusal's `id`).
   * Emits a place intent; returns the client order id the order will carry.
   */
  place(options: PlaceOptions): string;
  cancel(clordId: string): void;
  /** Emits a replace; returns the client order id the order carries afterwards. */
  replace(clordId: string, change: { price?: Decimal | string; qty?: Decimal | string | number }): string;
  cancelAll(symbol?: string): void;
  /** Two-sided cross between two accounts of the firm; returns the cross id. */
  cross(options: CrossOptions): string;
  /**
   * Calls `onTimer(ctx, name)` every `everyMs` of engine time (virtual time in backtests); its intents are
   * sent at once. Calling it again with the same name replaces that timer.
   */
  every(name: string, everyMs: number): void;
  /**
   * Calls `onTimer(ctx, name)` once, `afterMs` of engine time from now (virtual time in backtests). The same
   * name again (with `after` or `every`) replaces that timer; `cancelTimer(name)` cancels it.
   */
  after(name: string, afterMs: number): void;
  /** Stops the timer `name` (nothing when there is none). */
  cancelTimer(name: string): void;
}

/** Engine events offered to operator-form strategies. */
export type StrategyEvent =
  | { readonly type: 'book'; readonly book: BookView }
  | { readonly type: 'trade'; readonly trade: TradeView }
  | { readonly type: 'order'; readonly update: OrderUpdateView }
  | { readonly type: 'timer'; readonly name: string }
  | { readonly type: 'tradingState'; readonly change: TradingStateView };

/** An operator-form plugin maps the engine's event stream to actions on the context (side effects). */
export type StrategyOperator<P, S = unknown> = (context: StrategyContext<P, S>) => OperatorFunction<StrategyEvent, unknown>;

/**
 * `Schema`: the params' zod schema; `S`: the per-run state the `state` factory makes. Callbacks are declared
 * as methods so a definition for specific params and state is also an `AnyStrategy` (what the engine runs).
 */
export interface StrategyDefinition<Schema extends z.ZodType = z.ZodType, S = unknown> {
  readonly name: string;
  readonly description?: string;
  readonly params: Schema;
  /**
   * Makes this run's state (`ctx.state`), once per run before `onStart`: per-run, so two runs or two tests in
   * one process never share it (module-level variables would be shared by every run that loads the module).
   */
  state?(): S;
  /** Symbols to trade, from the params (default: `params.symbols` or `params.symbol` when present). */
  symbols?(params: z.output<Schema>): readonly string[];
  onStart?(ctx: StrategyContext<z.output<Schema>, S>): void;
  onBook?(ctx: StrategyContext<z.output<Schema>, S>, book: BookView): void;
  onTrade?(ctx: StrategyContext<z.output<Schema>, S>, trade: TradeView): void;
  onOrderUpdate?(ctx: StrategyContext<z.output<Schema>, S>, update: OrderUpdateView): void;
  onTimer?(ctx: StrategyContext<z.output<Schema>, S>, name: string): void;
  /** The trading state changed (`ctx.tradingState` is already the new one). */
  onTradingState?(ctx: StrategyContext<z.output<Schema>, S>, change: TradingStateView): void;
  onStop?(ctx: StrategyContext<z.output<Schema>, S>): void;
  /** Operator form (instead of, or besides, the callbacks). */
  operator?(ctx: StrategyContext<z.output<Schema>, S>): OperatorFunction<StrategyEvent, unknown>;
}

export type AnyStrategy = StrategyDefinition<z.ZodType, unknown>;

export function defineStrategy<Schema extends z.ZodType, S = undefined>(
  definition: StrategyDefinition<Schema, S>,
): StrategyDefinition<Schema, S> {
  if (typeof definition.name !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(definition.name)) {
    throw new TradebotError(
      'STRATEGY_INVALID_NAME',
      `strategy name must be lower-case letters, digits and dashes, got ${JSON.stringify(definition.name)}`,
      { kind: 'config' },
    );
  }
  if (definition.state !== undefined && typeof definition.state !== 'function') {
    throw new TradebotError(
      'STRATEGY_INVALID_STATE',
      `strategy ${definition.name}: state must be a function that returns the run's initial state, e.g. state: () => ({ count: 0 })`,
      { kind: 'config' },
    );
  }
  if (definition.params === undefined || typeof (definition.params as { safeParse?: unknown }).safeParse !== 'function') {
    throw new TradebotError(
      'STRATEGY_INVALID_PARAMS_SCHEMA',
      `strategy ${definition.name}: params must be a zod schema (e.g. z.object({...}))`,
      { kind: 'config' },
    );
  }
  return Object.freeze({ ...definition });
}

/** The symbols a strategy trades, from its definition or conventional params. */
export function symbolsOf(definition: AnyStrategy, params: unknown): readonly string[] {
  if (definition.symbols) return definition.symbols(params);
  const p = params as { symbols?: unknown; symbol?: unknown };
  if (Array.isArray(p.symbols)) return p.symbols.filter((s): s is string => typeof s === 'string');
  if (typeof p.symbol === 'string') return [p.symbol];
  return [];
}

export type { Observable };
