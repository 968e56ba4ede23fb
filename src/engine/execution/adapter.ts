/**
 * The execution adapter: the only code that calls a Venue, and it takes only risk-approved intents.
 * Places, cancels and replaces collected during one engine step are sent together as `*_list` calls of at
 * most 20 (cancels first); cancels and replaces of orders whose exchange id is not known yet wait for the
 * acknowledgement; an order approved behind self-match cancels (risk `selfMatch.action: cancelResting`) is
 * held until those resting orders are confirmed finished (held-orders.ts); a failed insert is
 * reported so the order is not left pending, and an order whose cancel is in flight is not cancelled again (a
 * strategy's cancelAll at stop followed by the engine's own would double every cancel). Retries of inserts
 * happen below, in the client, with the same client order id (so a retry can never create a second order).
 * Venue calls and their answers are in venue-calls.ts. `cancelAllOpen` cancels on shutdown. With a
 * `journal` (write-ahead, see send-journal.ts) every request is recorded and made durable before its venue
 * call leaves: once per flush for everything the step sends.
 */
import type { Logger } from 'pino';
import { MAX_LIST_REQUESTS } from '../../domain/limits.ts';
import type { Approved } from '../risk/verdict.ts';
import type { CancelAllIntent, CrossIntent, Intent, PlaceIntent, ReplaceIntent } from '../intents.ts';
import type { Venue, VenueCancelRequest, VenueCrossRequest, VenueOrderRequest } from '../venue.ts';
import { describeError } from '../../errors.ts';
import type { SubmissionMeta, TrackedState } from '../orders/index.ts';
import type { SendJournal } from './send-journal.ts';
import { ExecutionErrorCode, notSent } from './errors.ts';
import { HeldOrders, type Blocker } from './held-orders.ts';
import { crossRequest, orderRequest } from './requests.ts';
import { VenueCalls, type QueuedReplace } from './venue-calls.ts';

/** What the adapter needs from the order tracker. */
export interface ExecutionLedger {
  /** An order (a place, or a cross leg) is being sent: track it from now on. */
  submitted(request: VenueOrderRequest, meta: SubmissionMeta): void;
  acknowledged(clordId: string, orderId: string): void;
  sendFailed(clordId: string, error: unknown): void;
  cancelRequested(clordId: string): void;
  replaceRequested(intent: ReplaceIntent): void;
  /** A cancel or replace call failed: the order is no longer pending that request. */
  requestFailed?(clordId: string, request: 'cancel' | 'replace', error: unknown): void;
  /**
   * The client order id the order goes by until a replace of it is confirmed (what its acknowledgement
   * names), for any id it has had or is being given; absent: `clordId` itself.
   */
  currentClordIdOf?(clordId: string): string | undefined;
  orderIdOf(clordId: string): string | undefined;
  symbolOf(clordId: string): string | undefined;
  /** Working orders (incl. pending) as clordIds, optionally for one symbol. */
  openClordIds(symbol?: string): readonly string[];
  /** The order's tracked state; undefined when the order is not (or no longer) tracked. */
  stateOf(clordId: string): TrackedState | undefined;
}

export interface ExecutionAdapterOptions {
  venue: Venue;
  ledger: ExecutionLedger;
  log: Logger;
  defaultAccount: string;
  selfMatchPrevention: VenueOrderRequest['selfMatchPreventionInstruction'];
  /** Called after every venue call settles, with counts for metrics and the status line. */
  onSent?(kind: 'insert' | 'cancel' | 'replace' | 'cross', count: number): void;
  /** Write-ahead journal of requests (the order journal); absent: nothing is recorded. */
  journal?: SendJournal;
}

type QueuedPlace = { intent: PlaceIntent; request: VenueOrderRequest };
type WaitingForAck = { cancel: boolean; replace: Approved<ReplaceIntent> | undefined };
/** What waits for self-match cancels: a place (already tracked as PENDING_NEW) or a replace (PENDING_REPLACE). */
type HeldItem = { kind: 'place'; place: QueuedPlace } | { kind: 'replace'; intent: Approved<ReplaceIntent> };

/** A resting order a held order waits for: finished (or forgotten), cancel in flight or outcome unknown, or working. */
function blocker(state: TrackedState | undefined): Blocker {
  if (state === undefined || state === 'FILLED' || state === 'CANCELED' || state === 'REJECTED' || state === 'EXPIRED') return 'finished';
  return state === 'PENDING_CANCEL' || state === 'UNKNOWN' ? 'cancelling' : 'working';
}

