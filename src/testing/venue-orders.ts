/**
 * The scripted venue's own orders (the exchange's side of the story): their terms, what filled at which price,
 * and their state, plus the order-stream events that report them to the engine (executions with the domain
 * Order after each change, cancel rejects). Order ids are `V1`, `V2`, ... and execution ids `E1`, `E2`, ... in
 * the order the venue creates them, so a scripted run is the same every time.
 */
import { Decimal, ZERO } from '../domain/decimal.ts';
import type { CxlRejReason, ExecutionType, Order, OrderState, PriceQty } from '../domain/index.ts';
import type { CancelRejectEvent, ExecutionEvent } from '../domain/stream-events.ts';
import type { IntentSide } from '../engine/intents.ts';
import type { VenueOrderRequest } from '../engine/venue.ts';
import { WIRE_ORDER_TYPE, WIRE_SIDE, WIRE_TIME_IN_FORCE, type WireTimeInForce } from '../bot/venues/order-input.ts';

/** The session id every scripted order-stream event carries. */
export const SCRIPTED_SESSION = 'scripted';

/** Where an order stands at the venue (`held`: received, its insert call not answered yet). */
export type ScriptedOrderStatus = 'held' | 'open' | 'filled' | 'canceled' | 'rejected';

/** A read-only view of an order as the scripted venue holds it (its current terms and fills). */
export interface ScriptedOrderView {
  /** The venue's order id (`V1`, `V2`, ...), stable across replaces. */
  readonly orderId: string;
  /** The client order id it carries now (a replace gives it a new one). */
  readonly clordId: string;
  /** Every client order id it has carried, oldest first. */
  readonly clordIds: readonly string[];
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  /** Limit price; undefined for a market-to-limit order. */
  readonly price: Decimal | undefined;
  readonly qty: Decimal;
  readonly filledQty: Decimal;
  readonly leavesQty: Decimal;
  readonly timeInForce: WireTimeInForce;
  readonly postOnly: boolean;
  readonly status: ScriptedOrderStatus;
  /** The cross it belongs to ('' for an ordinary order). */
  readonly crossId: string;
}

/** One order at the venue; mutated only by the venue. */
export class VenueOrder implements ScriptedOrderView {
  readonly clordIds: string[];
  filledQty: Decimal = ZERO;
  status: ScriptedOrderStatus = 'open';
  /** Filled quantity per price (the order's `priceToQuantityFilled`). */
  private readonly levels = new Map<string, PriceQty>();
  private notional: Decimal = ZERO;

  constructor(
    readonly orderId: string,
    private readonly request: VenueOrderRequest,
    readonly insertTime: number,
    readonly crossId = '',
    public price: Decimal | undefined = request.price,
    public qty: Decimal = request.qty,
  ) {
    this.clordIds = [request.clordId];
  }

  get clordId(): string {
    return this.clordIds[this.clordIds.length - 1] ?? this.request.clordId;
  }
  get account(): string {
    return this.request.account;
  }
  get symbol(): string {
    return this.request.symbol;
  }
  get side(): IntentSide {
    return this.request.side;
  }
  get timeInForce(): WireTimeInForce {
    return WIRE_TIME_IN_FORCE[this.request.timeInForce];
  }
  get postOnly(): boolean {
    return this.request.postOnly;
  }
  get leavesQty(): Decimal {
    return this.status === 'open' || this.status === 'held' ? Decimal.max(ZERO, this.qty.minus(this.filledQty)) : ZERO;
  }

  /** Adds a fill of `qty` at `price` (the caller checked it fits) and finishes the order when nothing is left. */
  fill(qty: Decimal, price: Decimal): void {
    const key = price.toFixed();
    const level = this.levels.get(key);
    this.levels.set(key, { px: price, qty: (level?.qty ?? ZERO).plus(qty) });
    this.filledQty = this.filledQty.plus(qty);
    this.notional = this.notional.plus(qty.times(price));
    if (this.filledQty.gte(this.qty)) this.status = 'filled';
  }

