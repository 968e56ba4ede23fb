/**
 * What the execution adapter has queued but not handed to the venue yet, over the message throttle
 * (throttle.ts): places, cancels, replaces and crosses, each keyed by what makes a later one supersede it
 * (a place and a cancel by client order id, a replace by the order's exchange id, a cross by its id). `take`
 * sorts a flush's batch by kind (cancels, replaces, places, crosses) within the message budget; what the
 * budget leaves waits for the next drain. Items carry the strategy's intent when there is one, so the
 * strategy can be told that it waits (`pending`), then `sent`, `superseded` or refused.
 */
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { Clock } from '../clock.ts';
import { ExecutionErrorCode, notSent } from './errors.ts';
import type { ExecutionLedger } from './ledger.ts';
import type { CrossIntent, Intent, PlaceIntent } from '../intents.ts';
import type { VenueCrossRequest, VenueOrderRequest } from '../venue.ts';
import { ThrottleQueue, type ThrottleKind, type ThrottleLimits } from './throttle.ts';
import type { QueuedReplace } from './venue-calls.ts';
import { RenewingSet } from '../../util/renewing-collections.ts';

export type QueuedPlace = { intent: PlaceIntent; request: VenueOrderRequest };

/** One request waiting to be sent; `intent`: the strategy's intent it came from (absent: the engine's own). */
export type SendItem =
  | { readonly kind: 'place'; readonly place: QueuedPlace; readonly intent: Intent | undefined }
  | { readonly kind: 'cancel'; readonly clordId: string; readonly intent: Intent | undefined }
  | { readonly kind: 'replace'; readonly replace: QueuedReplace; readonly intent: Intent | undefined }
  | { readonly kind: 'cross'; readonly cross: VenueCrossRequest; readonly intent: CrossIntent | undefined };

/** What became of a queued strategy intent that had to wait, or was refused by the throttle. */
export type ThrottleOutcome =
  | { readonly status: 'pending' | 'sent' | 'superseded'; readonly intent: Intent; readonly time: number }
  | { readonly status: 'refused'; readonly intent: Intent; readonly time: number; readonly reason: string };

export interface SendQueueOptions {
  readonly limits: ThrottleLimits | undefined;
  /** The engine clock (only needed with limits). */
  readonly clock: Clock | undefined;
  readonly onOutcome: ((outcome: ThrottleOutcome) => void) | undefined;
  /** Several strategies (#25): the strategy of a client order id, and its own message budget per second. */
  readonly fairness?: { groupOf(clordId: string): string; limitOf(group: string): number | undefined } | undefined;
}

/** The client order id an item's strategy is known by (a place's, a cancel's, a replace's order, a cross's buy leg). */
function clordIdOf(item: SendItem): string {
  switch (item.kind) {
    case 'place':
      return item.place.request.clordId;
    case 'cancel':
      return item.clordId;
    case 'replace':
      return item.replace.origClordId;
    case 'cross':
      return item.cross.buy.clordId;
  }
}

/** No expired items (most takes): one shared empty list. */
const NOTHING: readonly SendItem[] = Object.freeze([]);

export interface SendBatch {
  readonly places: QueuedPlace[];
  readonly cancels: string[];
  readonly replaces: QueuedReplace[];
  readonly crosses: VenueCrossRequest[];
  /** Waited past maxQueueAgeMs: the adapter fails them (not sent) and they are reported refused. */
  readonly expired: readonly SendItem[];
  /** Waited and go out now: reported `sent` once sent. */
  readonly sentAfterWaiting: readonly SendItem[];
  /** Left waiting by this flush for the first time: reported `pending`. */
  readonly nowWaiting: readonly SendItem[];
}

function keyOf(item: SendItem): string {
  switch (item.kind) {
    case 'place':
      return item.place.request.clordId;
    case 'cancel':
      return item.clordId;
    case 'replace':
      return item.replace.request.orderId;
    case 'cross':
      return item.cross.crossId;
  }
}

