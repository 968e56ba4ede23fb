/**
 * The pipeline's writer of the order journal. As the execution adapter's SendJournal it records approved
 * intents and every request before it is sent (and syncs when the adapter asks); from the tracker's updates
 * it records what the exchange said about our orders: acknowledgements, executions, other settlements and
 * failed sends. Orders are "ours" when this run requested them or they were restored from the journal;
 * updates about anything else (orders of other sessions the tracker adopted) are not journaled.
 *
 * Appended lines are written (without fsync) in a microtask, so everything one engine step or one venue
 * answer produced goes out in one write(2) right after it; `sync` (before a send) writes and fsyncs at once.
 * Only `sync` throws (the adapter must not send then); any other journal failure is reported once through
 * `onFailure` (the pipeline halts trading) and later appends are dropped. At a clean stop `finish` writes
 * runStop and compacts the journal to a checkpoint plus the orders still open; the recorder is inert after.
 * With several strategies it also records each strategy's position as it changes (`holding`), and keeps the
 * latest of each (those the journal held at start included) for the compacted journal.
 */
import type { Clock } from '../clock.ts';
import type { Intent } from '../intents.ts';
import { isTerminal, type OrderUpdate, type TrackedOrder } from '../orders/index.ts';
import type { SendJournal } from '../execution/send-journal.ts';
import type { VenueCancelRequest, VenueCrossRequest, VenueOrderRequest, VenueReplaceRequest } from '../venue.ts';
import { describeError, isTradebotError } from '../../errors.ts';
import type { IdCounters, JournalEntry, OrderTerms } from './entries.ts';
import { JournalError, JournalErrorCode } from './errors.ts';
import type { Journal } from './journal.ts';
import type { RecoveredHolding, RecoveredJournal } from './rebuild.ts';
import { termsOf, termsOfTracked } from './terms.ts';

export interface JournalRecorderOptions {
  journal: Journal;
  clock: Clock;
  runId: string;
  /** What the journal held when the run started (its runIds, counters and open orders become this run's). */
  recovered: RecoveredJournal;
  /** The tracker's view of an order by any of its clordIds. */
  orderOf(clordId: string): TrackedOrder | undefined;
  /** The journal failed (write, fsync): called once; the pipeline stops trading. */
  onFailure(error: JournalError): void;
}

/**
 * What the recorder keeps per order of ours: the terms for compaction, the original and the latest clordId
 * (not every one: a quote replaced all day has thousands; the order id finds the order after a replace).
 */
interface OurOrder {
  readonly terms: OrderTerms;
  readonly crossId: string | undefined;
  readonly first: string;
  latest: string;
  orderId: string | undefined;
  orderIdJournaled: boolean;
}

const SEQ = /-(\d+)$/;

export class JournalRecorder implements SendJournal {
  private readonly journal: Journal;
  /** By the original and the latest clordId. */
  private readonly ours = new Map<string, OurOrder>();
  private readonly byOrderId = new Map<string, OurOrder>();
  private readonly counters: IdCounters;
  /** Each strategy's latest position, by strategy, account and symbol (compaction keeps those not flat). */
  private readonly holdings = new Map<string, RecoveredHolding>();
  private failed: JournalError | undefined;
  private flushQueued = false;
  private finished = false;

  constructor(private readonly options: JournalRecorderOptions) {
    this.journal = options.journal;
    this.counters = { ...options.recovered.counters };
    for (const order of options.recovered.open) {
      const latest = order.clordIds.at(-1) ?? order.clordId;
      const ours: OurOrder = {
        terms: order.terms,
        crossId: order.crossId,
        first: order.clordId,
        latest,
        orderId: order.orderId,
        orderIdJournaled: order.orderId !== undefined,
      };
      this.ours.set(order.clordId, ours);
      this.ours.set(latest, ours);
      if (order.orderId !== undefined) this.byOrderId.set(order.orderId, ours);
    }
    for (const held of options.recovered.holdings) this.holdings.set(holdingKey(held), held);
  }

  /** Writes the runStart line (durable: the runId must never be reused). */
  start(): void {
    this.append({ type: 'runStart', time: this.now(), runId: this.options.runId });
    this.sync();
  }

  /** True for an order this run requested or restored. */
  isOurs(order: TrackedOrder): boolean {
    return this.find(order) !== undefined;
  }

  // ---- SendJournal ----

  approved(intent: Intent): void {
    this.bump('intents', intent.intentId);
    const base = { type: 'intent' as const, time: this.now(), intentId: intent.intentId, kind: intent.kind, strategy: intent.strategy };
    switch (intent.kind) {
      case 'place':
        this.append({
          ...base,
          symbol: intent.symbol,
          clordId: intent.clordId,
          ...(intent.label === undefined ? {} : { label: intent.label }),
        });
        return;
      case 'cancel':
        this.append({ ...base, clordId: intent.clordId });
        return;
      case 'replace':
        this.append({ ...base, clordId: intent.clordId, newClordId: intent.newClordId });
        return;
      case 'cancelAll':
        this.append({ ...base, ...(intent.symbol === undefined ? {} : { symbol: intent.symbol }) });
        return;
      case 'cross':
        this.append({ ...base, symbol: intent.symbol, crossId: intent.crossId });
        return;
    }
  }

