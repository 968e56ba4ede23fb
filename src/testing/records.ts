/**
 * What the harness records of a strategy's run, as structured objects and in one readable line each (`text`):
 * the intents it emitted (before risk), the refusals risk answered, and the fills of its orders. Orders are
 * named by the order in which the strategy placed them (`#1`, `#2`, ...; a replace keeps its order's name),
 * because client order ids carry the run id and differ between runs. Decimals are `Decimal`; in `text` a price
 * shows its instrument's tick places (`0.40`), a quantity its shortest form (`5`).
 */
import type { Decimal } from '../domain/decimal.ts';
import type { IntentSide, IntentTimeInForce } from '../engine/intents.ts';

interface RecordBase {
  /** Position in the run's sequence of intents (1, 2, ...). */
  readonly seq: number;
  /** Engine time when the strategy emitted it (epoch ms; virtual time in a scripted market). */
  readonly time: number;
  /** One readable line, e.g. `place #1 BUY 5 RAIN@0.40 GTC post quote`. */
  readonly text: string;
}

/** `ctx.place`: `order` is its name (`#n`), `clordId` the id the call returned. */
export interface PlaceRecord extends RecordBase {
  readonly kind: 'place';
  readonly order: string;
  readonly clordId: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal;
  /** Undefined for a market-to-limit order. */
  readonly price: Decimal | undefined;
  readonly timeInForce: IntentTimeInForce;
  readonly postOnly: boolean;
  readonly label: string | undefined;
  /** The account given to `place` (undefined: the run's default account). */
  readonly account: string | undefined;
}

/** `ctx.cancel` of the order named `order`. */
export interface CancelRecord extends RecordBase {
  readonly kind: 'cancel';
  readonly order: string;
  readonly clordId: string;
  /** The order's symbol when the strategy placed it in this run. */
  readonly symbol: string | undefined;
}

/** `ctx.replace` of the order named `order`; `newClordId` is what the call returned. */
export interface ReplaceRecord extends RecordBase {
  readonly kind: 'replace';
  readonly order: string;
  readonly clordId: string;
  readonly newClordId: string;
  readonly symbol: string | undefined;
  readonly price: Decimal | undefined;
  readonly qty: Decimal | undefined;
}

/** `ctx.cancelAll` (of one symbol, or every symbol when `symbol` is undefined). */
export interface CancelAllRecord extends RecordBase {
  readonly kind: 'cancelAll';
  readonly symbol: string | undefined;
}

/** `ctx.cross` between two accounts; `crossId` is what the call returned. */
export interface CrossRecord extends RecordBase {
  readonly kind: 'cross';
  readonly crossId: string;
  readonly symbol: string;
  readonly qty: Decimal;
  readonly price: Decimal;
  readonly buyAccount: string;
  readonly sellAccount: string;
}

/** One intent the strategy emitted, before risk saw it. */
export type RecordedIntent = PlaceRecord | CancelRecord | ReplaceRecord | CancelAllRecord | CrossRecord;

/** An intent risk refused (nothing was sent for it). */
export interface RecordedRefusal {
  readonly time: number;
  /** The refusal code, e.g. `RISK_MAX_POSITION`. */
  readonly code: string;
  readonly message: string;
  /** The symbol concerned, when known. */
  readonly symbol: string | undefined;
  /** The refused intent as recorded (undefined only when the harness could not tell which it was). */
  readonly intent: RecordedIntent | undefined;
  /** `RISK_MAX_POSITION place #3 BUY 5 RAIN@0.40 GTC`. */
  readonly text: string;
}

/** A fill of one of the strategy's orders, as the strategy was told of it. */
export interface RecordedFill {
  readonly time: number;
  /** The order's name (`#n`; `#?<clordId>` for an order this run did not place, e.g. a cross leg). */
  readonly order: string;
  readonly clordId: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal;
  readonly price: Decimal;
  /** `fill #1 BUY 5 RAIN@0.40`. */
  readonly text: string;
}

const TIF: Record<IntentTimeInForce, string> = { DAY: 'DAY', GOOD_TILL_CANCEL: 'GTC', IMMEDIATE_OR_CANCEL: 'IOC', FILL_OR_KILL: 'FOK' };

/** A price with its tick's decimal places when it has no more than those (`0.4` with tick 0.01: `0.40`). */
export function priceText(price: Decimal | undefined, tickPlaces: number | undefined): string {
  if (price === undefined) return 'market';
  return tickPlaces !== undefined && price.decimalPlaces() <= tickPlaces ? price.toFixed(tickPlaces) : price.toFixed();
}

type Unnumbered<T> = T extends RecordBase ? Omit<T, 'seq' | 'time' | 'text'> : never;

/** The readable line of an intent; `places(symbol)` gives a symbol's tick places. */
export function intentText(intent: Unnumbered<RecordedIntent>, places: (symbol: string | undefined) => number | undefined): string {
  switch (intent.kind) {
    case 'place': {
      const extras = [
        TIF[intent.timeInForce],
        intent.postOnly ? 'post' : undefined,
        intent.label,
        intent.account === undefined ? undefined : `account=${intent.account}`,
      ];
      return [
        `place ${intent.order} ${intent.side} ${intent.qty.toFixed()} ${intent.symbol}@${priceText(intent.price, places(intent.symbol))}`,
        ...extras,
      ]
        .filter((part) => part !== undefined && part !== '')
        .join(' ');
    }
    case 'cancel':
      return `cancel ${intent.order}`;
    case 'replace': {
      const price = intent.price === undefined ? '' : ` price ${priceText(intent.price, places(intent.symbol))}`;
      const qty = intent.qty === undefined ? '' : ` qty ${intent.qty.toFixed()}`;
      return `replace ${intent.order}${price}${qty}`;
    }
    case 'cancelAll':
      return `cancelAll ${intent.symbol ?? '*'}`;
    case 'cross':
      return (
        `cross ${intent.symbol} ${intent.qty.toFixed()}@${priceText(intent.price, places(intent.symbol))} ` +
        `buy=${intent.buyAccount} sell=${intent.sellAccount}`
      );
  }
}
