/**
 * Builders for the OrderTracker suites: exchange orders and executions with sensible defaults, venue
 * insert requests, a tracker on a virtual clock, and a recorder of everything it emits.
 */
import { expect } from 'vitest';
import { Decimal, ZERO } from '../../../src/domain/decimal.ts';
import type { CancelReject, Execution, Order, PriceQty } from '../../../src/domain/index.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import type { Fill, OrderUpdate, TrackerIssue } from '../../../src/engine/orders/index.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import type { VenueOrderRequest } from '../../../src/engine/venue.ts';

export const d = (text: string | number): Decimal => new Decimal(text);

/** Decimals compare by value (decimal.js instances carry internal fields). */
export function installDecimalEquality(): void {
  expect.addEqualityTesters([(a: unknown, b: unknown) => (Decimal.isDecimal(a) && Decimal.isDecimal(b) ? a.eq(b) : undefined)]);
}

export const ACCOUNT = 'firms/f1/accounts/a1';
export const SYMBOL = 'EVT-A';
export const T0 = 1_700_000_000_000;

export function request(overrides: Partial<VenueOrderRequest> = {}): VenueOrderRequest {
  return {
    clordId: 'c1',
    account: ACCOUNT,
    symbol: SYMBOL,
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GOOD_TILL_CANCEL',
    qty: d(10),
    price: d('0.50'),
    postOnly: false,
    selfMatchPreventionInstruction: undefined,
    ...overrides,
  };
}

export function order(overrides: Partial<Order> = {}): Order {
  return {
    id: 'O1',
    clordId: 'c1',
    crossId: '',
    hostCrossId: '',
    parentOrderId: '',
    lastTradeId: '',
    account: ACCOUNT,
    clientAccountId: '',
    clientParticipantId: '',
    participant: '',
    submittingParticipant: '',
    symbol: SYMBOL,
    symbolSubType: '',
    collateralMemo: '',
    side: 'SIDE_BUY',
    type: 'ORDER_TYPE_LIMIT',
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    state: 'ORDER_STATE_NEW',
    triggerMethod: 'CONDITION_TRIGGER_METHOD_UNDEFINED',
    manualOrderIndicator: 'MANUAL_ORDER_INDICATOR_UNDEFINED',
    orderCapacity: 'ORDER_CAPACITY_UNDEFINED',
    selfMatchPreventionInstruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
    orderQty: d(10),
    cashOrderQty: ZERO,
    minQty: ZERO,
    cumQty: ZERO,
    leavesQty: d(10),
    price: d('0.50'),
    stopPrice: ZERO,
    avgPx: ZERO,
    priorityWeight: '',
    commissionsBasisPoints: ZERO,
    makerCommissionsBasisPoints: ZERO,
    commissionNotionalTotalCollected: ZERO,
    priceToQuantityFilled: [],
    allOrNone: false,
    bestLimit: false,
    blockTradeIndicator: false,
    ignorePriceValidityChecks: false,
    immediatelyExecutableLimit: false,
    participateDontInitiate: false,
    strictLimit: false,
    createTime: undefined,
    insertTime: undefined,
    goodTillTime: undefined,
    lastTransactTime: undefined,
    riskCheckTime: undefined,
    transactionBookedTime: undefined,
    context: undefined,
    ...overrides,
  };
}

export function execution(id: string, overrides: Partial<Execution> = {}, orderOverrides: Partial<Order> = {}): Execution {
  return {
    id,
    tradeId: '',
    traceId: '',
    text: '',
    order: order(orderOverrides),
    lastPx: ZERO,
    lastShares: ZERO,
    commissionNotionalCollected: ZERO,
    commissionSpreadPx: ZERO,
    aggressor: false,
    type: 'EXECUTION_TYPE_NEW',
    orderRejectReason: 'ORD_REJECT_REASON_EXCHANGE_OPTION',
    unsolicitedCancelReason: 'UNSOLICITED_CXL_REASON_UNDEFINED',
    transactTime: undefined,
    transactTradeDate: undefined,
    legPrices: [],
    ...overrides,
  };
}

/** A fill execution of order O1/c1 (qty 10 buy @ 0.50 unless overridden) bringing cum to `cum`. */
export function fillExec(
  id: string,
  fill: { cum: string | number; lastPx: string; lastShares: string | number; avgPx: string; levels?: readonly PriceQty[] },
  orderOverrides: Partial<Order> = {},
  execOverrides: Partial<Execution> = {},
): Execution {
  const qty = orderOverrides.orderQty ?? d(10);
  const cum = d(fill.cum);
  const full = cum.eq(qty);
  return execution(
    id,
    {
      type: full ? 'EXECUTION_TYPE_FILL' : 'EXECUTION_TYPE_PARTIAL_FILL',
      lastPx: d(fill.lastPx),
      lastShares: d(fill.lastShares),
      ...execOverrides,
    },
    {
      state: full ? 'ORDER_STATE_FILLED' : 'ORDER_STATE_PARTIALLY_FILLED',
      cumQty: cum,
      leavesQty: qty.minus(cum),
      avgPx: d(fill.avgPx),
      priceToQuantityFilled: fill.levels ?? [],
      ...orderOverrides,
    },
  );
}

export function cancelReject(overrides: Partial<CancelReject> = {}): CancelReject {
  return {
    clordId: 'c1',
    orderId: 'O1',
    text: 'rejected',
    isReplace: false,
    rejectReason: 'CXL_REJ_REASON_OTHER',
    transactTime: undefined,
    ...overrides,
  };
}

export interface Recorded {
  readonly tracker: OrderTracker;
  readonly clock: VirtualClock;
  readonly updates: OrderUpdate[];
  readonly fills: Fill[];
  readonly issues: TrackerIssue[];
}

export function recordedTracker(): Recorded {
  const clock = new VirtualClock(T0);
  const tracker = new OrderTracker({ clock });
  const rec: Recorded = { tracker, clock, updates: [], fills: [], issues: [] };
  tracker.updates$.subscribe((u) => rec.updates.push(u));
  tracker.fills$.subscribe((f) => rec.fills.push(f));
  tracker.issues$.subscribe((i) => rec.issues.push(i));
  return rec;
}

/** A tracker with order c1 submitted and acknowledged as O1. */
export function ackedTracker(overrides: Partial<VenueOrderRequest> = {}): Recorded {
  const rec = recordedTracker();
  rec.tracker.submitted(request(overrides), { intentId: 'i1', label: 'quote' });
  rec.tracker.acknowledged(overrides.clordId ?? 'c1', 'O1');
  return rec;
}