  inserting(requests: readonly VenueOrderRequest[]): void {
    for (const request of requests) {
      const terms = termsOf(request);
      this.remember(request.clordId, terms, undefined);
      this.append({ type: 'request', kind: 'insert', time: this.now(), clordId: request.clordId, terms });
    }
  }

  cancelling(requests: readonly VenueCancelRequest[]): void {
    for (const request of requests) {
      const account = this.options.orderOf(request.clordId)?.account;
      this.append({
        type: 'request',
        kind: 'cancel',
        time: this.now(),
        clordId: request.clordId,
        orderId: request.orderId,
        symbol: request.symbol,
        ...(account === undefined ? {} : { account }),
      });
    }
  }

  replacing(origClordId: string, request: VenueReplaceRequest): void {
    this.bump('orders', request.clordId);
    const order = this.options.orderOf(origClordId);
    const ours = this.byOrderId.get(request.orderId) ?? this.ours.get(origClordId) ?? (order === undefined ? undefined : this.find(order));
    if (ours !== undefined && ours.latest !== request.clordId) {
      if (ours.latest !== ours.first) this.ours.delete(ours.latest);
      ours.latest = request.clordId;
      this.ours.set(request.clordId, ours);
      this.learnOrderId(ours, request.orderId);
    }
    this.append({
      type: 'request',
      kind: 'replace',
      time: this.now(),
      clordId: request.clordId,
      origClordId,
      orderId: request.orderId,
      symbol: request.symbol,
      ...(order === undefined ? {} : { account: order.account, side: order.side }),
      ...(request.qty === undefined ? {} : { qty: request.qty.toString() }),
      ...(request.price === undefined ? {} : { price: request.price.toString() }),
    });
  }

  crossing(request: VenueCrossRequest): void {
    this.bump('crosses', request.crossId);
    for (const leg of [request.buy, request.sell]) {
      const terms = termsOf(leg);
      this.remember(leg.clordId, terms, request.crossId);
      this.append({
        type: 'request',
        kind: 'cross',
        time: this.now(),
        clordId: leg.clordId,
        crossId: request.crossId,
        allOrNone: request.allOrNone,
        terms,
      });
    }
  }

  sync(): void {
    if (this.failed !== undefined) throw this.failed;
    try {
      this.journal.sync();
    } catch (error) {
      throw this.fail(error);
    }
  }

  // ---- pipeline hooks ----

  /** A strategy's position changed (several strategies): journaled when its quantity or cost differs from the last. */
  holding(held: RecoveredHolding): void {
    const key = holdingKey(held);
    const last = this.holdings.get(key);
    if (last !== undefined && last.qty.eq(held.qty) && last.cost.eq(held.cost)) return;
    if (last === undefined && held.qty.isZero() && held.cost.isZero()) return;
    this.holdings.set(key, held);
    const { strategy, account, symbol } = held;
    this.append({ type: 'holding', time: this.now(), strategy, account, symbol, qty: held.qty.toString(), cost: held.cost.toString() });
  }

