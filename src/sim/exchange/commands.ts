/**
 * Translates validated domain requests (Decimal prices, from either REST family or gRPC) into matching
 * engine commands (raw scaled integers), and engine outcomes back into the simulator's answers. Argument
 * problems (unknown symbol, a price off the instrument's scale, a missing side) become INVALID_ARGUMENT;
 * the shared translation keeps all three doors of the exchange consistent.
 */
import { randomUUID } from 'node:crypto';
import type { Decimal } from '../../domain/decimal.ts';
import { decimalToRawInt, type InstrumentScales } from '../../domain/scales.ts';
import type { OrderRequest as DomainOrderRequest, ReplaceOrderRequest, CrossOrderRequest } from '../../domain/types/requests.ts';
import type { CrossRequest, OrderRequest, ReplaceRequest } from '../matching/types.ts';
import type { EngineResult } from '../matching/index.ts';
import { invalidArgument, SimHttpError } from '../http/errors.ts';
import { MAX_TEXT_LENGTH } from '../../domain/limits.ts';
import type { ExchangeCore, OrderRecord } from './exchange-core.ts';
import type { OrderExtras, SnapshotLike } from './to-domain.ts';

export interface Caller {
  /** `firms/<f>/users/<u>` of the caller (gateway user or family A participant). */
  participant: string;
  /** Accounts the caller may trade. */
  accounts: readonly string[];
}

function scalesFor(core: ExchangeCore, symbol: string): InstrumentScales {
  if (symbol === '') throw invalidArgument('symbol is required');
  const instrument = core.instrument(symbol);
  if (instrument === undefined) throw invalidArgument(`unknown symbol ${symbol}`);
  return instrument.scales;
}

function toRaw(value: Decimal, scales: InstrumentScales, kind: 'price' | 'qty', field: string): number {
  try {
    return decimalToRawInt(value, scales, kind, field);
  } catch {
    throw invalidArgument(`${field}: ${value.toString()} is not representable at this instrument's ${kind} scale`);
  }
}

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * INVALID_ARGUMENT naming the field and the limit when a string field of `request` (its own fields, not nested
 * ones) is longer than MAX_TEXT_LENGTH characters: a client cannot make the exchange keep megabytes of clord_id.
 */
export function checkTextFields(request: object, path = ''): void {
  for (const [name, value] of Object.entries(request)) {
    if (typeof value === 'string' && value.length > MAX_TEXT_LENGTH)
      throw invalidArgument(`${path}${snakeCase(name)} has ${value.length} characters; the limit is ${MAX_TEXT_LENGTH} characters`);
  }
}

export function checkAccount(caller: Caller, account: string): void {
  if (account === '') throw invalidArgument('account is required (firms/<firm>/accounts/<account>)');
  if (!caller.accounts.includes(account))
    throw new SimHttpError('PERMISSION_DENIED', `account ${account} does not belong to ${caller.participant}`);
}

export function toEngineOrder(core: ExchangeCore, request: DomainOrderRequest, caller: Caller, now: number): OrderRequest {
  checkTextFields(request);
  const scales = scalesFor(core, request.symbol);
  checkAccount(caller, request.account);
  if (request.side === 'SIDE_UNDEFINED') throw invalidArgument('side is required (SIDE_BUY or SIDE_SELL)');
  if (request.orderQty.lte(0)) throw invalidArgument('order_qty must be a positive quantity');
  const type = request.type === 'ORDER_TYPE_UNDEFINED' ? 'ORDER_TYPE_LIMIT' : request.type;
  const needsPrice = type === 'ORDER_TYPE_LIMIT' || type === 'ORDER_TYPE_STOP_LIMIT';
  if (needsPrice && request.price.lte(0)) throw invalidArgument(`price is required for ${type}`);
  const extras: OrderExtras = {
    submittingParticipant: caller.participant,
    clientAccountId: request.clientAccountId,
    clientParticipantId: request.clientParticipantId,
    symbolSubType: request.symbolSubType,
    manualOrderIndicator: request.manualOrderIndicator,
    orderCapacity: request.orderCapacity,
    createTime: now,
  };
  const tif = request.timeInForce === 'TIME_IN_FORCE_UNDEFINED' ? 'TIME_IN_FORCE_DAY' : request.timeInForce;
  return {
    symbol: request.symbol,
    side: request.side,
    type,
    orderQty: toRaw(request.orderQty, scales, 'qty', 'order_qty'),
    price: needsPrice ? toRaw(request.price, scales, 'price', 'price') : undefined,
    stopPrice: request.stopPrice.gt(0) ? toRaw(request.stopPrice, scales, 'price', 'stop_price') : undefined,
    timeInForce: tif,
    goodTillTime: request.goodTillTime,
    minQty: request.minQty.gt(0) ? toRaw(request.minQty, scales, 'qty', 'min_qty') : undefined,
    allOrNone: request.allOrNone,
    participateDontInitiate: request.participateDontInitiate,
    account: request.account,
    clordId: request.clordId === '' ? randomUUID() : request.clordId,
    participant: caller.participant,
    selfMatchPreventionId: request.selfMatchPreventionId === '' ? undefined : request.selfMatchPreventionId,
    selfMatchPreventionInstruction: request.selfMatchPreventionInstruction,
    commissionBasisPoints: request.commissionOverrideBasisPoints?.toNumber(),
    tag: extras,
  };
}

