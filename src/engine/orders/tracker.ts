/**
 * The OrderTracker: the engine's single view of the bot's own orders. It takes local inputs (submitted,
 * acknowledged, sendFailed, cancelRequested, replaceRequested, lookupResult) and the venue's order stream
 * (snapshot, execution, cancelReject, connected/disconnected), keeps one state machine per order
 * (states.ts), and emits an `OrderUpdate` per visible change on `updates$`, a `Fill` per filled-quantity
 * increase on `fills$` (fill-derivation.ts) and tolerated oddities on `issues$`.
 *
 * Orders an earlier run sent come back from the order journal through `restored`: tracked as this run's
 * own (not adopted), with their order id and the fills the earlier run already counted, so the next
 * snapshot or lookup resumes them and only reports fills that happened since.
 *
 * Delivery is at-least-once and may be reordered: executions are deduplicated by id, fills come only from
 * cum_qty increases and states only advance, so any shuffling or duplication of an order's executions ends
 * in the same state and the same total filled quantity. Events are emitted after the state is updated,
 * fills before the update that shows them, in a FIFO queue: a subscriber that calls back into the tracker
 * sees consistent state and its events follow the ones already queued.
 *
 * Memory is bounded: finished orders beyond the `finishedHistory` most recent ones are forgotten (see
 * order-index.ts); an execution for a forgotten order is reported as `lateExecution` and ignored, never
 * adopted as an unknown order (a snapshot that lists one as working still adopts it: it is working).
 *
 * Snapshot rule (ours): a snapshot lists the working orders of every account the tracker follows. Unknown
 * orders in it are adopted; known ones are updated from it; a known order that has an exchange order id and
 * still looks working but is missing from it becomes UNKNOWN ("needs lookup": it may have filled or been
 * cancelled while the stream was down, so it is not closed blindly). Orders without an order id yet are
 * left alone (their insert may be in flight). Resolve UNKNOWN orders with `lookupResult`.
 */
import type { Observable } from 'rxjs';
import type { Decimal } from '../../domain/decimal.ts';
import type { CancelReject, Execution, Order } from '../../domain/index.ts';
import { LruSet } from '../../util/lru-set.ts';
import { RenewingMap } from '../../util/renewing-collections.ts';
import type { Clock } from '../clock.ts';
import type { OrderStreamEvent } from '../../domain/stream-events.ts';
import type { VenueOrderRequest } from '../venue.ts';
import { type Applied, type Evidence, adoptOrder, applyEvidence } from './apply-exchange.ts';
import { OrderTrackerErrorCode, orderTrackerError } from './errors.ts';
import { type FillContext, buildFills } from './fill-events.ts';
import {
  markAcknowledged,
  markCancelRejected,
  markCancelRequested,
  markNotFound,
  markRequestFailed,
  markReplaceRequested,
  markSendFailed,
  recordForSubmission,
  restoreHistory,
} from './local-inputs.ts';
import { InFlightRequests } from './in-flight.ts';
import { OrderIndex } from './order-index.ts';
import { Outbox } from './outbox.ts';
import { type OrderRecord, changedSince } from './record.ts';
import { countStates } from './queries.ts';
import { isTerminal } from './states.ts';
import type { Fill, OrderCounts, OrderUpdate, RestoredHistory, SubmissionMeta, TrackedOrder, TrackerIssue, UpdateCause } from './types.ts';

export interface OrderTrackerOptions {
  /** Source of createdAt / updatedAt and of fill times when an execution has no transact time. */
  readonly clock: Clock;
  /**
   * How many execution ids to remember for deduplication (default 100000, least recent forgotten first).
   * Forgetting is safe: a replayed execution is stale by cum_qty and state rank, so it changes nothing.
   * 0: none (for a source that never sends an execution twice, such as a backtest's simulated venue).
   */
  readonly dedupeCapacity?: number | undefined;
  /**
   * How many finished orders to keep (default 10000, the oldest forgotten first; see order-index.ts), so a
   * long run's memory does not grow with the number of orders. An execution that arrives for a forgotten
   * order is ignored (issue `lateExecution`): the exchange had already ended it.
   */
  readonly finishedHistory?: number | undefined;
  /**
   * How many forgotten orders' ids to remember, so late evidence about them is known as late rather than
   * taken for an unknown order (default ten times `finishedHistory`, least recent forgotten first).
   */
  readonly forgottenOrderMemory?: number | undefined;
}

