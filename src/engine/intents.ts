/**
 * Intents: what a strategy wants done, in the bot's terms (Decimal prices, plain sides), never a venue
 * call. Every intent has an `intentId` so refusals, acknowledgements and fills can be traced back to the
 * decision that caused them. Only the risk layer turns an intent into an `Approved<Intent>`, and only
 * approved intents reach the execution adapter.
 */
import type { Decimal } from '../domain/decimal.ts';
import type { SelfMatchPreventionInstruction } from '../domain/enums.ts';

export type IntentSide = 'BUY' | 'SELL';
export type IntentTimeInForce = 'DAY' | 'GOOD_TILL_CANCEL' | 'IMMEDIATE_OR_CANCEL' | 'FILL_OR_KILL';

export interface IntentBase {
  /** Unique per run; assigned by the engine when the strategy emits the intent. */
  readonly intentId: string;
  /** Name of the strategy that emitted it. */
  readonly strategy: string;
  /** Engine time (clock.now()) when it was emitted. */
  readonly time: number;
}

export interface PlaceIntent extends IntentBase {
  readonly kind: 'place';
  /** The bot's client order id for the new order, assigned when the intent is emitted. */
  readonly clordId: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal;
  /** Limit price; absent for a market-to-limit order. */
  readonly price: Decimal | undefined;
  readonly timeInForce: IntentTimeInForce;
  /** Post-only: refused by the exchange if it would take liquidity. */
  readonly postOnly: boolean;
  /** Account to trade; default: the run's account. */
  readonly account: string | undefined;
  readonly selfMatchPrevention: SelfMatchPreventionInstruction | undefined;
  /** Free-form label the strategy can read back on its orders. */
  readonly label: string | undefined;
}

export interface CancelIntent extends IntentBase {
  readonly kind: 'cancel';
  /** The bot's client order id of the order to cancel. */
  readonly clordId: string;
}

export interface ReplaceIntent extends IntentBase {
  readonly kind: 'replace';
  /** The order to replace. */
  readonly clordId: string;
  /** The client order id the order takes after the replace. */
  readonly newClordId: string;
  readonly price: Decimal | undefined;
  readonly qty: Decimal | undefined;
}

export interface CancelAllIntent extends IntentBase {
  readonly kind: 'cancelAll';
  /** Only this symbol's orders; all symbols when absent. */
  readonly symbol: string | undefined;
}

export interface CrossLeg {
  readonly clordId: string;
  readonly account: string;
  readonly side: IntentSide;
}

export interface CrossIntent extends IntentBase {
  readonly kind: 'cross';
  readonly crossId: string;
  readonly symbol: string;
  readonly qty: Decimal;
  readonly price: Decimal;
  readonly buy: CrossLeg;
  readonly sell: CrossLeg;
  readonly allOrNone: boolean;
}

export type Intent = PlaceIntent | CancelIntent | ReplaceIntent | CancelAllIntent | CrossIntent;
export type IntentKind = Intent['kind'];

/** Intents that can only lower exposure: allowed while trading is `reducing`. */
export function isCancelKind(intent: Intent): boolean {
  return intent.kind === 'cancel' || intent.kind === 'cancelAll';
}