  /** Writes what was appended, without waiting for the disk (also done by itself right after appends). */
  flush(): void {
    if (this.failed !== undefined || this.finished) return;
    try {
      this.journal.flush();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Journals what an OrderTracker update says about one of our orders (forgotten once the exchange closed it). */
  onUpdate(update: OrderUpdate): void {
    const order = update.order;
    const ours = this.find(order);
    if (ours === undefined) return;
    this.journalUpdate(update, ours);
    // only the exchange's word is final: a terminal state set locally yields to later exchange evidence
    if (isTerminal(order.state) && update.cause.kind === 'execution') this.forget(ours);
  }

  private journalUpdate(update: OrderUpdate, ours: OurOrder): void {
    const order = update.order;
    const time = this.now();
    const cause = update.cause;
    const clordId = order.clordId;
    const progress = { cumQty: order.filledQty.toString(), avgPx: order.avgPx.toString(), state: order.state };
    const orderId = order.orderId;
    if (orderId !== undefined) this.learnOrderId(ours, orderId);
    if (cause.kind === 'execution') {
      ours.orderIdJournaled ||= orderId !== undefined;
      this.append({
        type: 'execution',
        time,
        executionId: cause.executionId,
        executionType: cause.executionType,
        clordId,
        ...(orderId === undefined ? {} : { orderId }),
        ...progress,
      });
      return;
    }
    if (orderId !== undefined && !ours.orderIdJournaled && cause.kind !== 'restored') {
      ours.orderIdJournaled = true;
      this.append({ type: 'ack', time, clordId: ours.first, orderId });
    }
    if (cause.kind === 'sendFailed' && (order.state === 'REJECTED' || order.state === 'UNKNOWN')) {
      const code = isTradebotError(cause.error) ? cause.error.code : undefined;
      this.append({
        type: 'sendFailed',
        time,
        clordId,
        state: order.state,
        message: describeError(cause.error),
        ...(code === undefined ? {} : { code }),
      });
      return;
    }
    const settledBy = cause.kind === 'lookup' || cause.kind === 'snapshot' || cause.kind === 'cancelReject' ? cause.kind : undefined;
    const newlyTerminal = isTerminal(order.state) && (update.previousState === undefined || !isTerminal(update.previousState));
    if (settledBy !== undefined && (newlyTerminal || cause.kind === 'lookup')) {
      this.append({ type: 'resolved', time, clordId, cause: settledBy, ...(orderId === undefined ? {} : { orderId }), ...progress });
    }
  }

  /** Clean stop: runStop, then the journal compacted to a checkpoint and `open` (our orders still open). */
  async finish(open: readonly TrackedOrder[]): Promise<void> {
    if (this.failed !== undefined || this.finished) return;
    const mine = open.filter((order) => this.isOurs(order));
    const time = this.now();
    this.append({ type: 'runStop', time, runId: this.options.runId, openOrders: mine.length });
    this.sync();
    const runIds = [...new Set([...this.options.recovered.runIds, this.options.runId])];
    const entries: JournalEntry[] = [{ type: 'checkpoint', time, runIds, counters: { ...this.counters } }];
    for (const { strategy, account, symbol, qty, cost } of this.holdings.values()) {
      if (!qty.isZero()) entries.push({ type: 'holding', time, strategy, account, symbol, qty: qty.toString(), cost: cost.toString() });
    }
    for (const order of mine) {
      const ours = this.find(order);
      const clordIds = [
        ...new Set([
          ours?.first ?? order.clordId,
          order.clordId,
          ...(order.pendingReplace === undefined ? [] : [order.pendingReplace.clordId]),
        ]),
      ];
      entries.push({
        type: 'open',
        time,
        clordIds,
        ...(order.orderId === undefined ? {} : { orderId: order.orderId }),
        ...(ours?.crossId === undefined ? {} : { crossId: ours.crossId }),
        terms: ours?.terms ?? termsOfTracked(order),
        cumQty: order.filledQty.toString(),
        avgPx: order.avgPx.toString(),
        state: order.state,
        ...(order.intentId === undefined ? {} : { intentId: order.intentId }),
        ...(order.label === undefined ? {} : { label: order.label }),
      });
    }
    this.finished = true;
    await this.journal.compact(entries);
  }

  // ---- internals ----

  /** By order id, then current, pending-replace and original clordId (never by scanning the whole chain). */
  private find(order: TrackedOrder): OurOrder | undefined {
    const byId = order.orderId === undefined ? undefined : this.byOrderId.get(order.orderId);
    if (byId !== undefined) return byId;
    const byClordId =
      this.ours.get(order.clordId) ?? (order.pendingReplace === undefined ? undefined : this.ours.get(order.pendingReplace.clordId));
    if (byClordId !== undefined || order.orderId !== undefined) return byClordId;
    const first = order.clordIds[0];
    return first === undefined ? undefined : this.ours.get(first);
  }

  private forget(ours: OurOrder): void {
    this.ours.delete(ours.first);
    this.ours.delete(ours.latest);
    if (ours.orderId !== undefined) this.byOrderId.delete(ours.orderId);
  }

  private learnOrderId(ours: OurOrder, orderId: string): void {
    if (ours.orderId !== undefined || orderId === '') return;
    ours.orderId = orderId;
    this.byOrderId.set(orderId, ours);
  }

  private remember(clordId: string, terms: OrderTerms, crossId: string | undefined): void {
    this.bump('orders', clordId);
    if (!this.ours.has(clordId))
      this.ours.set(clordId, { terms, crossId, first: clordId, latest: clordId, orderId: undefined, orderIdJournaled: false });
  }

  private bump(counter: keyof IdCounters, id: string): void {
    const match = SEQ.exec(id);
    const n = match === null ? 0 : Number.parseInt(match[1] ?? '0', 10);
    if (Number.isSafeInteger(n) && n > this.counters[counter]) this.counters[counter] = n;
  }

  private append(entry: JournalEntry): void {
    if (this.failed !== undefined || this.finished) return;
    try {
      this.journal.append(entry);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  private fail(error: unknown): JournalError {
    if (this.failed !== undefined) return this.failed;
    this.failed =
      error instanceof JournalError
        ? error
        : new JournalError(JournalErrorCode.WRITE_FAILED, `order journal ${this.journal.description}: ${describeError(error)}`, {
            cause: error,
          });
    this.options.onFailure(this.failed);
    return this.failed;
  }

  private now(): number {
    return Math.floor(this.options.clock.now());
  }
}

function holdingKey(held: { readonly strategy: string; readonly account: string; readonly symbol: string }): string {
  return JSON.stringify([held.strategy, held.account, held.symbol]);
}