export function toEngineReplace(core: ExchangeCore, request: ReplaceOrderRequest, caller: Caller): ReplaceRequest {
  checkTextFields(request);
  if (request.orderId === '') throw invalidArgument('order_id is required');
  const record = callerOrder(core, request.orderId, caller);
  if (record === undefined) throw new SimHttpError('NOT_FOUND', `unknown order ${request.orderId}`);
  const scales = scalesFor(core, record.latest.order.symbol);
  if (request.price.isNegative()) throw invalidArgument(`price must be positive, got ${request.price.toString()}`);
  if (request.orderQty.isNegative()) throw invalidArgument(`order_qty must be positive, got ${request.orderQty.toString()}`);
  if (request.stopPrice.isNegative()) throw invalidArgument(`stop_price must be positive, got ${request.stopPrice.toString()}`);
  return {
    orderId: request.orderId,
    symbol: request.symbol === '' ? undefined : request.symbol,
    newClordId: request.clordId === '' ? undefined : request.clordId,
    price: request.price.gt(0) ? toRaw(request.price, scales, 'price', 'price') : undefined,
    stopPrice: request.stopPrice.gt(0) ? toRaw(request.stopPrice, scales, 'price', 'stop_price') : undefined,
    orderQty: request.orderQty.gt(0) ? toRaw(request.orderQty, scales, 'qty', 'order_qty') : undefined,
    timeInForce: request.timeInForce === 'TIME_IN_FORCE_UNDEFINED' ? undefined : request.timeInForce,
    goodTillTime: request.goodTillTime,
  };
}

export function toEngineCross(core: ExchangeCore, request: CrossOrderRequest, caller: Caller, now: number): CrossRequest {
  checkTextFields(request);
  request.requests.forEach((leg, i) => checkTextFields(leg, `requests[${i}].`));
  if (request.crossId === '') throw invalidArgument('cross_id is required');
  if (request.crossType === 'CROSS_TYPE_UNDEFINED') {
    throw invalidArgument('cross_type must be set: send CROSS_TYPE_ALL_OR_NONE (missing or CROSS_TYPE_UNDEFINED is refused)');
  }
  if (request.requests.length !== 2) throw invalidArgument(`a cross takes exactly 2 requests, got ${request.requests.length}`);
  const [a, b] = request.requests as [DomainOrderRequest, DomainOrderRequest];
  if (a.symbol !== b.symbol) throw invalidArgument(`both legs of a cross trade one symbol, got ${a.symbol} and ${b.symbol}`);
  if (a.side === b.side) throw invalidArgument('the legs of a cross must be on opposite sides');
  if (!a.orderQty.eq(b.orderQty))
    throw invalidArgument(`the legs of a cross must have the same order_qty, got ${a.orderQty.toString()} and ${b.orderQty.toString()}`);
  if (!a.price.eq(b.price))
    throw invalidArgument(`the legs of a cross must have the same price, got ${a.price.toString()} and ${b.price.toString()}`);
  return {
    crossId: request.crossId,
    crossType: request.crossType,
    crossPrioritizedSide: request.crossPrioritizedSide === 'SIDE_UNDEFINED' ? undefined : request.crossPrioritizedSide,
    requests: request.requests.map((r) => toEngineOrder(core, r, caller, now)),
  };
}