export class ExecutionAdapter {
  private places: QueuedPlace[] = [];
  private cancels: string[] = [];
  private crosses: VenueCrossRequest[] = [];
  private replaces: QueuedReplace[] = [];
  private readonly waitingForAck = new Map<string, WaitingForAck>();
  private readonly calls: VenueCalls;
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
        this.queueCancel(intent.clordId);
        break;
      case 'replace':
        if (after.length > 0) this.holdReplace(approved as Approved<ReplaceIntent>, after);
        else this.queueReplace(approved as Approved<ReplaceIntent>);
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
  flush(): void {
    // every engine step ends here, most with nothing queued: then there is nothing to swap or send
    if (this.places.length === 0 && this.cancels.length === 0 && this.replaces.length === 0 && this.crosses.length === 0) return;
    const places = this.places;
    this.places = [];
    const cancels = this.cancelRequests(this.cancels);
    this.cancels = [];
    const replaces = this.replaces;
    this.replaces = [];
    const crosses = this.crosses;
    this.crosses = [];
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
    return this.waitingForAck.size > 0 || this.held.size > 0;
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
    for (const clordId of [...this.waitingForAck.keys()]) {
      if (ledger.orderIdOf(clordId) !== undefined) this.onAcknowledged(clordId);
      else if (blocker(ledger.stateOf(clordId)) === 'finished') this.waitingForAck.delete(clordId);
    }
    if (this.held.size === 0) return;
    const { released, dropped } = this.held.settle((clordId) => blocker(ledger.stateOf(clordId)));
    for (const { held, working } of dropped) {
      const error = notSent(
        ExecutionErrorCode.SELF_MATCH_CANCEL_FAILED,
        `${held.item.kind} of ${held.clordId} not sent: the bot's own order ${working} it would trade against is still working (its self-match cancel failed); decide again`,
        { clordId: held.clordId, resting: working },
      );
      this.options.log.info({ clordId: held.clordId, resting: working }, error.message);
      if (held.item.kind === 'place') ledger.sendFailed(held.clordId, error);
      else ledger.requestFailed?.(held.clordId, 'replace', error);
    }
    for (const { item } of released) {
      if (item.kind === 'place') this.places.push(item.place);
      else this.queueReplace(item.intent, false);
    }
    if (released.length > 0) this.flush();
  }

  /** The exchange acknowledged an order (from the stream or the insert response): release waiting cancels. */
  onAcknowledged(clordId: string): void {
    const waiting = this.waitingForAck.get(clordId);
    if (waiting === undefined) return;
    this.waitingForAck.delete(clordId);
    // a cancel that waited for the ack of an order that ended meanwhile has nothing left to cancel (an explicit
    // cancel of an order held for finished still goes out: a reconciliation cancels such zombie orders)
    if (waiting.cancel && blocker(this.options.ledger.stateOf(clordId)) !== 'finished') this.queueCancel(clordId);
    else if (!waiting.cancel && waiting.replace !== undefined) this.queueReplace(waiting.replace, false);
    this.flush();
  }

