/**
 * The tracker's internal, mutable record of one order, and its read-only view. Only the tracker and the
 * appliers in this folder touch records; everybody else sees `TrackedOrder` snapshots.
 *
 * Client order ids form a chain in the order the bot issued them (submission, then each replace). The
 * index of a clordId in the chain is its *version*: the terms (price, qty) of an execution are adopted
 * only when its clordId is at least as new as the terms already applied, so a stale execution from before a
 * replace cannot bring back the old price. `confirmed` is the newest version the exchange has confirmed.
 */
import { ZERO, type Decimal } from '../../domain/decimal.ts';
import type { PriceQty } from '../../domain/types/common.ts';
import type { EpochMs } from '../../domain/time.ts';
import type { IntentSide } from '../intents.ts';
import { type BaseState, visibleState } from './states.ts';
import type { PendingReplace, TrackedOrder, TrackedState } from './types.ts';

export interface RecordInit {
  readonly clordId: string;
  readonly orderId: string | undefined;
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly price: Decimal | undefined;
  readonly qty: Decimal;
  readonly base: BaseState;
  readonly adopted: boolean;
  readonly intentId: string | undefined;
  readonly label: string | undefined;
  readonly time: EpochMs;
}

export class OrderRecord {
  /** Every clordId issued or seen for the order, oldest first (pending replaces included). */
  readonly chain: string[];
  /** Version (index in `chain`) of the terms applied. */
  confirmed = 0;
  orderId: string | undefined;
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  price: Decimal | undefined;
  qty: Decimal;
  filledQty: Decimal = ZERO;
  /** Sum of qty x price over the fills (and the adopted history). */
  notional: Decimal = ZERO;
  /** Filled quantity per price at `filledQty`; undefined when unknown. */
  levels: readonly PriceQty[] | undefined = [];
  base: BaseState;
  /** The terminal base was set locally (insert refused before reaching the book); exchange evidence wins. */
  baseIsLocal = false;
  pendingCancel = false;
  pendingReplace: PendingReplace | undefined = undefined;
  unknown = false;
  readonly adopted: boolean;
  readonly intentId: string | undefined;
  readonly label: string | undefined;
  readonly createdAt: EpochMs;
  updatedAt: EpochMs;

  constructor(init: RecordInit) {
    this.chain = [init.clordId];
    this.orderId = init.orderId;
    this.account = init.account;
    this.symbol = init.symbol;
    this.side = init.side;
    this.price = init.price;
    this.qty = init.qty;
    this.base = init.base;
    this.adopted = init.adopted;
    this.intentId = init.intentId;
    this.label = init.label;
    this.createdAt = init.time;
    this.updatedAt = init.time;
  }

  get clordId(): string {
    return this.chain[this.confirmed] ?? this.chain[0] ?? '';
  }

  get isBuy(): boolean {
    return this.side === 'BUY';
  }

  /** Version of `clordId` in the chain, or -1. */
  versionOf(clordId: string): number {
    return this.chain.indexOf(clordId);
  }

  state(): TrackedState {
    return visibleState({
      base: this.base,
      pendingCancel: this.pendingCancel,
      pendingReplace: this.pendingReplace !== undefined,
      unknown: this.unknown,
    });
  }

  leavesQty(): Decimal {
    const s = this.state();
    if (s === 'FILLED' || s === 'CANCELED' || s === 'REJECTED' || s === 'EXPIRED') return ZERO;
    const leaves = this.qty.minus(this.filledQty);
    return leaves.isNegative() ? ZERO : leaves;
  }

  view(): TrackedOrder {
    return Object.freeze({
      clordId: this.clordId,
      clordIds: Object.freeze(this.chain.slice(0, this.confirmed + 1)),
      orderId: this.orderId,
      account: this.account,
      symbol: this.symbol,
      side: this.side,
      price: this.price,
      qty: this.qty,
      filledQty: this.filledQty,
      leavesQty: this.leavesQty(),
      avgPx: this.filledQty.isZero() ? ZERO : this.notional.div(this.filledQty),
      state: this.state(),
      adopted: this.adopted,
      intentId: this.intentId,
      label: this.label,
      pendingReplace: this.pendingReplace,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
    });
  }
}

/** True when two views differ in anything a consumer would act on (time aside). */
export function viewChanged(a: TrackedOrder, b: TrackedOrder): boolean {
  return (
    a.state !== b.state ||
    a.clordId !== b.clordId ||
    a.orderId !== b.orderId ||
    !a.qty.eq(b.qty) ||
    !a.filledQty.eq(b.filledQty) ||
    !sameOptional(a.price, b.price) ||
    a.pendingReplace !== b.pendingReplace
  );
}

function sameOptional(a: Decimal | undefined, b: Decimal | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.eq(b);
}
