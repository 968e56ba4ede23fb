/**
 * The execution adapter: the only code that calls a Venue, and it takes only risk-approved intents.
 * Places, cancels and replaces collected during one engine step are sent together as `*_list` calls of at
 * most 20 (cancels first); cancels and replaces of orders whose exchange id is not known yet wait for the
 * acknowledgement, on the order's record in the tracker (the one owner of an order's state, requests in flight
 * included: orders/in-flight.ts; the adapter keeps only what it has not handed to the venue); an order approved
 * behind self-match cancels (risk `selfMatch.action: cancelResting`) is
 * held until those resting orders are confirmed finished (held-orders.ts); a failed insert is
 * reported so the order is not left pending, and an order whose cancel is in flight is not cancelled again (a
 * strategy's cancelAll at stop followed by the engine's own would double every cancel). Retries of inserts
 * happen below, in the client, with the same client order id (so a retry can never create a second order).
 * Venue calls and their answers are in venue-calls.ts, how a replace is queued or merged in
 * replace-queueing.ts. `cancelAllOpen` cancels on shutdown. With a `journal` (write-ahead, see
 * send-journal.ts) every request is recorded and made durable before its venue call leaves: once per flush for everything the step sends.
 *
 * With `throttle` limits (risk.maxMessagesPerSecond and risk.maxQueuedMessages > 0) a flush sends only what
 * the message budget allows, cancels first; the rest waits in the send queue (send-queue.ts), a newer replace
 * or cancel of an order superseding a queued one, and a drain is scheduled on the engine clock for when the
 * budget frees. What waits longer than maxQueueAgeMs is not sent (reported refused).
 */
import type { Logger } from 'pino';
import { MAX_LIST_REQUESTS } from '../../domain/limits.ts';
import type { Approved } from '../risk/verdict.ts';
import type { CancelAllIntent, CrossIntent, Intent, PlaceIntent, ReplaceIntent } from '../intents.ts';
import type { Clock } from '../clock.ts';
import type { Venue, VenueCancelRequest, VenueOrderRequest } from '../venue.ts';
import { describeError } from '../../errors.ts';
import { standingOf, type ReleasedRequests, type TrackedState } from '../orders/index.ts';
import type { ExecutionLedger } from './ledger.ts';
import type { SendJournal } from './send-journal.ts';
import { ExecutionErrorCode, notSent } from './errors.ts';
import { HeldOrders, type Blocker } from './held-orders.ts';
import { crossRequest, orderRequest } from './requests.ts';
import { SendQueue, failExpired, type QueuedPlace, type SendBatch, type SendQueueOptions, type ThrottleOutcome } from './send-queue.ts';
import type { ThrottleLimits } from './throttle.ts';
import { VenueCalls } from './venue-calls.ts';
import { ReplaceQueueing } from './replace-queueing.ts';

export interface ExecutionAdapterOptions {
  venue: Venue;
  ledger: ExecutionLedger;
  log: Logger;
  defaultAccount: string;
  selfMatchPrevention: VenueOrderRequest['selfMatchPreventionInstruction'];
  /** Called after every venue call settles, with counts for metrics and the status line. */
  onSent?(kind: 'insert' | 'cancel' | 'replace' | 'cross', count: number, clordIds?: readonly string[]): void;
  /** Write-ahead journal of requests (the order journal); absent: nothing is recorded. */
  journal?: SendJournal;
  /** The message throttle; absent: every flush sends everything queued. */
  throttle?: AdapterThrottle;
}

export interface AdapterThrottle {
  readonly limits: ThrottleLimits;
  readonly clock: Clock;
  /** Runs a drain when the budget frees (the pipeline makes it an engine step); default: `flush()`. */
  readonly drain?: () => void;
  /** A strategy intent that had to wait: pending, then sent, superseded or refused (past maxQueueAgeMs). */
  readonly onOutcome?: (outcome: ThrottleOutcome) => void;
  /** Several strategies: the budget is shared round-robin by strategy (groupOf a client order id), each within its own. */
  readonly fairness?: SendQueueOptions['fairness'];
}

export type { ThrottleOutcome } from './send-queue.ts';
/** What waits for self-match cancels: a place (already tracked as PENDING_NEW) or a replace (PENDING_REPLACE). */
type HeldItem = { kind: 'place'; place: QueuedPlace } | { kind: 'replace'; intent: Approved<ReplaceIntent> };

/** A resting order a held order waits for: finished (or forgotten), cancel in flight or outcome unknown, or working. */
const blocker: (state: TrackedState | undefined) => Blocker = standingOf;

