/**
 * The tracker's internal, mutable record of one order, and its read-only view. Only the tracker and the
 * appliers in this folder touch records; everybody else sees `TrackedOrder` snapshots.
 *
 * Client order ids form a chain in the order the bot issued them (submission, then each replace). The
 * position of a clordId in the chain is its *version*: the terms (price, qty) of an execution are adopted
 * only when its clordId is at least as new as the terms already applied, so a stale execution from before a
 * replace cannot bring back the old price. `confirmed` is the newest version the exchange has confirmed.
 * The chain keeps the first id and a window of recent ones (clord-chain.ts).
 */
import { ZERO, type Decimal } from '../../domain/decimal.ts';
import type { PriceQty } from '../../domain/types/common.ts';
import type { EpochMs } from '../../domain/time.ts';
import type { IntentSide } from '../intents.ts';
import { type BaseState, visibleState } from './states.ts';
import { ClordChain } from './clord-chain.ts';
import type { AwaitingAck } from './in-flight.ts';
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
  readonly crossId: string | undefined;
  readonly time: EpochMs;
}

export class OrderRecord {
  /** ClordIds issued or seen for the order, oldest first (pending replaces included): the first and the recent ones. */
  readonly chain: ClordChain;
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
  /** Requests waiting for the order's acknowledgement, and whether a cancel call is on the wire (in-flight.ts). */
  awaitingAck: AwaitingAck | undefined = undefined;
  cancelInFlight = false;
  readonly adopted: boolean;
  readonly intentId: string | undefined;
  readonly label: string | undefined;
  readonly crossId: string | undefined;
  readonly createdAt: EpochMs;
  updatedAt: EpochMs;

  constructor(init: RecordInit) {
    this.chain = new ClordChain(init.clordId);
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
    this.crossId = init.crossId;
    this.createdAt = init.time;
    this.updatedAt = init.time;
  }

  get clordId(): string {
    return this.chain.at(this.confirmed) ?? this.chain.first;
  }

  get isBuy(): boolean {
    return this.side === 'BUY';
  }

  /** Version of `clordId` in the chain, or -1 (unknown, or an old id that left the window). */
  versionOf(clordId: string): number {
    return this.chain.versionOf(clordId);
  }

  state(): TrackedState {
    return visibleState(this);
  }

  leavesQty(state: TrackedState = this.state()): Decimal {
    if (state === 'FILLED' || state === 'CANCELED' || state === 'REJECTED' || state === 'EXPIRED') return ZERO;
    if (this.filledQty.isZero()) return this.qty;
    const leaves = this.qty.minus(this.filledQty);
    return leaves.isNegative() ? ZERO : leaves;
  }

  /**
   * The current view, taken once per change: the tracker calls `changed()` in every commit, after the inputs
   * mutated the record and before anyone reads it again (views are read far more often than orders change:
   * risk and the strategy read every open order on every event).
   */
  view(): TrackedOrder {
    return (this.current ??= Object.freeze(new OrderView(this)));
  }

  /** The record was mutated: the next `view()` is taken afresh. */
  changed(): void {
    this.current = undefined;
  }

  private current: TrackedOrder | undefined = undefined;
}

/**
 * A TrackedOrder snapshot. `clordIds` is copied from the chain only when read: views are taken several
 * times per event. Entries up to `confirmed` never change (only later, unconfirmed entries are ever removed,
 * and old ones leave the window), so a later copy equals one taken now but for ids that left the window.
 * A class (not a literal with a getter) because V8 builds such literals an order of magnitude slower.
 */
class OrderView implements TrackedOrder {
  readonly clordId: string;
  readonly orderId: string | undefined;
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly price: Decimal | undefined;
  readonly qty: Decimal;
  readonly filledQty: Decimal;
  readonly leavesQty: Decimal;
  readonly state: TrackedState;
  readonly status: Exclude<TrackedState, 'UNKNOWN'>;
  readonly adopted: boolean;
  readonly intentId: string | undefined;
  readonly label: string | undefined;
  readonly crossId: string | undefined;
  readonly pendingReplace: PendingReplace | undefined;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly #chain: ClordChain;
  readonly #count: number;
  readonly #notional: Decimal;
  #clordIds: readonly string[] | undefined;
  #avgPx: Decimal | undefined;

  constructor(record: OrderRecord) {
    this.clordId = record.clordId;
    this.orderId = record.orderId;
    this.account = record.account;
    this.symbol = record.symbol;
    this.side = record.side;
    this.price = record.price;
    this.qty = record.qty;
    this.filledQty = record.filledQty;
    this.state = record.state();
    this.status = this.state === 'UNKNOWN' ? 'NEW' : this.state;
    this.leavesQty = record.leavesQty(this.state);
    this.#notional = record.notional;
    this.adopted = record.adopted;
    this.intentId = record.intentId;
    this.label = record.label;
    this.crossId = record.crossId;
    this.pendingReplace = record.pendingReplace;
    this.createdAt = record.createdAt;
    this.updatedAt = record.updatedAt;
    this.#chain = record.chain;
    this.#count = record.confirmed + 1;
  }

  /** Every client order id the order has had, oldest first. */
  get clordIds(): readonly string[] {
    this.#clordIds ??= Object.freeze(this.#chain.upTo(this.#count));
    return this.#clordIds;
  }

  /** Average fill price, divided out when first read (few readers; a view is taken on every change). */
  get avgPx(): Decimal {
    this.#avgPx ??= this.filledQty.isZero() ? ZERO : this.#notional.div(this.filledQty);
    return this.#avgPx;
  }

  /** Plain form for logs and JSON, avgPx and clordIds included. */
  toJSON(): object {
    return { ...this, avgPx: this.avgPx, clordIds: this.clordIds };
  }
}

/** True when the record differs from `view` in anything a consumer would act on (time aside), read without taking a new view. */
export function changedSince(view: TrackedOrder, record: OrderRecord): boolean {
  return (
    view.state !== record.state() ||
    view.clordId !== record.clordId ||
    view.orderId !== record.orderId ||
    (view.qty !== record.qty && !view.qty.eq(record.qty)) ||
    (view.filledQty !== record.filledQty && !view.filledQty.eq(record.filledQty)) ||
    !sameOptional(view.price, record.price) ||
    view.pendingReplace !== record.pendingReplace
  );
}

function sameOptional(a: Decimal | undefined, b: Decimal | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a === b || a.eq(b);
}