  /** The order as the exchange reports it after its latest change. */
  toDomain(time: number): Order {
    const state = this.orderState();
    const avgPx = this.filledQty.isZero() ? ZERO : this.notional.div(this.filledQty);
    return {
      id: this.orderId,
      clordId: this.clordId,
      crossId: this.crossId,
      hostCrossId: '',
      parentOrderId: '',
      lastTradeId: '',
      account: this.account,
      clientAccountId: '',
      clientParticipantId: '',
      participant: '',
      submittingParticipant: '',
      symbol: this.symbol,
      symbolSubType: '',
      collateralMemo: '',
      side: WIRE_SIDE[this.request.side],
      type: WIRE_ORDER_TYPE[this.request.type],
      timeInForce: this.timeInForce,
      state,
      triggerMethod: 'CONDITION_TRIGGER_METHOD_UNDEFINED',
      manualOrderIndicator: 'MANUAL_ORDER_INDICATOR_UNDEFINED',
      orderCapacity: 'ORDER_CAPACITY_UNDEFINED',
      selfMatchPreventionInstruction: this.request.selfMatchPreventionInstruction ?? 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
      orderQty: this.qty,
      cashOrderQty: ZERO,
      minQty: ZERO,
      cumQty: this.filledQty,
      leavesQty: this.leavesQty,
      price: this.price ?? ZERO,
      stopPrice: ZERO,
      avgPx,
      priorityWeight: '',
      commissionsBasisPoints: ZERO,
      makerCommissionsBasisPoints: ZERO,
      commissionNotionalTotalCollected: ZERO,
      priceToQuantityFilled: [...this.levels.values()].sort((a, b) => a.px.comparedTo(b.px)),
      allOrNone: false,
      bestLimit: false,
      blockTradeIndicator: false,
      ignorePriceValidityChecks: false,
      immediatelyExecutableLimit: false,
      participateDontInitiate: this.postOnly,
      strictLimit: false,
      createTime: this.insertTime,
      insertTime: this.insertTime,
      goodTillTime: undefined,
      lastTransactTime: time,
      riskCheckTime: undefined,
      transactionBookedTime: undefined,
      context: undefined,
    };
  }

  private orderState(): OrderState {
    switch (this.status) {
      case 'filled':
        return 'ORDER_STATE_FILLED';
      case 'canceled':
        return 'ORDER_STATE_CANCELED';
      case 'rejected':
        return 'ORDER_STATE_REJECTED';
      default:
        return this.filledQty.isZero() ? 'ORDER_STATE_NEW' : 'ORDER_STATE_PARTIALLY_FILLED';
    }
  }
}

/** Builds the order stream's events with sequential execution ids. */
export class ReportFactory {
  private executions = 0;

  /** An execution of `type` reporting `order` as it is now (`last`: the fill it reports, if any). */
  execution(
    order: VenueOrder,
    type: ExecutionType,
    time: number,
    options: { last?: PriceQty; aggressor?: boolean; text?: string } = {},
  ): ExecutionEvent {
    this.executions += 1;
    return {
      type: 'execution',
      sessionId: SCRIPTED_SESSION,
      execution: {
        id: `E${this.executions}`,
        tradeId: options.last === undefined ? '' : `T${this.executions}`,
        traceId: '',
        text: options.text ?? '',
        order: order.toDomain(time),
        lastPx: options.last?.px ?? ZERO,
        lastShares: options.last?.qty ?? ZERO,
        commissionNotionalCollected: ZERO,
        commissionSpreadPx: ZERO,
        aggressor: options.aggressor ?? false,
        type,
        orderRejectReason: 'ORD_REJECT_REASON_EXCHANGE_OPTION',
        unsolicitedCancelReason: 'UNSOLICITED_CXL_REASON_UNDEFINED',
        transactTime: time,
        transactTradeDate: undefined,
        legPrices: [],
      },
    };
  }

  /** A cancel (or replace, `isReplace`) the venue refuses for `order`. */
  cancelReject(clordId: string, orderId: string, reason: CxlRejReason, text: string, isReplace: boolean, time: number): CancelRejectEvent {
    return {
      type: 'cancelReject',
      sessionId: SCRIPTED_SESSION,
      cancelReject: { clordId, orderId, text, isReplace, rejectReason: reason, transactTime: time },
    };
  }
}