export type { ExecutionLedger, ReplaceTerms } from './ledger.ts';

export class ExecutionAdapter {
  private readonly queue: SendQueue;
  private readonly calls: VenueCalls;
  private readonly replaces: ReplaceQueueing;
  /** Orders waiting for self-match cancels to be confirmed. */
  private readonly held = new HeldOrders<HeldItem>();

  constructor(private readonly options: ExecutionAdapterOptions) {
    this.calls = new VenueCalls({
      venue: options.venue,
      ledger: options.ledger,
      log: options.log,
      onSent: options.onSent,
      acknowledged: (clordId) => this.onAcknowledged(clordId),
    });
    const throttle = options.throttle;
    this.queue = new SendQueue({
      limits: throttle?.limits,
      clock: throttle?.clock,
      onOutcome: throttle?.onOutcome,
      fairness: throttle?.fairness,
    });
    this.replaces = new ReplaceQueueing(options.ledger, this.queue, options.log);
  }

  /**
   * Why this approved intent cannot be taken on now: the send queue holds risk.maxQueuedMessages requests
   * (never for cancels). The pipeline refuses it (RISK_ORDER_RATE) instead of submitting it.
   */
  queueFull(intent: Intent): string | undefined {
    if (intent.kind === 'place' || intent.kind === 'cross') return this.queue.fullFor(intent.kind);
    if (intent.kind !== 'replace') return undefined;
    return this.queue.fullFor('replace', this.options.ledger.orderIdOf(intent.clordId));
  }

  /** Requests waiting for the message budget. */
  get queued(): number {
    return this.queue.size;
  }

  /** Queues an approved intent; `flush()` sends what was queued during the current engine step. */
  submit(approved: Approved<Intent>): void {
    const intent: Intent = approved;
    this.options.journal?.approved(intent);
    const after = approved.afterCancelOf ?? [];
    switch (intent.kind) {
      case 'place':
        this.queuePlace(intent, after);
        break;
      case 'cancel':
        this.queueCancel(intent.clordId, intent);
        break;
      case 'replace':
        if (after.length > 0) this.holdReplace(approved as Approved<ReplaceIntent>, after);
        else this.replaces.queue(approved as Approved<ReplaceIntent>, true, intent);
        break;
      case 'cancelAll':
        for (const clordId of this.options.ledger.openClordIds((intent as CancelAllIntent).symbol)) this.queueCancel(clordId);
        break;
      case 'cross':
        this.queueCross(intent);
        break;
    }
  }

  /**
   * Sends what the step queued: cancels, then replaces, then places (each as list calls of at most 20), then
   * crosses, so a step's cancels never trail its new orders. With a journal, one sync covers them all.
   */
  flush(force = false): void {
    // every engine step ends here, most with nothing queued: then there is nothing to take or send
    if (this.queue.size === 0) return;
    const batch = this.queue.take(force);
    failExpired(this.options.ledger, this.options.log, batch.expired);
    this.send(batch);
    this.queue.report(batch);
    this.queue.scheduleDrain(() => (this.options.throttle?.drain === undefined ? this.flush() : this.options.throttle.drain()));
  }

  /** Sends a flush's batch (see flush). */
  private send(batch: SendBatch): void {
    const { places, replaces, crosses } = batch;
    const cancels = this.cancelRequests(batch.cancels);
    const journal = this.options.journal;
    if (journal !== undefined && (places.length > 0 || cancels.length > 0 || replaces.length > 0 || crosses.length > 0)) {
      if (cancels.length > 0) journal.cancelling(cancels);
      for (const r of replaces) journal.replacing(r.origClordId, r.request);
      if (places.length > 0) journal.inserting(places.map((p) => p.request));
      for (const cross of crosses) journal.crossing(cross);
      const refused = this.syncJournal();
      if (refused !== undefined) {
        const { ledger } = this.options;
        for (const place of places) ledger.sendFailed(place.request.clordId, refused);
        for (const r of replaces) ledger.requestFailed?.(r.origClordId, 'replace', refused);
        for (const cross of crosses) for (const leg of [cross.buy, cross.sell]) ledger.sendFailed(leg.clordId, refused);
        places.length = 0;
        replaces.length = 0;
        crosses.length = 0;
      }
    }
    if (cancels.length > 0) this.calls.cancels(cancels);
    for (let i = 0; i < replaces.length; i += MAX_LIST_REQUESTS) this.calls.replaces(replaces.slice(i, i + MAX_LIST_REQUESTS));
    for (let i = 0; i < places.length; i += MAX_LIST_REQUESTS)
      this.calls.inserts(places.slice(i, i + MAX_LIST_REQUESTS).map((p) => p.request));
    for (const cross of crosses) this.calls.cross(cross);
  }

