/**
 * Validation of new orders (and of the values of a cancel-replace) against the instrument. A failure is a
 * `Rejection` (reason + text) that the engine turns into a REJECTED execution; nothing here throws.
 * Rules:
 *  - unknown symbol: UNKNOWN_SYMBOL; instrument not accepting orders (CLOSED, HALTED, SUSPENDED, EXPIRED,
 *    TERMINATED, PENDING): EXCHANGE_CLOSED;
 *  - type other than LIMIT / MARKET_TO_LIMIT / STOP / STOP_LIMIT, a missing price on LIMIT / STOP_LIMIT, a
 *    price on MARKET_TO_LIMIT / STOP, a missing stop price on STOP / STOP_LIMIT or one on another type:
 *    INCORRECT_ORDER_TYPE;
 *  - quantity (and min_qty) not a safe positive integer multiple of the lot, above maxOrderQty, or min_qty
 *    above the quantity: INCORRECT_QUANTITY;
 *  - price / stop price not an integer multiple of the tick: INVALID_PRICE_INCREMENT; outside the
 *    instrument's [low, high] limits: PRICE_OUT_OF_BOUNDS;
 *  - while PREOPEN / MATCH_AND_CLOSE_AUCTION, orders that need immediate execution (MARKET_TO_LIMIT, IOC,
 *    FOK, min_qty, all_or_none) are refused with EXCHANGE_CLOSED;
 *  - everything else (side, account, time in force, good_till_time, contradictory flags, unknown
 *    self-match instruction): EXCHANGE_OPTION with a text that names the field.
 */
import type { OrderBook, Instrument } from './order-book.ts';
import type { OrdRejectReason, OrderRequest, TimeInForce } from './types.ts';

export interface Rejection {
  readonly reason: OrdRejectReason;
  readonly text: string;
}

function reject(reason: OrdRejectReason, text: string): Rejection {
  return { reason, text };
}

/** The request's time in force with UNDEFINED / absent mapped to DAY; undefined when not a known value. */
export function normalizeTif(tif: TimeInForce | undefined): TimeInForce | undefined {
  switch (tif) {
    case undefined:
    case 'TIME_IN_FORCE_UNDEFINED':
    case 'TIME_IN_FORCE_DAY':
      return 'TIME_IN_FORCE_DAY';
    case 'TIME_IN_FORCE_GOOD_TILL_CANCEL':
    case 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL':
    case 'TIME_IN_FORCE_GOOD_TILL_TIME':
    case 'TIME_IN_FORCE_FILL_OR_KILL':
      return tif;
    default:
      return undefined;
  }
}

export function isImmediate(tif: TimeInForce): boolean {
  return tif === 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' || tif === 'TIME_IN_FORCE_FILL_OR_KILL';
}

/** Order quantity rule (also used for min_qty and replaces). */
export function checkQty(qty: unknown, inst: Instrument, what: string): Rejection | null {
  if (typeof qty !== 'number' || !Number.isSafeInteger(qty) || qty <= 0) {
    return reject('ORD_REJECT_REASON_INCORRECT_QUANTITY', `${what} must be a positive integer, got ${String(qty)}`);
  }
  if (qty % inst.lotSize !== 0) {
    return reject('ORD_REJECT_REASON_INCORRECT_QUANTITY', `${what} ${qty} is not a multiple of the lot size ${inst.lotSize}`);
  }
  if (qty > inst.maxOrderQty) {
    return reject('ORD_REJECT_REASON_INCORRECT_QUANTITY', `${what} ${qty} is above the maximum ${inst.maxOrderQty}`);
  }
  return null;
}

/** Price rule for limit and stop prices (also used for replaces and crosses). */
export function checkPrice(price: unknown, inst: Instrument, what: string): Rejection | null {
  if (typeof price !== 'number' || !Number.isSafeInteger(price)) {
    return reject('ORD_REJECT_REASON_INVALID_PRICE_INCREMENT', `${what} must be an integer raw price, got ${String(price)}`);
  }
  if (price % inst.tickSize !== 0) {
    return reject('ORD_REJECT_REASON_INVALID_PRICE_INCREMENT', `${what} ${price} is not a multiple of the tick size ${inst.tickSize}`);
  }
  if (price < inst.priceLimitLow || price > inst.priceLimitHigh) {
    return reject(
      'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS',
      `${what} ${price} is outside the price limits [${inst.priceLimitLow}, ${inst.priceLimitHigh}]`,
    );
  }
  return null;
}

/** good_till_time rule: required in the future with GOOD_TILL_TIME, refused otherwise. */
export function checkGoodTillTime(tif: TimeInForce, gtt: number | undefined, now: number): Rejection | null {
  if (tif === 'TIME_IN_FORCE_GOOD_TILL_TIME') {
    if (gtt === undefined || !Number.isSafeInteger(gtt) || gtt <= now) {
      return reject('ORD_REJECT_REASON_EXCHANGE_OPTION', `good_till_time must be an epoch-ms time after now (${now}), got ${String(gtt)}`);
    }
  } else if (gtt !== undefined) {
    return reject('ORD_REJECT_REASON_EXCHANGE_OPTION', 'good_till_time is only allowed with TIME_IN_FORCE_GOOD_TILL_TIME');
  }
  return null;
}

