/**
 * The strategy plugin API. A plugin module default-exports `defineStrategy({...})`: a name, a params
 * schema (zod, validated from YAML before start), the symbols it trades, and callbacks that read views
 * and emit intents through the context. Advanced plugins give an RxJS `operator` from the engine's event
 * stream to intent drafts instead of callbacks.
 */
import type { Observable, OperatorFunction } from 'rxjs';
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Decimal } from '../../domain/decimal.ts';
import type { IntentSide, IntentTimeInForce } from '../intents.ts';
import type { BookView, OrderUpdateView, OrderView, TradeView } from './views.ts';
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

/** What every callback receives: read-only views, and the only way to act, intents. */
export interface StrategyContext<P> {
  readonly name: string;
  readonly params: P;
  readonly log: Logger;
  /** The symbols this run trades. */
  readonly symbols: readonly string[];
  /** The run's default account. */
  readonly account: string;
  now(): number;
  book(symbol: string): BookView | undefined;
  /** Net position (signed) in `symbol`, across the run's accounts unless `account` is given. */
  position(symbol: string, account?: string): Decimal;
  openOrders(symbol?: string): readonly OrderView[];
  /** Emits a place intent; returns the client order id the order will carry. */
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
  /** Stops the timer `name` (nothing when there is none). */
  cancelTimer(name: string): void;
}

/** Engine events offered to operator-form strategies. */
export type StrategyEvent =
  | { readonly type: 'book'; readonly book: BookView }
  | { readonly type: 'trade'; readonly trade: TradeView }
  | { readonly type: 'order'; readonly update: OrderUpdateView }
  | { readonly type: 'timer'; readonly name: string };

/** An operator-form plugin maps the engine's event stream to actions on the context (side effects). */
export type StrategyOperator<P> = (context: StrategyContext<P>) => OperatorFunction<StrategyEvent, unknown>;

export interface StrategyDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description?: string;
  readonly params: S;
  /** Symbols to trade, from the params (default: `params.symbols` or `params.symbol` when present). */
  readonly symbols?: (params: z.output<S>) => readonly string[];
  readonly onStart?: (ctx: StrategyContext<z.output<S>>) => void;
  readonly onBook?: (ctx: StrategyContext<z.output<S>>, book: BookView) => void;
  readonly onTrade?: (ctx: StrategyContext<z.output<S>>, trade: TradeView) => void;
  readonly onOrderUpdate?: (ctx: StrategyContext<z.output<S>>, update: OrderUpdateView) => void;
  readonly onTimer?: (ctx: StrategyContext<z.output<S>>, name: string) => void;
  readonly onStop?: (ctx: StrategyContext<z.output<S>>) => void;
  /** Operator form (instead of, or besides, the callbacks). */
  readonly operator?: StrategyOperator<z.output<S>>;
}

export type AnyStrategy = StrategyDefinition<z.ZodType>;

export function defineStrategy<S extends z.ZodType>(definition: StrategyDefinition<S>): StrategyDefinition<S> {
  if (typeof definition.name !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(definition.name)) {
    throw new TradebotError('STRATEGY_INVALID_NAME', `strategy name must be lower-case letters, digits and dashes, got ${JSON.stringify(definition.name)}`, { kind: 'config' });
  }
  if (definition.params === undefined || typeof (definition.params as { safeParse?: unknown }).safeParse !== 'function') {
    throw new TradebotError('STRATEGY_INVALID_PARAMS_SCHEMA', `strategy ${definition.name}: params must be a zod schema (e.g. z.object({...}))`, { kind: 'config' });
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
