/**
 * The public entry for strategy plugin authors: everything a plugin needs, from one module.
 *
 *   import { defineStrategy, z, decimal, Decimal, roundToTick } from '../src/strategy.ts';
 *
 * - `defineStrategy` and the types of the context, the views (books, orders, fills, `onTrade`'s TradeView,
 *   refusals, trading-state changes, instruments, the venue), intents, refusal codes and trading states;
 * - `z` (zod) and param schema helpers that read YAML the way the rest of the config is read: `decimal()` (exact
 *   decimal strings to `Decimal`), `symbols()`, `account()`;
 * - `Decimal` (decimal.js configured for money) and its helpers: `roundToTick`, `isMultipleOf`, `parseDecimal`,
 *   `ZERO`, `ONE`; instrument helpers `toTick` and `clampToLimits`.
 * Anything not exported here is engine internals a plugin should not depend on.
 */
import { z } from 'zod';
import { decimal } from './config/fields.ts';

export { z };
export { decimal };
export {
  Decimal,
  ZERO,
  ONE,
  roundToTick,
  isMultipleOf,
  parseDecimal,
  minDecimal,
  maxDecimal,
  type TickRounding,
} from './domain/decimal.ts';
export { defineStrategy, symbolsOf } from './engine/strategy/define-strategy.ts';
export type {
  StrategyContext,
  StrategyDefinition,
  StrategyEvent,
  StrategyOperator,
  PlaceOptions,
  CrossOptions,
  AnyStrategy,
} from './engine/strategy/define-strategy.ts';
export type {
  BookView,
  BookLevelView,
  OrderView,
  OrderStatus,
  FillView,
  FillUpdateView,
  TradeView,
  OrderUpdateView,
  RefusedView,
  ThrottledView,
  TradingStateView,
  VenueView,
} from './engine/strategy/views.ts';
export { toTick, clampToLimits, type InstrumentView } from './engine/strategy/instrument-view.ts';
export type {
  Intent,
  IntentKind,
  IntentSide,
  IntentTimeInForce,
  PlaceIntent,
  CancelIntent,
  ReplaceIntent,
  CancelAllIntent,
  CrossIntent,
} from './engine/intents.ts';
export type { RefusalCode } from './engine/risk/verdict.ts';
export type { TradingState, TradingStateCause } from './engine/risk/trading-state.ts';

const ACCOUNT = /^firms\/[A-Za-z0-9_.-]+\/accounts\/[A-Za-z0-9_.-]+$/;

/** A list of at least one symbol (the conventional `symbols` param: the run trades these). */
export function symbols() {
  return z
    .array(z.string().min(1, 'a symbol cannot be empty'), { error: 'expected a list of symbols such as [RAIN-NYC-2026-12-01]' })
    .min(1, 'name at least one symbol');
}

/** An account of the firm, `firms/<firm>/accounts/<account>`. */
export function account() {
  return z
    .string({ error: 'expected an account such as "firms/demo/accounts/alice-main"' })
    .regex(ACCOUNT, 'expected the form firms/<firm>/accounts/<account>');
}
