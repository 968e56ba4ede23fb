/**
 * What the engine emits. Every change to an order is an `Execution` (an order snapshot plus what happened:
 * type, last fill, trade id, reject reason, text); every match is a `Trade` linking the aggressor's and the
 * passive order's executions; a refused cancel or replace is a `CancelReject`; instrument state changes and
 * settlements are `InstrumentEvent`s. Each engine call returns them in an `EngineResult`, in the order they
 * happened. Ids are numbers internally; their string forms are built only when read.
 */
import { formatId } from './ids.ts';
import type { IdGenerator } from './ids.ts';
import { OrderSnapshot } from './order.ts';
import type { OrderTerms } from './order.ts';
import type { CxlRejReason, ExecutionType, InstrumentState, OrdRejectReason, OrderState, Side, TradeState, TradeType } from './types.ts';

export class Execution extends OrderSnapshot {
  constructor(
    private readonly ids: IdGenerator,
    /** Numeric exec id: unique and increasing in emission order across the engine. */
    readonly seq: number,
    readonly type: ExecutionType,
    order: OrderTerms,
    state: OrderState,
    cumQty: number,
    leavesQty: number,
    cumNotional: number,
    /** Raw price and quantity of this fill; 0 when the execution is not a fill. */
    readonly lastPx: number,
    readonly lastQty: number,
    /** True when this order took liquidity in this fill. */
    readonly aggressor: boolean,
    /** Numeric trade id of this fill; 0 when not a fill. */
    readonly tradeSeq: number,
    /** Epoch ms. */
    readonly transactTime: number,
    readonly orderRejectReason: OrdRejectReason,
    /** Why, for rejections and unsolicited cancels/expiries; '' otherwise. */
    readonly text: string,
  ) {
    super(order, state, cumQty, leavesQty, cumNotional);
  }

  get id(): string {
    return formatId(this.ids.execPrefix, this.seq);
  }

  get tradeId(): string | undefined {
    return this.tradeSeq === 0 ? undefined : formatId(this.ids.tradePrefix, this.tradeSeq);
  }

  /** Alias of lastQty under its wire name. */
  get lastShares(): number {
    return this.lastQty;
  }

  override toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      type: this.type,
      ...super.toJSON(),
      lastPx: this.lastPx,
      lastQty: this.lastQty,
      aggressor: this.aggressor,
      tradeId: this.tradeId,
      transactTime: this.transactTime,
      orderRejectReason: this.orderRejectReason,
      text: this.text,
    };
  }
}

export class Trade {
  readonly state: TradeState = 'TRADE_STATE_NEW';

  constructor(
    private readonly ids: IdGenerator,
    readonly seq: number,
    readonly type: TradeType,
    readonly symbol: string,
    readonly price: number,
    readonly qty: number,
    readonly aggressor: Execution,
    readonly passive: Execution,
    readonly time: number,
  ) {}

  get id(): string {
    return formatId(this.ids.tradePrefix, this.seq);
  }

  /** Side of the aggressor (who took liquidity). */
  get aggressorSide(): Side {
    return this.aggressor.order.side;
  }

  get buyer(): Execution {
    return this.aggressor.order.side === 'SIDE_BUY' ? this.aggressor : this.passive;
  }

  get seller(): Execution {
    return this.aggressor.order.side === 'SIDE_BUY' ? this.passive : this.aggressor;
  }

  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      type: this.type,
      state: this.state,
      symbol: this.symbol,
      price: this.price,
      qty: this.qty,
      time: this.time,
      aggressor: this.aggressor.toJSON(),
      passive: this.passive.toJSON(),
    };
  }
}

/** A refused cancel or cancel-replace. The order (if any) is unchanged. */
export interface CancelReject {
  readonly orderId: string | undefined;
  readonly clordId: string | undefined;
  readonly account: string | undefined;
  readonly symbol: string | undefined;
  readonly isReplace: boolean;
  readonly reason: CxlRejReason;
  readonly text: string;
  readonly transactTime: number;
}

export type InstrumentEvent =
  | {
      readonly kind: 'STATE';
      readonly symbol: string;
      readonly state: InstrumentState;
      readonly previousState: InstrumentState;
      readonly time: number;
    }
  | {
      /** Settlement price is raw: 0 or the instrument's price_scale. */
      readonly kind: 'SETTLEMENT';
      readonly symbol: string;
      readonly price: number;
      readonly time: number;
    };

const NO_EXECUTIONS: readonly Execution[] = Object.freeze([]);
const NO_TRADES: readonly Trade[] = Object.freeze([]);
const NO_REJECTS: readonly CancelReject[] = Object.freeze([]);
const NO_EVENTS: readonly InstrumentEvent[] = Object.freeze([]);

/**
 * Everything one engine call produced, in emission order within each list. Lists are created on first use
 * as one-element array literals (exact capacity), which keeps the common one-execution result small.
 */
export class EngineResult {
  private execList: Execution[] | null = null;
  private tradeList: Trade[] | null = null;
  private rejectList: CancelReject[] | null = null;
  private eventList: InstrumentEvent[] | null = null;

  get executions(): readonly Execution[] {
    return this.execList ?? NO_EXECUTIONS;
  }

  get trades(): readonly Trade[] {
    return this.tradeList ?? NO_TRADES;
  }

  get cancelRejects(): readonly CancelReject[] {
    return this.rejectList ?? NO_REJECTS;
  }

  get instrumentEvents(): readonly InstrumentEvent[] {
    return this.eventList ?? NO_EVENTS;
  }

  addExecution(execution: Execution): void {
    if (this.execList === null) this.execList = [execution];
    else this.execList.push(execution);
  }

  addTrade(trade: Trade): void {
    if (this.tradeList === null) this.tradeList = [trade];
    else this.tradeList.push(trade);
  }

  addCancelReject(reject: CancelReject): void {
    (this.rejectList ??= []).push(reject);
  }

  addInstrumentEvent(event: InstrumentEvent): void {
    (this.eventList ??= []).push(event);
  }
}