export class OrderTracker {
  private readonly clock: Clock;
  private readonly index: OrderIndex;
  private readonly seenExecutions: LruSet | undefined;
  /** open()'s lists, taken afresh after any order changes (commit); shared with every caller, never mutated. */
  private openViews: readonly TrackedOrder[] | undefined = undefined;
  private readonly openViewsBySymbol = new RenewingMap<string, readonly TrackedOrder[]>();
  private readonly out = new Outbox();
  private streamStale = true;

  readonly updates$: Observable<OrderUpdate> = this.out.updates$;
  readonly fills$: Observable<Fill> = this.out.fills$;
  readonly issues$: Observable<TrackerIssue> = this.out.issues$;
  /** What the execution adapter has (or has not yet) sent of the orders' cancels and replaces (in-flight.ts). */
  readonly requests: InFlightRequests;

  constructor(options: OrderTrackerOptions) {
    this.clock = options.clock;
    this.index = new OrderIndex(options.finishedHistory, options.forgottenOrderMemory);
    this.requests = new InFlightRequests(this.index);
    const dedupe = options.dedupeCapacity ?? 100_000;
    if (!Number.isInteger(dedupe) || dedupe < 0)
      throw new RangeError(`execution dedupe capacity must be a whole number >= 0, got ${dedupe}`);
    this.seenExecutions = dedupe === 0 ? undefined : new LruSet(dedupe);
  }

  // ---- local inputs ----

  /** The execution adapter is sending this insert: a new order in PENDING_NEW. */
  submitted(request: VenueOrderRequest, meta: SubmissionMeta = {}): TrackedOrder {
    if (this.index.hasClordId(request.clordId)) {
      throw orderTrackerError(
        OrderTrackerErrorCode.DUPLICATE_CLORD_ID,
        `clordId ${request.clordId} is already tracked; issue a fresh one`,
        {
          clordId: request.clordId,
        },
      );
    }
    const record = recordForSubmission(request, meta, this.clock.now());
    this.index.add(record);
    return this.commit(record, undefined, { kind: 'submitted' });
  }

  /**
   * An order an earlier run sent (from the order journal): tracked as submitted, never sent again. With an
   * order id it is NEW (or PARTIALLY_FILLED); without one, PENDING_NEW until a snapshot or lookup finds it.
   */
  restored(request: VenueOrderRequest, meta: SubmissionMeta, history: RestoredHistory): TrackedOrder {
    for (const clordId of [request.clordId, ...history.clordIds]) {
      if (this.index.hasClordId(clordId)) {
        throw orderTrackerError(
          OrderTrackerErrorCode.DUPLICATE_CLORD_ID,
          `restored order ${request.clordId}: clordId ${clordId} is already tracked`,
          { clordId },
        );
      }
    }
    const record = recordForSubmission(request, meta, this.clock.now());
    restoreHistory(record, history);
    this.index.add(record);
    return this.commit(record, undefined, { kind: 'restored' });
  }

  /** The insert response named the exchange order id. */
  acknowledged(clordId: string, orderId: string): TrackedOrder {
    const record = this.require(clordId);
    const before = record.view();
    const issues: TrackerIssue[] = [];
    if (orderId === '') {
      // nothing learned; the first execution will name the order
    } else if (record.orderId === undefined) this.index.setOrderId(record, orderId);
    else if (record.orderId !== orderId) issues.push({ kind: 'orderIdConflict', clordId, known: record.orderId, received: orderId });
    markAcknowledged(record);
    return this.commit(record, before, { kind: 'acknowledged' }, { fills: [], issues });
  }

  /** The insert call failed (see local-inputs.ts for REJECTED vs UNKNOWN). */
  sendFailed(clordId: string, error: unknown): TrackedOrder {
    const record = this.require(clordId);
    const before = record.view();
    markSendFailed(record, error);
    return this.commit(record, before, { kind: 'sendFailed', error });
  }

