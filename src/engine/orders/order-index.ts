/**
 * Lookup tables of the tracker: records by every clordId they have had (current, old aliases and pending
 * replace targets), by exchange order id, the set of open records (kept current with `refresh`, so `open()`
 * does not scan closed history), and a bounded history of finished ones.
 *
 * Memory stays bounded however long the run: once more than `maxFinished` finished orders are kept, the
 * oldest finished one is forgotten (its clordIds and order id dropped from the tables). Its order id (its
 * first clordId when it never got one) is remembered in a bounded set of tombstones (`maxTombstones`, by
 * default ten per finished order kept), so evidence that still
 * arrives for it is recognised as late rather than taken for an unknown order (see OrderTracker). Never
 * forgotten: open orders. Orders closed only locally while the exchange knew them (a lookup that did not
 * find them) are kept apart, since exchange evidence for those still counts: they join the finished history
 * once the exchange confirms the end, and beyond `maxFinished` of them the oldest is forgotten too.
 */
import { LruSet } from '../../util/lru-set.ts';
import { RenewingMap, RenewingSet } from '../../util/renewing-collections.ts';
import { isOpen } from './states.ts';
import type { OrderRecord } from './record.ts';

/** Finished orders kept by default (the most recent ones): enough for any late cancel reject or lookup. */
export const DEFAULT_FINISHED_ORDER_HISTORY = 10_000;

/** Finished means the exchange said so, or the exchange never had the order. */
function forgettable(record: OrderRecord): boolean {
  return !isOpen(record.state()) && (!record.baseIsLocal || record.orderId === undefined);
}

export class OrderIndex {
  private readonly byClord = new RenewingMap<string, OrderRecord>();
  /**
   * The last clordId looked up and its answer: one order is asked for several times in a row (its order
   * id, symbol and state, then the change itself), and each lookup of a fresh id string in a large table
   * misses the cache. Forgotten whenever byClord changes.
   */
  private lastClordId: string | undefined = undefined;
  private lastByClord: OrderRecord | undefined = undefined;
  private readonly byOrder = new RenewingMap<string, OrderRecord>();
  private readonly openRecords = new RenewingSet<OrderRecord>();
  /** Every record kept, in insertion order. */
  private readonly records = new RenewingSet<OrderRecord>();
  /**
   * Forgettable finished records and when they finished (a stamp), and a queue of (record, stamp) in that
   * order: eviction pops the queue (a Set's own order would be read through the holes its deletes leave).
   */
  private readonly finished = new RenewingMap<OrderRecord, number>();
  private finishedQueue: { record: OrderRecord; stamp: number }[] = [];
  private queueHead = 0;
  private stamp = 0;
  private readonly tombstones: LruSet;
  /**
   * Orders closed only locally while the exchange knew them, oldest first: kept so late exchange evidence
   * still counts, but no more than `maxFinished` of them (a long run with many reconnects must not pile them up).
   */
  private readonly localEnds = new RenewingSet<OrderRecord>();

  constructor(
    private readonly maxFinished = DEFAULT_FINISHED_ORDER_HISTORY,
    maxTombstones = maxFinished * 10,
  ) {
    if (!Number.isInteger(maxFinished) || maxFinished < 0)
      throw new RangeError(`finished order history must be a whole number >= 0, got ${maxFinished}`);
    if (!Number.isInteger(maxTombstones) || maxTombstones < 0)
      throw new RangeError(`forgotten order memory must be a whole number >= 0, got ${maxTombstones}`);
    this.tombstones = new LruSet(Math.max(1, maxTombstones));
  }

  add(record: OrderRecord): void {
    this.records.add(record);
    this.forgetLastLookup();
    for (const clordId of record.chain.kept()) this.byClord.set(clordId, record);
    if (record.orderId !== undefined) this.byOrder.set(record.orderId, record);
    this.refresh(record);
  }

  private forgetLastLookup(): void {
    this.lastClordId = undefined;
    this.lastByClord = undefined;
  }

  hasClordId(clordId: string): boolean {
    return this.byClordId(clordId) !== undefined;
  }