/**
 * The caller's order `orderId`, or undefined when it is unknown OR of an account the caller does not hold:
 * every door answers both alike (the same status and text), so order ids of other firms cannot be probed.
 */
export function callerOrder(core: ExchangeCore, orderId: string, caller: Caller): OrderRecord | undefined {
  const record = core.order(orderId);
  return record !== undefined && caller.accounts.includes(record.latest.order.account) ? record : undefined;
}

/**
 * Checks of a cancel: text fields within the limit and an order id of the caller's. Answers whether the cancel
 * goes to the engine. An order id the caller does not hold (unknown, or another firm's) is answered one way
 * whatever it is: a single cancel is 404 NOT_FOUND "unknown order" (thrown), a list leaves it out (as the
 * engine's reject for an unknown order reaches nobody's stream).
 */
export function checkCancel(core: ExchangeCore, request: { readonly orderId: string }, caller: Caller, inList = false): boolean {
  checkTextFields(request);
  const orderId = request.orderId;
  if (orderId === '') throw invalidArgument('order_id is required');
  if (callerOrder(core, orderId, caller) !== undefined) return true;
  if (inList) return false;
  throw new SimHttpError('NOT_FOUND', `CXL_REJ_REASON_UNKNOWN_ORDER: unknown order ${orderId}`);
}

/** Reject reasons that mean the request itself was wrong (answered 400), not a market condition. */
const ARGUMENT_REJECTS = new Set([
  'ORD_REJECT_REASON_UNKNOWN_SYMBOL',
  'ORD_REJECT_REASON_INCORRECT_QUANTITY',
  'ORD_REJECT_REASON_INVALID_PRICE_INCREMENT',
  'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE',
  'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS',
]);

export interface InsertOutcome {
  orderId: string;
  status: 'ACCEPTED' | 'REJECTED';
  text: string;
  /** True when this (account, clord_id) was inserted before: the earlier order is the answer, nothing new. */
  duplicate: boolean;
}

/** Throws INVALID_ARGUMENT when the engine would refuse the order for a problem in the request itself. */
export function precheck(core: ExchangeCore, request: OrderRequest): void {
  const problem = core.engine.check(request);
  if (problem !== null && ARGUMENT_REJECTS.has(problem.reason)) throw invalidArgument(`${problem.reason}: ${problem.text}`);
}

/**
 * Inserts one order the way every door of the exchange does: a retry of an earlier insert (same account
 * and clord_id) returns the earlier order, with its acceptance or rejection, instead of creating a second one; an order malformed for this
 * instrument is INVALID_ARGUMENT and leaves no trace; market conditions (e.g. a closed instrument) give a
 * REJECTED order, reported on the order stream.
 */
export function insertOrder(core: ExchangeCore, request: OrderRequest): InsertOutcome {
  const earlier = request.clordId === undefined ? undefined : core.orderIdFor(request.account, request.clordId);
  if (earlier !== undefined) return duplicateOutcome(earlier, core.order(earlier)?.latest.state);
  precheck(core, request);
  return { ...insertOutcome(core.submit(request)), duplicate: false };
}

/**
 * The answer to a repeated insert (a client retrying after a lost reply): the earlier order's, REJECTED when
 * it was rejected (a retry must not turn a refusal into an acceptance), else ACCEPTED: it stands (or stood).
 */
function duplicateOutcome(orderId: string, state: string | undefined): InsertOutcome {
  if (state === 'ORDER_STATE_REJECTED')
    return { orderId, status: 'REJECTED', text: 'duplicate clord_id: the earlier order was rejected', duplicate: true };
  return { orderId, status: 'ACCEPTED', text: 'duplicate clord_id: the earlier order stands', duplicate: true };
}

/**
 * What an insert of this order would give now, without changing anything: the same checks as
 * `insertOrder` (an order malformed for the instrument is INVALID_ARGUMENT), and a market condition that
 * would reject the insert (a halted instrument, post-only flags that contradict...) shows as a REJECTED
 * order; otherwise the order as it would stand on entry, before matching.
 */
export function previewOrder(core: ExchangeCore, request: OrderRequest, now: number): SnapshotLike {
  precheck(core, request);
  const rejected = core.engine.check(request) !== null;
  return {
    order: { ...request, orderId: '', timeInForce: request.timeInForce ?? 'TIME_IN_FORCE_DAY', insertTime: now },
    state: rejected ? 'ORDER_STATE_REJECTED' : 'ORDER_STATE_NEW',
    cumQty: 0,
    leavesQty: rejected ? 0 : request.orderQty,
    avgPx: '0',
  };
}