  /** A cancel is being sent: PENDING_CANCEL until the exchange cancels (or rejects the cancel). */
  cancelRequested(clordId: string): TrackedOrder {
    const record = this.require(clordId);
    const before = record.view();
    markCancelRequested(record);
    return this.commit(record, before, { kind: 'cancelRequested' });
  }

  /** A replace is being sent; `newClordId` becomes the order's clordId once the exchange confirms. */
  replaceRequested(clordId: string, newClordId: string, price?: Decimal, qty?: Decimal): TrackedOrder {
    const record = this.require(clordId);
    const before = record.view();
    markReplaceRequested(record, this.index, newClordId, price, qty);
    return this.commit(record, before, { kind: 'replaceRequested', newClordId });
  }

  /** A cancel or replace call for this order failed: its pending overlay is dropped (see local-inputs.ts). */
  requestFailed(clordId: string, request: 'cancel' | 'replace', error: unknown): TrackedOrder {
    const record = this.require(clordId);
    const before = record.view();
    markRequestFailed(record, this.index, request);
    return this.commit(record, before, { kind: 'requestFailed', request, error });
  }

  /** The result of looking up an UNKNOWN order at the exchange; `undefined` when it was not found. */
  lookupResult(clordId: string, order: Order | undefined): TrackedOrder {
    const record = this.require(clordId);
    const before = record.view();
    if (order === undefined) {
      markNotFound(record, this.index);
      return this.commit(record, before, { kind: 'lookup', found: false });
    }
    const applied = applyEvidence(record, this.index, { order, execution: undefined });
    return this.commit(record, before, { kind: 'lookup', found: true }, applied, { source: 'lookup', execution: undefined });
  }

  // ---- venue inputs ----

  /** Feeds one event of the venue's order stream. */
  onStreamEvent(event: OrderStreamEvent): void {
    switch (event.type) {
      case 'snapshot':
        this.applySnapshot(event.orders, event.sessionId);
        return;
      case 'execution':
        this.applyExecution(event.execution);
        return;
      case 'cancelReject':
        this.applyCancelReject(event.cancelReject);
        return;
      case 'disconnected':
        this.streamStale = true;
        return;
      default:
        return;
    }
  }

  applyExecution(execution: Execution): void {
    if (execution.id !== '' && this.seenExecutions?.checkAndAdd(execution.id) === true) return;
    const ev: Evidence = { order: execution.order, execution };
    const cause: UpdateCause = { kind: 'execution', executionId: execution.id, executionType: execution.type, text: execution.text };
    const context: FillContext = { source: 'execution', execution };
    const record = this.index.find(execution.order.id, execution.order.clordId);
    if (record === undefined && this.index.wasForgotten(execution.order.id, execution.order.clordId)) {
      this.out.issue({ kind: 'lateExecution', orderId: execution.order.id, clordId: execution.order.clordId, executionId: execution.id });
      this.out.flush();
      return;
    }
    if (record === undefined) {
      this.adopt(ev, cause, context);
      return;
    }
    const before = record.view();
    this.commit(record, before, cause, applyEvidence(record, this.index, ev), context);
  }

  applyCancelReject(reject: CancelReject): void {
    const record = this.index.find(reject.orderId, reject.clordId);
    if (record === undefined) {
      this.out.issue({ kind: 'unmatchedCancelReject', clordId: reject.clordId, orderId: reject.orderId });
      this.out.flush();
      return;
    }
    const before = record.view();
    markCancelRejected(record, this.index, reject);
    this.commit(record, before, { kind: 'cancelReject', isReplace: reject.isReplace, reason: reject.rejectReason, text: reject.text });
  }

  applySnapshot(orders: readonly Order[], sessionId: string): void {
    this.streamStale = false;
    const present = new Set<OrderRecord>();
    const context: FillContext = { source: 'snapshot', execution: undefined };
    for (const order of orders) {
      const ev: Evidence = { order, execution: undefined };
      const record = this.index.find(order.id, order.clordId);
      if (record === undefined) {
        const adopted = this.adopt(ev, { kind: 'snapshot', sessionId, outcome: 'adopted' }, context);
        if (adopted !== undefined) present.add(adopted);
        continue;
      }
      present.add(record);
      const before = record.view();
      this.commit(record, before, { kind: 'snapshot', sessionId, outcome: 'present' }, applyEvidence(record, this.index, ev), context);
    }
    for (const record of [...this.index.open()]) {
      if (present.has(record) || record.orderId === undefined || record.unknown || isTerminal(record.base)) continue;
      const before = record.view();
      record.unknown = true;
      this.commit(record, before, { kind: 'snapshot', sessionId, outcome: 'missing' });
    }
  }