  /**
   * Cancels every working order (shutdown, halt) but those `skip` names (orders that cannot rest, whose
   * outcome is on its way: a cancel would only be answered "too late"), and drops every held one; resolves
   * when the venue answered.
   */
  async cancelAllOpen(skip: (clordId: string) => boolean = () => false): Promise<void> {
    for (const { clordId } of this.held.takeAll()) this.dropHeld(clordId);
    for (const clordId of this.options.ledger.openClordIds()) if (!skip(clordId)) this.queueCancel(clordId);
    this.flush();
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
      this.places.push(place);
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

  private queueCancel(clordId: string): void {
    if (this.cancels.includes(clordId) || this.calls.isCancelling(clordId)) return;
    const pendingPlace = this.places.findIndex((p) => p.intent.clordId === clordId);
    if (pendingPlace >= 0) {
      this.places.splice(pendingPlace, 1);
      this.options.ledger.sendFailed(
        clordId,
        notSent(ExecutionErrorCode.CANCELLED_BEFORE_SENT, `order ${clordId} was cancelled before it was sent`, { clordId }),
      );
      return;
    }
    const pendingCross = this.crosses.findIndex((c) => c.buy.clordId === clordId || c.sell.clordId === clordId);
    if (pendingCross >= 0) {
      const [cross] = this.crosses.splice(pendingCross, 1);
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
      this.waitFor(this.options.ledger.currentClordIdOf?.(clordId) ?? clordId).cancel = true;
      return;
    }
    this.cancels.push(clordId);
  }

  /** A replace queued in this step for an order being cancelled would only be rejected: it is not sent. */
  private dropQueuedReplaces(clordId: string): void {
    const orderId = this.options.ledger.orderIdOf(clordId);
    if (orderId === undefined || !this.replaces.some((r) => r.request.orderId === orderId)) return;
    const dropped = this.replaces.filter((r) => r.request.orderId === orderId);
    this.replaces = this.replaces.filter((r) => r.request.orderId !== orderId);
    for (const r of dropped) {
      this.options.ledger.requestFailed?.(
        r.origClordId,
        'replace',
        notSent(ExecutionErrorCode.CANCELLED_BEFORE_SENT, `replace of ${r.origClordId} dropped: the order is being cancelled`, {
          clordId: r.origClordId,
        }),
      );
    }
  }

  /** What waits for the order's acknowledgement: a cancel, and the latest replace (it supersedes an earlier one). */
  private waitFor(clordId: string): WaitingForAck {
    let waiting = this.waitingForAck.get(clordId);
    if (waiting === undefined) {
      waiting = { cancel: false, replace: undefined };
      this.waitingForAck.set(clordId, waiting);
    }
    return waiting;
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

  /**
   * `tellLedger`: record the replace request (false when it was recorded when the replace started waiting).
   * Not sent for an order already finished (a replace that waited for the ack of an order that filled
   * meanwhile) or UNKNOWN (a cancel or replace of it was just refused as too late: it has almost surely
   * ended and its execution is on the way): the exchange would only refuse it.
   */
  private queueReplace(intent: Approved<ReplaceIntent>, tellLedger = true): void {
    const { ledger } = this.options;
    const orderId = ledger.orderIdOf(intent.clordId);
    const symbol = ledger.symbolOf(intent.clordId);
    if (symbol === undefined) return;
    const state = ledger.stateOf(intent.clordId);
    if (blocker(state) === 'finished' || state === 'UNKNOWN') {
      this.options.log.debug({ clordId: intent.clordId, state }, 'replace not sent: the order is finished or its state is unknown');
      if (!tellLedger)
        ledger.requestFailed?.(
          intent.clordId,
          'replace',
          notSent(
            ExecutionErrorCode.ORDER_NOT_WORKING,
            `replace of ${intent.clordId} not sent: the order is ${state ?? 'no longer tracked'}`,
            { clordId: intent.clordId },
          ),
        );
      return;
    }
    if (orderId === undefined) {
      // waits for the acknowledgement; a later replace (by any id of the order) takes over an earlier waiting
      // one, keeping the changes it does not make itself, and the earlier one is failed as merged
      const waiting = this.waitFor(ledger.currentClordIdOf?.(intent.clordId) ?? intent.clordId);
      const earlier = waiting.replace;
      const merged: Approved<ReplaceIntent> =
        earlier === undefined
          ? intent
          : { ...intent, clordId: earlier.clordId, price: intent.price ?? earlier.price, qty: intent.qty ?? earlier.qty };
      if (earlier !== undefined) {
        ledger.requestFailed?.(
          earlier.clordId,
          'replace',
          notSent(
            ExecutionErrorCode.REPLACE_MERGED,
            `replace ${earlier.newClordId} of ${earlier.clordId} merged into the later replace ${intent.newClordId}: one replace is sent once the order is acknowledged`,
            { clordId: earlier.clordId, newClordId: earlier.newClordId, mergedInto: intent.newClordId },
          ),
        );
      }
      if (tellLedger) ledger.replaceRequested(merged);
      waiting.replace = merged;
      return;
    }
    if (tellLedger) ledger.replaceRequested(intent);
    this.replaces.push({
      origClordId: intent.clordId,
      request: { orderId, symbol, clordId: intent.newClordId, qty: intent.qty, price: intent.price },
    });
  }

  /** A cross's two legs, as orders the ledger tracks from now on (PENDING_NEW, with the cross id). */
  private queueCross(intent: CrossIntent): void {
    const request = crossRequest(intent);
    for (const l of [request.buy, request.sell]) this.options.ledger.submitted(l, { intentId: intent.intentId, crossId: intent.crossId });
    this.crosses.push(request);
  }
}
