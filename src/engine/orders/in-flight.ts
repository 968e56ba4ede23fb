/**
 * The requests in flight for the bot's orders, kept on the orders' own records so that one place owns an
 * order's whole state: its exchange state and overlays (PENDING_CANCEL, a pending replace's terms, in the
 * record) and here what the execution adapter has or has not yet sent of those requests:
 * - a cancel or replace of an order whose exchange id is not known yet cannot be sent: it waits on the
 *   record (`awaitingAck`) until the acknowledgement names the id, and is dropped when the order ends first.
 *   The replace's terms are the record's `pendingReplace` (a later replace merges into it, as the exchange
 *   would apply both); `replaceOf` keeps the client order id it was asked with, for the request's journal.
 * - a cancel call on the wire (`cancelInFlight`): the order is not cancelled a second time meanwhile.
 * The adapter keeps only what it has not handed to the venue yet (the current step's batch, and orders held
 * for self-match cancels); risk reads the same records' worst terms (worst-terms.ts).
 */
import type { OrderIndex } from './order-index.ts';
import type { OrderRecord } from './record.ts';
import { isTerminal } from './states.ts';
import type { TrackedState } from './types.ts';
import { RenewingSet } from '../../util/renewing-collections.ts';

/** What waits for an order's acknowledgement. A cancel supersedes a replace that waits with it. */
export interface AwaitingAck {
  cancel: boolean;
  /** The client order id the waiting replace named (its terms are the record's pendingReplace); undefined: none. */
  replaceOf: string | undefined;
}

/** Requests released from waiting: the order's id is known now (`acknowledged`), or it ended without one. */
export interface ReleasedRequests {
  /** The order's current client order id. */
  readonly clordId: string;
  readonly cancel: boolean;
  readonly replaceOf: string | undefined;
}

/** Where an order that something waits for stands: finished (or forgotten), cancel in flight or outcome unknown, or working. */
export type Standing = 'finished' | 'cancelling' | 'working';

export function standingOf(state: TrackedState | undefined): Standing {
  if (state === undefined || isTerminal(state)) return 'finished';
  return state === 'PENDING_CANCEL' || state === 'UNKNOWN' ? 'cancelling' : 'working';
}

export class InFlightRequests {
  /** Records with requests waiting for their acknowledgement, in the order they started waiting. */
  private readonly waiting = new RenewingSet<OrderRecord>();

  constructor(private readonly index: OrderIndex) {}

  /** True while a request waits for an acknowledgement. */
  get hasWaiting(): boolean {
    return this.waiting.size > 0;
  }

  /** A cancel waits for the acknowledgement of the order `clordId` names (any id it has had). */
  deferCancel(clordId: string): void {
    const record = this.index.byClordId(clordId);
    if (record !== undefined) this.awaiting(record).cancel = true;
  }

  /** A replace (its terms already the record's pendingReplace) waits for the acknowledgement; it supersedes an earlier waiting one. */
  deferReplace(clordId: string, replaceOf: string): void {
    const record = this.index.byClordId(clordId);
    if (record !== undefined) this.awaiting(record).replaceOf = replaceOf;
  }

  /** The client order id of the replace waiting for the order's acknowledgement, if one does. */
  waitingReplaceOf(clordId: string): string | undefined {
    return this.index.byClordId(clordId)?.awaitingAck?.replaceOf;
  }

  /**
   * Takes what waits for the acknowledgement of the order `clordId` names, whatever its standing (the caller
   * was just told the order id); undefined when nothing waits.
   */
  takeAcknowledged(clordId: string): ReleasedRequests | undefined {
    const record = this.index.byClordId(clordId);
    return record === undefined ? undefined : this.release(record);
  }

  /**
   * Takes the waiting requests whose order is acknowledged now, in the order they started waiting; those whose
   * order ended without an acknowledgement are dropped.
   */
  takeReleased(): ReleasedRequests[] {
    const released: ReleasedRequests[] = [];
    for (const record of [...this.waiting]) {
      if (record.orderId !== undefined) {
        const requests = this.release(record);
        if (requests !== undefined) released.push(requests);
      } else if (standingOf(record.state()) === 'finished') {
        this.release(record);
      }
    }
    return released;
  }

  /** A cancel call for the order is on the wire. */
  cancelSent(clordId: string): void {
    const record = this.index.byClordId(clordId);
    if (record !== undefined) record.cancelInFlight = true;
  }

  /** The venue answered a cancel call (either way). */
  cancelAnswered(clordId: string): void {
    const record = this.index.byClordId(clordId);
    if (record !== undefined) record.cancelInFlight = false;
  }

  isCancelInFlight(clordId: string): boolean {
    return this.index.byClordId(clordId)?.cancelInFlight === true;
  }

  private awaiting(record: OrderRecord): AwaitingAck {
    if (record.awaitingAck === undefined) {
      record.awaitingAck = { cancel: false, replaceOf: undefined };
      this.waiting.add(record);
    }
    return record.awaitingAck;
  }

  private release(record: OrderRecord): ReleasedRequests | undefined {
    const awaiting = record.awaitingAck;
    if (awaiting === undefined) return undefined;
    record.awaitingAck = undefined;
    this.waiting.delete(record);
    return { clordId: record.clordId, cancel: awaiting.cancel, replaceOf: awaiting.replaceOf };
  }
}