const EXPIRED_REASON = 'it waited longer than risk.maxQueueAgeMs for the message budget (risk.maxMessagesPerSecond); nothing was sent';

/** Requests that waited past maxQueueAgeMs: not sent, their orders told so (the strategy hears a refusal). */
export function failExpired(ledger: ExecutionLedger, log: Logger, expired: readonly SendItem[]): void {
  for (const item of expired) {
    const clordId = item.kind === 'place' ? item.place.request.clordId : item.kind === 'replace' ? item.replace.origClordId : undefined;
    const error = notSent(ExecutionErrorCode.THROTTLE_EXPIRED, `${item.kind} not sent: ${EXPIRED_REASON}`, { clordId });
    log.debug({ kind: item.kind, clordId }, error.message);
    if (item.kind === 'place') ledger.sendFailed(item.place.request.clordId, error);
    else if (item.kind === 'replace') ledger.requestFailed?.(item.replace.origClordId, 'replace', error);
    else if (item.kind === 'cross') for (const leg of [item.cross.buy, item.cross.sell]) ledger.sendFailed(leg.clordId, error);
  }
}

export class SendQueue {
  private readonly queue: ThrottleQueue<SendItem>;
  /** Strategy intents reported pending, by intent id (so `sent`/`superseded` follow only for those). */
  private readonly waiting = new RenewingSet<string>();
  private drainScheduled: { at: number; subscription: Subscription } | undefined;

  constructor(private readonly options: SendQueueOptions) {
    const fair = options.fairness;
    this.queue = new ThrottleQueue(
      options.limits,
      undefined,
      fair === undefined ? undefined : { groupOf: (item) => fair.groupOf(clordIdOf(item)), limitOf: (group) => fair.limitOf(group) },
    );
  }

  get size(): number {
    return this.queue.size;
  }

  get throttled(): boolean {
    return this.options.limits !== undefined;
  }

  /**
   * Why a new order or replace must be refused now (the queue holds maxQueuedMessages), or undefined.
   * `replaceOf`: the order's exchange id for a replace (a replace superseding a queued one is never refused).
   */
  fullFor(kind: 'place' | 'cross' | 'replace', replaceOf?: string): string | undefined {
    const limits = this.options.limits;
    if (limits === undefined || this.queue.size < limits.maxQueued) return undefined;
    if (kind === 'replace' && replaceOf !== undefined && this.queue.find('replace', replaceOf) !== undefined) return undefined;
    return `${this.queue.size} requests already wait for the message budget (risk.maxQueuedMessages ${limits.maxQueued})`;
  }

  /** Queues an item (never refused here: the bound is checked before an intent is taken on, `fullFor`). */
  add(item: SendItem): void {
    const result = this.queue.offer(item.kind, keyOf(item), item, this.now());
    if (result.accepted && result.superseded !== undefined) this.superseded(result.superseded.item);
  }

  findPlace(clordId: string): QueuedPlace | undefined {
    const item = this.queue.find('place', clordId);
    return item?.kind === 'place' ? item.place : undefined;
  }

  hasCancel(clordId: string): boolean {
    return this.queue.find('cancel', clordId) !== undefined;
  }

  findReplace(orderId: string): QueuedReplace | undefined {
    const item = this.queue.find('replace', orderId);
    return item?.kind === 'replace' ? item.replace : undefined;
  }

  /** Takes out a queued place (a cancel made it pointless): reported superseded. */
  removePlace(clordId: string): QueuedPlace | undefined {
    const entry = this.queue.remove('place', clordId);
    if (entry === undefined || entry.item.kind !== 'place') return undefined;
    this.superseded(entry.item);
    return entry.item.place;
  }