  /**
   * True while a cancel or replace waits for an acknowledgement, or an order for self-match cancels: call
   * `onOrderChanged` on every order update then.
   */
  get hasWaiting(): boolean {
    return this.options.ledger.hasDeferred() || this.held.size > 0;
  }

  /** True while an order waits for self-match cancels. */
  get hasHeld(): boolean {
    return this.held.size > 0;
  }

  /**
   * An order changed: releases the cancels and replaces whose order is acknowledged now and forgets those
   * whose order ended without an acknowledgement (rejected); sends the held orders whose resting orders all
   * finished, and drops (as not sent) those one of whose resting orders is working again.
   */
  onOrderChanged(): void {
    const { ledger } = this.options;
    if (ledger.hasDeferred()) {
      for (const released of ledger.takeReleased()) {
        this.sendReleased(released);
        this.flush();
      }
    }
    if (this.held.size === 0) return;
    const { released, dropped } = this.held.settle((clordId) => blocker(ledger.stateOf(clordId)));
    for (const { held, working } of dropped) {
      const error = notSent(
        ExecutionErrorCode.SELF_MATCH_CANCEL_FAILED,
        `${held.item.kind} of ${held.clordId} not sent: the bot's own order ${working} it would trade against is still working ` +
          '(its self-match cancel failed); decide again',
        { clordId: held.clordId, resting: working },
      );
      this.options.log.info({ clordId: held.clordId, resting: working }, error.message);
      if (held.item.kind === 'place') ledger.sendFailed(held.clordId, error);
      else ledger.requestFailed?.(held.clordId, 'replace', error);
    }
    for (const { item } of released) {
      if (item.kind === 'place') this.queue.add({ kind: 'place', place: item.place, intent: item.place.intent });
      else this.replaces.queue(item.intent, false);
    }
    if (released.length > 0) this.flush();
  }

  /** The exchange acknowledged an order (from the stream or the insert response): release waiting cancels. */
  onAcknowledged(clordId: string): void {
    const released = this.options.ledger.takeAcknowledged(clordId);
    if (released === undefined) return;
    this.sendReleased(released);
    this.flush();
  }

  /** Queues what waited for an order's acknowledgement: its cancel, else its replace (terms from the order's record). */
  private sendReleased(released: ReleasedRequests): void {
    const { ledger } = this.options;
    // a cancel that waited for the ack of an order that ended meanwhile has nothing left to cancel (an explicit
    // cancel of an order held for finished still goes out: a reconciliation cancels such zombie orders)
    if (released.cancel) {
      if (blocker(ledger.stateOf(released.clordId)) !== 'finished') this.queueCancel(released.clordId);
      return;
    }
    if (released.replaceOf === undefined) return;
    const pending = ledger.pendingReplaceOf(released.replaceOf);
    if (pending === undefined) return; // the exchange or a failure already ended the replace
    this.replaces.queue({ clordId: released.replaceOf, newClordId: pending.clordId, price: pending.price, qty: pending.qty }, false);
  }

  /**
   * Cancels every working order (shutdown, halt) but those `skip` names (orders that cannot rest, whose
   * outcome is on its way: a cancel would only be answered "too late"), and drops every held one; resolves
   * when the venue answered.
   */
  async cancelAllOpen(skip: (clordId: string) => boolean = () => false): Promise<void> {
    for (const { clordId } of this.held.takeAll()) this.dropHeld(clordId);
    for (const clordId of this.options.ledger.openClordIds()) if (!skip(clordId)) this.queueCancel(clordId);
    // the shutdown's and the kill switch's cancels do not wait for the message budget
    this.flush(true);
    await this.idle();
  }

  /** Resolves when no venue call is in flight. */
  async idle(): Promise<void> {
    await this.calls.idle();
  }

  private queuePlace(intent: PlaceIntent, after: readonly string[]): void {
    const request = orderRequest(intent, this.options.defaultAccount, this.options.selfMatchPrevention);
    this.options.ledger.submitted(request, { intentId: intent.intentId, label: intent.label });
    const place = { intent, request };
    if (after.length === 0 || after.every((clordId) => blocker(this.options.ledger.stateOf(clordId)) === 'finished'))
      this.queue.add({ kind: 'place', place, intent });
    else this.held.hold({ clordId: intent.clordId, after, item: { kind: 'place', place } });
  }

