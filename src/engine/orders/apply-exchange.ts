/**
 * Applies exchange evidence about one order (an execution's order, a snapshot entry or a lookup result) to
 * its record, and adopts orders the tracker did not know. Rules, in order:
 * 1. The order id is learned from the first evidence that names one (a different id later is an issue;
 *    the first one stays).
 * 2. Terms (price, qty, current clordId) come from evidence whose clordId is at least as new as the terms
 *    applied (see record.ts); with the same clordId only a REPLACE execution or a snapshot/lookup changes
 *    them. A pending replace is confirmed by evidence carrying its clordId (or a newer one).
 * 3. Fills come from increases of cum_qty only (fill-derivation.ts): a lower or equal cum_qty adds nothing.
 * 4. The base state can only advance (states.ts); a terminal base clears the pending overlays.
 * 5. Any evidence clears UNKNOWN: the exchange knows the order.
 *
 * Adopted orders (the bot did not submit them in this run): their fills before adoption are history, not
 * new fills. From a snapshot, the whole cum_qty is history (the portfolio learns it from the exchange's
 * positions); from an execution, the history is cum_qty - last_shares and the execution's own last_shares
 * is a new fill.
 */
import { ZERO } from '../../domain/decimal.ts';
import type { Execution, Order } from '../../domain/index.ts';
import type { EpochMs } from '../../domain/time.ts';
import { type DerivedFill, deriveFills, knownLevels } from './fill-derivation.ts';
import type { OrderIndex } from './order-index.ts';
import { OrderRecord } from './record.ts';
import { advance, exchangeBase, isTerminal } from './states.ts';
import type { TrackerIssue } from './types.ts';

export interface Evidence {
  readonly order: Order;
  /** The execution that carried `order`; undefined for a snapshot entry or a lookup. */
  readonly execution: Execution | undefined;
}

export interface Applied {
  readonly fills: readonly DerivedFill[];
  readonly issues: readonly TrackerIssue[];
}

function learnOrderId(record: OrderRecord, index: OrderIndex, orderId: string, issues: TrackerIssue[]): void {
  if (orderId === '') return;
  if (record.orderId === undefined) index.setOrderId(record, orderId);
  else if (record.orderId !== orderId) {
    issues.push({ kind: 'orderIdConflict', clordId: record.clordId, known: record.orderId, received: orderId });
  }
}

function applyTerms(record: OrderRecord, index: OrderIndex, ev: Evidence): void {
  const clordId = ev.order.clordId;
  if (clordId === '') return;
  let version = record.versionOf(clordId);
  if (version < 0) {
    index.addClordId(record, clordId);
    version = record.chain.length - 1;
  }
  const isReplace = ev.execution?.type === 'EXECUTION_TYPE_REPLACE';
  if (version > record.confirmed || (version === record.confirmed && (isReplace || ev.execution === undefined))) {
    record.confirmed = version;
    if (ev.order.orderQty.gt(ZERO)) record.qty = ev.order.orderQty;
    if (ev.order.price.gt(ZERO)) record.price = ev.order.price;
  }
  const pending = record.pendingReplace;
  if (pending !== undefined && record.confirmed >= record.versionOf(pending.clordId)) record.pendingReplace = undefined;
}

function applyFills(record: OrderRecord, ev: Evidence, issues: TrackerIssue[]): DerivedFill[] {
  const order = ev.order;
  if (order.cumQty.lte(record.filledQty)) return [];
  const exec = ev.execution;
  const fills = deriveFills(
    { filledQty: record.filledQty, notional: record.notional, levels: record.levels },
    {
      cumQty: order.cumQty,
      avgPx: order.avgPx,
      levels: order.priceToQuantityFilled,
      last: exec === undefined ? undefined : { px: exec.lastPx, shares: exec.lastShares },
      limit: record.price,
      isBuy: record.isBuy,
    },
  );
  for (const fill of fills) {
    record.notional = record.notional.plus(fill.qty.times(fill.price));
    if (fill.source === 'avgPx') issues.push({ kind: 'estimatedFillPrice', clordId: record.clordId, qty: fill.qty, price: fill.price });
  }
  record.filledQty = order.cumQty;
  record.levels = knownLevels(order.priceToQuantityFilled, order.cumQty);
  if (record.filledQty.gt(record.qty)) {
    issues.push({ kind: 'overfill', clordId: record.clordId, filledQty: record.filledQty, qty: record.qty });
  }
  return fills;
}

/** Applies `ev` to `record` (see the rules above). The caller stamps `updatedAt` and emits. */
export function applyEvidence(record: OrderRecord, index: OrderIndex, ev: Evidence): Applied {
  const issues: TrackerIssue[] = [];
  learnOrderId(record, index, ev.order.id, issues);
  applyTerms(record, index, ev);
  const fills = applyFills(record, ev, issues);
  const evidence = exchangeBase(ev.order.state, ev.execution?.type, record.filledQty.gt(ZERO));
  record.base = advance(record.base, record.baseIsLocal, evidence);
  record.baseIsLocal = false;
  record.unknown = false;
  if (isTerminal(record.base)) {
    record.pendingCancel = false;
    record.pendingReplace = undefined;
  }
  return { fills, issues };
}

/**
 * A record for an order the tracker did not know, with its pre-adoption fills as history; undefined (and
 * an issue) when the order cannot be tracked (no side). The clordId is `exchange:<orderId>` when the order
 * has none.
 */
export function adoptOrder(ev: Evidence, time: EpochMs): { record: OrderRecord | undefined; issue: TrackerIssue | undefined } {
  const order = ev.order;
  if (order.side !== 'SIDE_BUY' && order.side !== 'SIDE_SELL') {
    return {
      record: undefined,
      issue: { kind: 'unusableOrder', orderId: order.id, clordId: order.clordId, reason: `side ${order.side}` },
    };
  }
  const record = new OrderRecord({
    clordId: order.clordId !== '' ? order.clordId : `exchange:${order.id}`,
    orderId: order.id === '' ? undefined : order.id,
    account: order.account,
    symbol: order.symbol,
    side: order.side === 'SIDE_BUY' ? 'BUY' : 'SELL',
    price: order.price.gt(0) ? order.price : undefined,
    qty: order.orderQty,
    base: 'PENDING_NEW',
    adopted: true,
    intentId: undefined,
    label: undefined,
    crossId: order.crossId === '' ? undefined : order.crossId,
    time,
  });
  const exec = ev.execution;
  const fresh = exec !== undefined && exec.lastShares.gt(0) && exec.lastShares.lte(order.cumQty) ? exec.lastShares : ZERO;
  const history = order.cumQty.minus(fresh);
  record.filledQty = history;
  record.notional = order.cumQty.times(order.avgPx).minus(exec === undefined ? ZERO : fresh.times(exec.lastPx));
  record.levels = fresh.isZero() ? knownLevels(order.priceToQuantityFilled, history) : undefined;
  if (history.isZero()) record.notional = ZERO;
  return { record, issue: undefined };
}