  /** Takes out the queued cross with this leg: reported superseded. */
  removeCrossWithLeg(clordId: string): VenueCrossRequest | undefined {
    const [entry] = this.queue.removeWhere(
      'cross',
      (i) => i.kind === 'cross' && (i.cross.buy.clordId === clordId || i.cross.sell.clordId === clordId),
    );
    if (entry === undefined || entry.item.kind !== 'cross') return undefined;
    this.superseded(entry.item);
    return entry.item.cross;
  }

  /** Takes out the queued replace of an order (cancelled, or merged into a newer one): reported superseded. */
  removeReplace(orderId: string): QueuedReplace | undefined {
    const entry = this.queue.remove('replace', orderId);
    if (entry === undefined || entry.item.kind !== 'replace') return undefined;
    this.superseded(entry.item);
    return entry.item.replace;
  }

  /** A flush's batch within the budget (`force`: everything, the stop's cancels), sorted by kind. */
  take(force: boolean): SendBatch {
    const now = this.now();
    const { send, expired, nowWaiting } = this.queue.take(now, force);
    const sentAfterWaiting: SendItem[] = [];
    const waitingNow: SendItem[] = [];
    const expiredItems = expired.length === 0 ? NOTHING : expired.map((e) => e.item);
    const batch: SendBatch = {
      places: [],
      cancels: [],
      replaces: [],
      crosses: [],
      expired: expiredItems,
      sentAfterWaiting,
      nowWaiting: waitingNow,
    };
    for (const { item } of send) {
      if (item.intent !== undefined && this.waiting.delete(item.intent.intentId)) sentAfterWaiting.push(item);
      if (item.kind === 'place') batch.places.push(item.place);
      else if (item.kind === 'cancel') batch.cancels.push(item.clordId);
      else if (item.kind === 'replace') batch.replaces.push(item.replace);
      else batch.crosses.push(item.cross);
    }
    for (const item of expiredItems) if (item.intent !== undefined) this.waiting.delete(item.intent.intentId);
    for (const { item } of nowWaiting) {
      if (item.intent === undefined || this.waiting.has(item.intent.intentId)) continue;
      this.waiting.add(item.intent.intentId);
      waitingNow.push(item);
    }
    return batch;
  }

  /** While requests wait, one `drain` is scheduled on the engine clock for when the budget frees a slot. */
  scheduleDrain(drain: () => void): void {
    const clock = this.options.clock;
    const at = this.queue.nextDrainAt(this.now());
    if (clock === undefined || at === undefined) return;
    if (this.drainScheduled !== undefined && this.drainScheduled.at <= at) return;
    this.drainScheduled?.subscription.unsubscribe();
    const subscription = clock.scheduler.schedule(
      () => {
        this.drainScheduled = undefined;
        drain();
        this.scheduleDrain(drain);
      },
      Math.max(0, at - clock.now()),
    );
    this.drainScheduled = { at, subscription };
  }

  /** Tells the strategy what happened to its waiting intents (after the batch was handed to the venue). */
  report(batch: SendBatch): void {
    const onOutcome = this.options.onOutcome;
    if (onOutcome === undefined) return;
    const time = this.now();
    for (const item of batch.nowWaiting) if (item.intent !== undefined) onOutcome({ status: 'pending', intent: item.intent, time });
    for (const item of batch.sentAfterWaiting) if (item.intent !== undefined) onOutcome({ status: 'sent', intent: item.intent, time });
    for (const item of batch.expired) {
      if (item.intent !== undefined) onOutcome({ status: 'refused', intent: item.intent, time, reason: EXPIRED_REASON });
    }
  }

  private now(): number {
    return this.options.clock?.now() ?? 0;
  }

  /** Reported whether or not it waited: a later call of the same callback can supersede an intent before any flush. */
  private superseded(item: SendItem): void {
    const intent = item.intent;
    if (intent === undefined) return;
    this.waiting.delete(intent.intentId);
    this.options.onOutcome?.({ status: 'superseded', intent, time: this.now() });
  }
}

export type { ThrottleKind };