/** A list insert: every order is checked before any is sent, so a malformed list changes nothing. */
export function insertOrders(core: ExchangeCore, requests: readonly OrderRequest[]): InsertOutcome[] {
  for (const request of requests) {
    const earlier = request.clordId === undefined ? undefined : core.orderIdFor(request.account, request.clordId);
    if (earlier === undefined) precheck(core, request);
  }
  return requests.map((request) => insertOrder(core, request));
}

/** Cross refusals that are market conditions (answered 200, the legs REJECTED on the order stream). */
const CROSS_MARKET_REJECTS = new Set(['ORD_REJECT_REASON_EXCHANGE_CLOSED', 'ORD_REJECT_REASON_NO_LIQUIDITY']);

export interface CrossOutcome {
  /** The legs' order ids, in request order. */
  orderIds: readonly string[];
  /** True when this cross was sent before: the earlier legs are the answer, nothing new happened. */
  duplicate: boolean;
}

/** The legs of an earlier cross this request repeats (same account and cross_id, or the same leg clord_ids). */
function earlierCross(core: ExchangeCore, cross: CrossRequest): readonly string[] | undefined {
  for (const leg of cross.requests) {
    const ids = core.crossOrderIds(leg.account, cross.crossId);
    if (ids !== undefined) return ids;
  }
  const earlier = cross.requests.map((leg) => (leg.clordId === undefined ? undefined : core.orderIdFor(leg.account, leg.clordId)));
  const known = earlier.filter((id): id is string => id !== undefined);
  if (known.length === 0) return undefined;
  if (known.length === cross.requests.length && new Set(known).size === known.length) return known;
  const index = earlier.findIndex((id) => id !== undefined);
  const leg = cross.requests[index] as OrderRequest;
  throw invalidArgument(
    `requests[${index}].clord_id ${String(leg.clordId)} was already used by order ${String(earlier[index])} of ${leg.account}; ` +
      'send the cross with new clord_ids (or repeat the whole earlier cross)',
  );
}

/**
 * A two-sided cross the way every door of the exchange takes it: a repeat of an earlier cross (same
 * account and cross_id, or the same leg clord_ids) returns the earlier legs and executes nothing, so a
 * client may retry a cross safely; a cross the engine would refuse for a problem in the request itself
 * (trade-through, self-match, a leg off the tick or the limits...) is INVALID_ARGUMENT and leaves no trace
 * (checked by a dry run first); a market condition (instrument not OPEN, an all-or-none cross that cannot
 * fill) gives both legs REJECTED on the order stream and a 200 answer, as insert_order does.
 */
export function insertCross(core: ExchangeCore, cross: CrossRequest): CrossOutcome {
  const earlier = earlierCross(core, cross);
  if (earlier !== undefined) return { orderIds: earlier, duplicate: true };
  core.expire(); // good-till-time orders already due must not decide the dry run
  const problem = core.engine.checkCross(cross);
  if (problem !== null && !CROSS_MARKET_REJECTS.has(problem.reason)) {
    const where = problem.leg === -1 ? '' : `requests[${problem.leg}]: `;
    throw invalidArgument(`${where}${problem.reason}: ${problem.text}`);
  }
  const result = core.cross(cross);
  const ids: string[] = [];
  for (const execution of result.executions) {
    if (execution.order.crossId === cross.crossId && !ids.includes(execution.order.orderId)) ids.push(execution.order.orderId);
  }
  return { orderIds: ids, duplicate: false };
}

/** Outcome of a single insert: the order id and status, or an INVALID_ARGUMENT for a malformed order. */
export function insertOutcome(result: EngineResult): { orderId: string; status: 'ACCEPTED' | 'REJECTED'; text: string } {
  const first = result.executions[0];
  if (first === undefined) throw new SimHttpError('INTERNAL', 'the engine produced no execution for the order');
  if (first.type === 'EXECUTION_TYPE_REJECTED') {
    if (ARGUMENT_REJECTS.has(first.orderRejectReason)) throw invalidArgument(`${first.orderRejectReason}: ${first.text}`);
    return { orderId: first.order.orderId, status: 'REJECTED', text: first.text };
  }
  return { orderId: first.order.orderId, status: 'ACCEPTED', text: '' };
}