  // ---- queries ----

  /** By any clordId the order has had (current, old or pending replace target). */
  get(clordId: string): TrackedOrder | undefined {
    return this.index.byClordId(clordId)?.view();
  }

  /** True while an order with this clordId is tracked (cheaper than `get`). */
  has(clordId: string): boolean {
    return this.index.hasClordId(clordId);
  }

  /** Orders kept: the open ones and the finished-order history. */
  get size(): number {
    return this.index.size;
  }

  byOrderId(orderId: string): TrackedOrder | undefined {
    return this.index.byOrderId(orderId)?.view();
  }

  /**
   * Working orders, pending and UNKNOWN ones included, oldest first; of one symbol when given. The same list
   * until an order changes (risk and the strategy ask on every event, orders change far less often): read it,
   * never mutate it (not frozen: frozen arrays made every reader slower).
   */
  open(symbol?: string): readonly TrackedOrder[] {
    let all = this.openViews;
    if (all === undefined) {
      const views: TrackedOrder[] = [];
      for (const record of this.index.open()) views.push(record.view());
      this.openViews = all = views;
    }
    if (symbol === undefined) return all;
    let mine = this.openViewsBySymbol.get(symbol);
    if (mine === undefined) {
      mine = all.filter((order) => order.symbol === symbol);
      this.openViewsBySymbol.set(symbol, mine);
    }
    return mine;
  }

  /** Orders in UNKNOWN: look them up at the exchange and feed the answer to `lookupResult`. */
  needingLookup(): TrackedOrder[] {
    return this.open().filter((order) => order.state === 'UNKNOWN');
  }

  all(): TrackedOrder[] {
    return this.index.all().map((record) => record.view());
  }

  counts(): OrderCounts {
    return countStates(this.index.all());
  }

  /** True from a `disconnected` event until the next snapshot (and before the first one). */
  get stale(): boolean {
    return this.streamStale;
  }

  /** Completes the Observables. */
  close(): void {
    this.out.complete();
  }

  // ---- internals ----

  private require(clordId: string): OrderRecord {
    const record = this.index.byClordId(clordId);
    if (record === undefined) {
      throw orderTrackerError(OrderTrackerErrorCode.UNKNOWN_ORDER, `no tracked order has clordId ${clordId}; submit it first`, { clordId });
    }
    return record;
  }

  private adopt(ev: Evidence, cause: UpdateCause, context: FillContext): OrderRecord | undefined {
    const { record, issue } = adoptOrder(ev, this.clock.now());
    if (record === undefined) {
      if (issue !== undefined) this.out.issue(issue);
      this.out.flush();
      return undefined;
    }
    this.index.add(record);
    this.commit(record, undefined, cause, applyEvidence(record, this.index, ev), context);
    return record;
  }

  /** Stamps, re-indexes and queues the fills and (when visible) the update, then flushes. */
  private commit(
    record: OrderRecord,
    before: TrackedOrder | undefined,
    cause: UpdateCause,
    applied: Applied = { fills: [], issues: [] },
    context: FillContext = { source: 'lookup', execution: undefined },
  ): TrackedOrder {
    const now = this.clock.now();
    record.changed();
    this.index.refresh(record);
    this.openViews = undefined;
    if (this.openViewsBySymbol.size > 0) this.openViewsBySymbol.clear();
    // compared with the record itself, so the view is taken once, after the stamp
    const changed = before === undefined || changedSince(before, record);
    if (changed && before !== undefined) record.updatedAt = now;
    const after = record.view();
    for (const issue of applied.issues) this.out.issue(issue);
    for (const fill of buildFills(record, applied.fills, context, now)) this.out.fill(fill);
    if (changed) this.out.update({ order: after, previousState: before?.state, cause });
    this.out.flush();
    return after;
  }
}