  /** A replace that must wait for self-match cancels: PENDING_REPLACE now, sent once they are confirmed. */
  private holdReplace(intent: Approved<ReplaceIntent>, after: readonly string[]): void {
    if (this.options.ledger.symbolOf(intent.clordId) === undefined) return;
    this.options.ledger.replaceRequested(intent);
    this.held.hold({ clordId: intent.clordId, after, item: { kind: 'replace', intent } });
    this.onOrderChanged();
  }

  /** A held order that will not be sent after all (cancelled by the strategy, or the stop). */
  private dropHeld(clordId: string): void {
    const error = notSent(ExecutionErrorCode.CANCELLED_BEFORE_SENT, `order ${clordId} was cancelled before it was sent`, { clordId });
    const ledger = this.options.ledger;
    if (ledger.symbolOf(clordId) === undefined) return;
    const state = ledger.stateOf(clordId);
    if (state === 'PENDING_REPLACE') ledger.requestFailed?.(clordId, 'replace', error);
    else ledger.sendFailed(clordId, error);
  }

  private queueCancel(clordId: string, intent?: Intent): void {
    if (this.queue.hasCancel(clordId) || this.options.ledger.isCancelInFlight(clordId)) return;
    if (this.queue.removePlace(clordId) !== undefined) {
      this.options.ledger.sendFailed(
        clordId,
        notSent(ExecutionErrorCode.CANCELLED_BEFORE_SENT, `order ${clordId} was cancelled before it was sent`, { clordId }),
      );
      return;
    }
    const cross = this.queue.removeCrossWithLeg(clordId);
    if (cross !== undefined) {
      for (const leg of cross === undefined ? [] : [cross.buy, cross.sell]) {
        this.options.ledger.sendFailed(
          leg.clordId,
          notSent(ExecutionErrorCode.CANCELLED_BEFORE_SENT, `cross ${cross?.crossId ?? ''} was cancelled before it was sent`, {
            clordId: leg.clordId,
          }),
        );
      }
      return;
    }
    const held = this.held.take(clordId);
    if (held?.item.kind === 'place') {
      this.dropHeld(clordId);
      return;
    }
    if (held !== undefined) this.dropHeld(clordId); // a held replace: the order itself is cancelled below
    if (this.options.ledger.symbolOf(clordId) === undefined) return;
    this.dropQueuedReplaces(clordId);
    this.options.ledger.cancelRequested(clordId);
    if (this.options.ledger.orderIdOf(clordId) === undefined) {
      this.options.ledger.deferCancel(clordId);
      return;
    }
    this.queue.add({ kind: 'cancel', clordId, intent });
  }

  /** A replace queued in this step for an order being cancelled would only be rejected: it is not sent. */
  private dropQueuedReplaces(clordId: string): void {
    const orderId = this.options.ledger.orderIdOf(clordId);
    const r = orderId === undefined ? undefined : this.queue.removeReplace(orderId);
    if (r !== undefined) {
      this.options.ledger.requestFailed?.(
        r.origClordId,
        'replace',
        notSent(ExecutionErrorCode.CANCELLED_BEFORE_SENT, `replace of ${r.origClordId} dropped: the order is being cancelled`, {
          clordId: r.origClordId,
        }),
      );
    }
  }

  /** Makes the journal durable; the error when it cannot (then nothing that opens an order is sent). */
  private syncJournal(): unknown {
    try {
      this.options.journal?.sync();
      return undefined;
    } catch (error) {
      this.options.log.error({ err: error }, `order journal sync failed, requests not sent: ${describeError(error)}`);
      return error;
    }
  }

  private cancelRequests(clordIds: readonly string[]): VenueCancelRequest[] {
    const { ledger } = this.options;
    return clordIds.flatMap((clordId) => {
      const orderId = ledger.orderIdOf(clordId);
      const symbol = ledger.symbolOf(clordId);
      return orderId === undefined || symbol === undefined ? [] : [{ orderId, clordId, symbol }];
    });
  }

  /** A cross's two legs, as orders the ledger tracks from now on (PENDING_NEW, with the cross id). */
  private queueCross(intent: CrossIntent): void {
    const request = crossRequest(intent);
    for (const l of [request.buy, request.sell]) this.options.ledger.submitted(l, { intentId: intent.intentId, crossId: intent.crossId });
    this.queue.add({ kind: 'cross', cross: request, intent });
  }
}
