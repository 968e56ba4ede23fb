/**
 * Lookup tables of the tracker: records by every clordId they have had (current, old aliases and pending
 * replace targets), by exchange order id, and the set of open records (kept current with `refresh`, so
 * `open()` does not scan closed history).
 */
import { isOpen } from './states.ts';
import type { OrderRecord } from './record.ts';

export class OrderIndex {
  private readonly byClord = new Map<string, OrderRecord>();
  private readonly byOrder = new Map<string, OrderRecord>();
  private readonly openRecords = new Set<OrderRecord>();
  private readonly records: OrderRecord[] = [];

  add(record: OrderRecord): void {
    this.records.push(record);
    for (const clordId of record.chain) this.byClord.set(clordId, record);
    if (record.orderId !== undefined) this.byOrder.set(record.orderId, record);
    this.refresh(record);
  }

  hasClordId(clordId: string): boolean {
    return this.byClord.has(clordId);
  }

  aliasClordId(clordId: string, record: OrderRecord): void {
    this.byClord.set(clordId, record);
  }

  dropClordId(clordId: string, record: OrderRecord): void {
    if (this.byClord.get(clordId) === record) this.byClord.delete(clordId);
  }

  setOrderId(record: OrderRecord, orderId: string): void {
    record.orderId = orderId;
    this.byOrder.set(orderId, record);
  }

  byClordId(clordId: string): OrderRecord | undefined {
    return this.byClord.get(clordId);
  }

  byOrderId(orderId: string): OrderRecord | undefined {
    return this.byOrder.get(orderId);
  }

  /** By order id first (stable across replaces), then by clordId (before the order id is known). */
  find(orderId: string | undefined, clordId: string | undefined): OrderRecord | undefined {
    const byId = orderId === undefined || orderId === '' ? undefined : this.byOrder.get(orderId);
    if (byId !== undefined) return byId;
    return clordId === undefined || clordId === '' ? undefined : this.byClord.get(clordId);
  }

  /** Keeps the open set in step with the record's state; call after every change. */
  refresh(record: OrderRecord): void {
    if (isOpen(record.state())) this.openRecords.add(record);
    else this.openRecords.delete(record);
  }

  open(): IterableIterator<OrderRecord> {
    return this.openRecords.values();
  }

  all(): readonly OrderRecord[] {
    return this.records;
  }
}
