/**
 * The order state machine as pure functions.
 *
 * A tracked order's state is a *base* state plus overlays:
 * - base: PENDING_NEW -> NEW -> PARTIALLY_FILLED -> FILLED | CANCELED | REJECTED | EXPIRED, ranked in that
 *   order. Exchange evidence can only raise the rank (`advance`), so a stale or reordered execution never
 *   moves an order backwards, and a terminal base is absorbing. One exception: a terminal base set locally
 *   (an insert refused before it reached the book) yields to any later exchange evidence for the order.
 * - overlays: a cancel in flight (PENDING_CANCEL), a replace in flight (PENDING_REPLACE) and "unknown"
 *   (UNKNOWN, needs a lookup). A cancel reject clears its overlay, so the order goes back to its base, which
 *   may have moved meanwhile (e.g. NEW -> PARTIALLY_FILLED). Overlays vanish once the base is terminal.
 */
import type { ExecutionType, OrderState } from '../../domain/enums.ts';
import type { TerminalState, TrackedState } from './types.ts';

export type BaseState = 'PENDING_NEW' | 'NEW' | 'PARTIALLY_FILLED' | TerminalState;

/** What a record's visible state is made of (the record itself: no object is built per read). */
export interface StateParts {
  readonly base: BaseState;
  readonly pendingCancel: boolean;
  /** The terms of a replace in flight, undefined when none is. */
  readonly pendingReplace: object | undefined;
  readonly unknown: boolean;
}

const RANK: Record<BaseState, number> = {
  PENDING_NEW: 0,
  NEW: 1,
  PARTIALLY_FILLED: 2,
  FILLED: 3,
  CANCELED: 3,
  REJECTED: 3,
  EXPIRED: 3,
};

export function isTerminal(state: TrackedState): state is TerminalState {
  return state === 'FILLED' || state === 'CANCELED' || state === 'REJECTED' || state === 'EXPIRED';
}

/** Working or possibly working: everything but the terminal states. */
export function isOpen(state: TrackedState): boolean {
  return !isTerminal(state);
}

/** The state a view shows: terminal base, else UNKNOWN, PENDING_CANCEL, PENDING_REPLACE, then the base. */
export function visibleState(parts: StateParts): TrackedState {
  if (isTerminal(parts.base)) return parts.base;
  if (parts.unknown) return 'UNKNOWN';
  if (parts.pendingCancel) return 'PENDING_CANCEL';
  if (parts.pendingReplace !== undefined) return 'PENDING_REPLACE';
  return parts.base;
}

function terminalOfOrderState(state: OrderState): TerminalState | undefined {
  switch (state) {
    case 'ORDER_STATE_FILLED':
      return 'FILLED';
    case 'ORDER_STATE_CANCELED':
      return 'CANCELED';
    case 'ORDER_STATE_REJECTED':
      return 'REJECTED';
    case 'ORDER_STATE_EXPIRED':
      return 'EXPIRED';
    default:
      return undefined;
  }
}

function terminalOfExecutionType(type: ExecutionType): TerminalState | undefined {
  switch (type) {
    case 'EXECUTION_TYPE_FILL':
      return 'FILLED';
    case 'EXECUTION_TYPE_CANCELED':
      return 'CANCELED';
    case 'EXECUTION_TYPE_REJECTED':
      return 'REJECTED';
    case 'EXECUTION_TYPE_EXPIRED':
    case 'EXECUTION_TYPE_DONE_FOR_DAY':
      return 'EXPIRED';
    default:
      return undefined;
  }
}

/**
 * The base state the exchange reports: a rejection execution first (only EXECUTION_TYPE_REJECTED means a
 * rejection), then the order's own terminal state, then the execution type's; otherwise a working state
 * from the filled quantity (`hasFills`: the tracker's filled quantity after applying this evidence).
 * PENDING_NEW / PENDING_RISK at the exchange stay PENDING_NEW; the exchange's PENDING_CANCEL /
 * PENDING_REPLACE / REPLACED are working states (the order id does not change on a replace).
 */
export function exchangeBase(orderState: OrderState, executionType: ExecutionType | undefined, hasFills: boolean): BaseState {
  if (executionType === 'EXECUTION_TYPE_REJECTED') return 'REJECTED';
  const terminal = terminalOfOrderState(orderState) ?? (executionType === undefined ? undefined : terminalOfExecutionType(executionType));
  if (terminal !== undefined) return terminal;
  if (hasFills) return 'PARTIALLY_FILLED';
  if (orderState === 'ORDER_STATE_PENDING_NEW' || orderState === 'ORDER_STATE_PENDING_RISK') return 'PENDING_NEW';
  return 'NEW';
}

/**
 * Combines the current base with new evidence: the higher rank wins and a terminal base stays, unless it
 * was set locally (`currentIsLocal`) and the evidence comes from the exchange.
 */
export function advance(current: BaseState, currentIsLocal: boolean, evidence: BaseState): BaseState {
  if (RANK[current] === 3 && !currentIsLocal) return current;
  if (RANK[current] === 3 && currentIsLocal) return evidence;
  return RANK[evidence] > RANK[current] ? evidence : current;
}
