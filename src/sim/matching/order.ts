/**
 * Orders. `OrderTerms` is the immutable description of an order (what was asked: ids, account, side,
 * type, tif, prices, quantity, flags); a new terms object replaces it whenever the terms change (replace,
 * market-to-limit pricing, stop trigger), so every execution can share the terms it was emitted under.
 * `Order` is the engine's mutable working record and doubles as the node of its price level's intrusive
 * FIFO list. `OrderSnapshot` is the copy handed to consumers (terms + fill state at one instant).
 */
import { formatAvgPx } from './avg-px.ts';
import { formatId } from './ids.ts';
import type { OrderBook } from './order-book.ts';
import type { PriceLevel } from './price-level.ts';
import type { OrderRequest, OrderState, OrderType, SelfMatchPrevention, Side, TimeInForce } from './types.ts';

/** The immutable terms of an order. Absent optional values are undefined. */
export class OrderTerms {
  private idCache: string | undefined = undefined;

  constructor(
    /** Numeric order id (the string form is `orderId`). */
    readonly orderSeq: number,
    private readonly idPrefix: string,
    readonly symbol: string,
    readonly side: Side,
    readonly type: OrderType,
    /** Normalized: never UNDEFINED (absent means DAY). */
    readonly timeInForce: TimeInForce,
    /** Raw limit price; for a MARKET_TO_LIMIT or triggered STOP, the price it was given on entry. */
    readonly price: number | undefined,
    readonly stopPrice: number | undefined,
    readonly orderQty: number,
    readonly minQty: number | undefined,
    readonly allOrNone: boolean,
    readonly participateDontInitiate: boolean,
    readonly goodTillTime: number | undefined,
    readonly account: string,
    readonly clordId: string | undefined,
    readonly origClordId: string | undefined,
    readonly participant: string | undefined,
    readonly selfMatchPreventionId: string | undefined,
    readonly selfMatchPreventionInstruction: SelfMatchPrevention | undefined,
    readonly commissionBasisPoints: number | undefined,
    readonly makerCommissionBasisPoints: number | undefined,
    readonly tag: unknown,
    readonly crossId: string | undefined,
    /** True once a STOP / STOP_LIMIT order has been triggered and sent to the book. */
    readonly triggered: boolean,
    /** Epoch ms at which the engine accepted the order. */
    readonly insertTime: number,
  ) {}

  /** Exchange-assigned order id (stable across replaces). */
  get orderId(): string {
    return (this.idCache ??= formatId(this.idPrefix, this.orderSeq));
  }

  /** Plain form for logs and JSON: the id as a string, no internals. */
  toJSON(): Record<string, unknown> {
    const { idCache: _cache, idPrefix: _prefix, ...fields } = this;
    return { orderId: this.orderId, ...fields };
  }

  static fromRequest(
    seq: number,
    idPrefix: string,
    req: OrderRequest,
    tif: TimeInForce,
    now: number,
    crossId: string | undefined,
  ): OrderTerms {
    return new OrderTerms(
      seq,
      idPrefix,
      req.symbol,
      req.side,
      req.type,
      tif,
      req.price,
      req.stopPrice,
      req.orderQty,
      req.minQty,
      req.allOrNone === true,
      req.participateDontInitiate === true,
      req.goodTillTime,
      req.account,
      req.clordId,
      undefined,
      req.participant,
      req.selfMatchPreventionId,
      req.selfMatchPreventionInstruction,
      req.commissionBasisPoints,
      req.makerCommissionBasisPoints,
      req.tag,
      crossId,
      false,
      now,
    );
  }

  /** A copy with some terms changed (replace, pricing on entry, trigger). */
  derive(changes: TermChanges): OrderTerms {
    const clordChanged = changes.clordId !== undefined;
    const derived = new OrderTerms(
      this.orderSeq,
      this.idPrefix,
      this.symbol,
      this.side,
      this.type,
      changes.timeInForce ?? this.timeInForce,
      'price' in changes ? changes.price : this.price,
      'stopPrice' in changes ? changes.stopPrice : this.stopPrice,
      changes.orderQty ?? this.orderQty,
      this.minQty,
      this.allOrNone,
      this.participateDontInitiate,
      'goodTillTime' in changes ? changes.goodTillTime : this.goodTillTime,
      this.account,
      clordChanged ? changes.clordId : this.clordId,
      clordChanged ? this.clordId : this.origClordId,
      this.participant,
      this.selfMatchPreventionId,
      this.selfMatchPreventionInstruction,
      this.commissionBasisPoints,
      this.makerCommissionBasisPoints,
      this.tag,
      this.crossId,
      changes.triggered ?? this.triggered,
      this.insertTime,
    );
    // same order, same id: the string formatted once serves every version of the terms
    derived.idCache = this.idCache;
    return derived;
  }
}

export interface TermChanges {
  price?: number | undefined;
  stopPrice?: number | undefined;
  orderQty?: number;
  timeInForce?: TimeInForce;
  goodTillTime?: number | undefined;
  clordId?: string;
  triggered?: boolean;
}

/** An order's terms and fill state at one instant. Quantities raw; `cumNotional` = sum of px x qty. */
export class OrderSnapshot {
  constructor(
    readonly order: OrderTerms,
    readonly state: OrderState,
    readonly cumQty: number,
    readonly leavesQty: number,
    readonly cumNotional: number,
  ) {}

  /** Volume-weighted fill price in raw price units, exact to AVG_PX_DECIMALS decimals; "0" before any fill. */
  get avgPx(): string {
    return formatAvgPx(this.cumNotional, this.cumQty);
  }

  get orderId(): string {
    return this.order.orderId;
  }

  /** Plain form for logs and JSON (ids and avg_px as strings). */
  toJSON(): Record<string, unknown> {
    return {
      order: this.order.toJSON(),
      state: this.state,
      cumQty: this.cumQty,
      leavesQty: this.leavesQty,
      cumNotional: this.cumNotional,
      avgPx: this.avgPx,
    };
  }
}

/** The engine's working record of a live order; also the node of its level's FIFO list. */
export class Order {
  /** Current working limit price (raw); 0 while a market-to-limit or stop order has none yet. */
  price: number;
  cumQty = 0;
  leavesQty: number;
  cumNotional = 0;
  state: OrderState = 'ORDER_STATE_NEW';
  /** Time priority stamp (smaller = earlier); renewed when a replace loses priority. */
  priority = 0;
  prev: Order | null = null;
  next: Order | null = null;
  level: PriceLevel | null = null;
  /** Next working order with the same clord_id (another account); see EngineState's clord index. */
  sameClord: Order | undefined = undefined;
  /** Where the order currently lives. */
  onStopBook = false;
  /** In the engine's registry of working orders (see EngineState.register). */
  registered = false;
  readonly isBuy: boolean;

  constructor(
    public terms: OrderTerms,
    readonly seq: number,
    /** The book of the order's instrument. */
    readonly book: OrderBook,
  ) {
    this.isBuy = terms.side === 'SIDE_BUY';
    this.price = terms.price ?? 0;
    this.leavesQty = terms.orderQty;
  }

  get orderQty(): number {
    return this.terms.orderQty;
  }

  isLive(): boolean {
    return this.state === 'ORDER_STATE_NEW' || this.state === 'ORDER_STATE_PARTIALLY_FILLED';
  }

  snapshot(): OrderSnapshot {
    return new OrderSnapshot(this.terms, this.state, this.cumQty, this.leavesQty, this.cumNotional);
  }
}