/** Validate a new order; `tif` is the normalized time in force (undefined when unknown). */
export function validateOrder(req: OrderRequest, book: OrderBook | undefined, tif: TimeInForce | undefined, now: number): Rejection | null {
  if (book === undefined) return reject('ORD_REJECT_REASON_UNKNOWN_SYMBOL', `unknown symbol ${String(req.symbol)}`);
  if (!book.acceptsOrders()) {
    return reject('ORD_REJECT_REASON_EXCHANGE_CLOSED', `instrument ${book.symbol} is ${book.state} and does not accept orders`);
  }
  if (req.side !== 'SIDE_BUY' && req.side !== 'SIDE_SELL') {
    return reject('ORD_REJECT_REASON_EXCHANGE_OPTION', `side must be SIDE_BUY or SIDE_SELL, got ${String(req.side)}`);
  }
  if (typeof req.account !== 'string' || req.account === '') {
    return reject('ORD_REJECT_REASON_EXCHANGE_OPTION', 'account is required');
  }
  if (tif === undefined) return reject('ORD_REJECT_REASON_EXCHANGE_OPTION', `unknown time in force ${String(req.timeInForce)}`);
  const inst = book.instrument;
  const qtyProblem = checkQty(req.orderQty, inst, 'order_qty');
  if (qtyProblem !== null) return qtyProblem;
  const type = req.type;
  const isLimit = type === 'ORDER_TYPE_LIMIT';
  if (!isLimit) {
    const typeProblem = checkTypeFields(req);
    if (typeProblem !== null) return typeProblem;
  } else {
    if (req.price === undefined) return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'a LIMIT order requires a price');
    if (req.stopPrice !== undefined)
      return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'only STOP and STOP_LIMIT orders take a stop_price');
  }
  if (req.price !== undefined) {
    const priceProblem = checkPrice(req.price, inst, 'price');
    if (priceProblem !== null) return priceProblem;
  }
  if (req.stopPrice !== undefined) {
    const stopProblem = checkPrice(req.stopPrice, inst, 'stop_price');
    if (stopProblem !== null) return stopProblem;
  }
  if (req.minQty !== undefined) {
    const minProblem = checkQty(req.minQty, inst, 'min_qty');
    if (minProblem !== null) return minProblem;
    if (req.minQty > req.orderQty) {
      return reject('ORD_REJECT_REASON_INCORRECT_QUANTITY', `min_qty ${req.minQty} is above order_qty ${req.orderQty}`);
    }
  }
  if (tif === 'TIME_IN_FORCE_GOOD_TILL_TIME' || req.goodTillTime !== undefined) {
    const gttProblem = checkGoodTillTime(tif, req.goodTillTime, now);
    if (gttProblem !== null) return gttProblem;
  }
  if (!isLimit || req.participateDontInitiate === true || req.selfMatchPreventionInstruction !== undefined) {
    const flagProblem = checkFlags(req, tif);
    if (flagProblem !== null) return flagProblem;
  }
  if (book.state !== 'INSTRUMENT_STATE_OPEN') {
    if (type === 'ORDER_TYPE_MARKET_TO_LIMIT' || isImmediate(tif) || req.minQty !== undefined || req.allOrNone === true) {
      return reject(
        'ORD_REJECT_REASON_EXCHANGE_CLOSED',
        `instrument ${book.symbol} is ${book.state}: ` +
          'orders needing immediate execution (MARKET_TO_LIMIT, IOC, FOK, min_qty, all_or_none) are refused',
      );
    }
  }
  return null;
}

function checkTypeFields(req: OrderRequest): Rejection | null {
  switch (req.type) {
    case 'ORDER_TYPE_MARKET_TO_LIMIT':
      if (req.price !== undefined)
        return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'a MARKET_TO_LIMIT order must not carry a price');
      if (req.stopPrice !== undefined)
        return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'only STOP and STOP_LIMIT orders take a stop_price');
      return null;
    case 'ORDER_TYPE_STOP':
      if (req.price !== undefined)
        return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'a STOP order must not carry a price (use STOP_LIMIT)');
      if (req.stopPrice === undefined) return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'a STOP order requires a stop_price');
      return null;
    case 'ORDER_TYPE_STOP_LIMIT':
      if (req.price === undefined) return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'a STOP_LIMIT order requires a price');
      if (req.stopPrice === undefined) return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', 'a STOP_LIMIT order requires a stop_price');
      return null;
    default:
      return reject('ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', `unsupported order type ${String(req.type)}`);
  }
}

function checkFlags(req: OrderRequest, tif: TimeInForce): Rejection | null {
  const smp = req.selfMatchPreventionInstruction;
  if (
    smp !== undefined &&
    smp !== 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED' &&
    smp !== 'SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR' &&
    smp !== 'SELF_MATCH_PREVENTION_INSTRUCTION_CANCEL_RESTING' &&
    smp !== 'SELF_MATCH_PREVENTION_INSTRUCTION_REMOVE_BOTH'
  ) {
    return reject('ORD_REJECT_REASON_EXCHANGE_OPTION', `unknown self_match_prevention_instruction ${String(smp)}`);
  }
  if (req.participateDontInitiate === true) {
    if (req.type === 'ORDER_TYPE_MARKET_TO_LIMIT' || req.type === 'ORDER_TYPE_STOP') {
      return reject('ORD_REJECT_REASON_EXCHANGE_OPTION', `participate_dont_initiate cannot be used with ${req.type}`);
    }
    if (isImmediate(tif) || req.minQty !== undefined || req.allOrNone === true) {
      return reject(
        'ORD_REJECT_REASON_EXCHANGE_OPTION',
        'participate_dont_initiate cannot be combined with IOC, FOK, min_qty or all_or_none',
      );
    }
  }
  return null;
}