  /** A new clordId for the order (a replace): indexed; the ones that left the chain's window are dropped. */
  addClordId(record: OrderRecord, clordId: string): void {
    this.forgetLastLookup();
    this.byClord.set(clordId, record);
    for (const gone of record.chain.push(clordId, record.confirmed)) this.dropClordId(gone, record);
  }

  dropClordId(clordId: string, record: OrderRecord): void {
    if (this.byClord.get(clordId) !== record) return;
    this.forgetLastLookup();
    this.byClord.delete(clordId);
  }

  setOrderId(record: OrderRecord, orderId: string): void {
    record.orderId = orderId;
    this.byOrder.set(orderId, record);
  }

  byClordId(clordId: string): OrderRecord | undefined {
    if (clordId === this.lastClordId) return this.lastByClord;
    const record = this.byClord.get(clordId);
    this.lastClordId = clordId;
    this.lastByClord = record;
    return record;
  }

  byOrderId(orderId: string): OrderRecord | undefined {
    return this.byOrder.get(orderId);
  }

  /** By order id first (stable across replaces), then by clordId (before the order id is known). */
  find(orderId: string | undefined, clordId: string | undefined): OrderRecord | undefined {
    const byId = orderId === undefined || orderId === '' ? undefined : this.byOrder.get(orderId);
    if (byId !== undefined) return byId;
    return clordId === undefined || clordId === '' ? undefined : this.byClordId(clordId);
  }

  /** True when the order (by order id, else clordId) was finished and forgotten. */
  wasForgotten(orderId: string | undefined, clordId: string | undefined): boolean {
    return (
      (orderId !== undefined && orderId !== '' && this.tombstones.has(`o:${orderId}`)) ||
      (clordId !== undefined && clordId !== '' && this.tombstones.has(`c:${clordId}`))
    );
  }

  /** Keeps the open set and the finished history in step with the record's state; call after every change. */
  refresh(record: OrderRecord): void {
    if (isOpen(record.state())) {
      this.openRecords.add(record);
      this.finished.delete(record);
      this.localEnds.delete(record);
      return;
    }
    this.openRecords.delete(record);
    if (!forgettable(record)) {
      this.keepLocalEnd(record);
      return;
    }
    this.localEnds.delete(record);
    if (this.finished.has(record)) return;
    const stamp = ++this.stamp;
    this.finished.set(record, stamp);
    this.finishedQueue.push({ record, stamp });
    while (this.finished.size > this.maxFinished && this.queueHead < this.finishedQueue.length) {
      const oldest = this.finishedQueue[this.queueHead++];
      if (oldest !== undefined && this.finished.get(oldest.record) === oldest.stamp) this.forget(oldest.record);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.finishedQueue.length) {
      this.finishedQueue = this.finishedQueue.slice(this.queueHead);
      this.queueHead = 0;
    }
    if (this.finishedQueue.length - this.queueHead > 2 * this.maxFinished + 1024) {
      this.finishedQueue = this.finishedQueue.slice(this.queueHead).filter((e) => this.finished.get(e.record) === e.stamp);
      this.queueHead = 0;
    }
  }

  open(): IterableIterator<OrderRecord> {
    return this.openRecords.values();
  }

  /** Every record kept (open ones and the finished history), oldest first. */
  all(): readonly OrderRecord[] {
    return [...this.records];
  }

  get size(): number {
    return this.records.size;
  }

  private keepLocalEnd(record: OrderRecord): void {
    if (this.localEnds.has(record)) return;
    this.localEnds.add(record);
    while (this.localEnds.size > this.maxFinished) {
      const oldest = this.localEnds.values().next().value;
      if (oldest === undefined) break;
      this.localEnds.delete(oldest);
      this.forget(oldest);
    }
  }

  private forget(record: OrderRecord): void {
    this.finished.delete(record);
    this.records.delete(record);
    for (const clordId of record.chain.kept()) this.dropClordId(clordId, record);
    if (record.orderId !== undefined) {
      if (this.byOrder.get(record.orderId) === record) this.byOrder.delete(record.orderId);
      this.tombstones.checkAndAdd(`o:${record.orderId}`);
    } else {
      this.tombstones.checkAndAdd(`c:${record.chain.first}`);
    }
  }
}
