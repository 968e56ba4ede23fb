/**
 * Replaying a journal into what a restarting run needs: the orders that were sent and never finished
 * (no terminal state seen), with their exchange order ids when known, their filled quantity so far and
 * every clordId they had; every runId used; and the highest id counters, so the new run continues them.
 *
 * Rules: an order exists from its `request` (insert or cross leg) or a compaction `open` line; a replace
 * request gives the order its new clordId; `ack`, `execution` and `resolved` lines are matched by any
 * clordId or by order id and only move an order forward (cum_qty never drops, a terminal state stays);
 * `sendFailed` REJECTED finishes it (the exchange never took it), UNKNOWN leaves it to the lookup.
 * Lines about clordIds that were never requested (orders of other runs, queued then dropped) are ignored.
 * `holding` lines (several strategies): per strategy, account and symbol the last one wins; flat ones are left out.
 */
import { Decimal, ZERO } from '../../domain/decimal.ts';
import { isTerminal } from '../orders/states.ts';
import type { TrackedState } from '../orders/types.ts';
import type { EntryOf, IdCounters, JournalEntry, OrderTerms } from './entries.ts';

export interface RecoveredOrder {
  /** The clordId of the original insert (or cross leg). */
  readonly clordId: string;
  /** The original clordId and, after replaces, the latest one (older ones are not kept: an order replaced
   * all day has thousands, and an order id, which every replace has, finds it anyway). */
  clordIds: string[];
  orderId: string | undefined;
  readonly crossId: string | undefined;
  readonly terms: OrderTerms;
  cumQty: Decimal;
  avgPx: Decimal;
  /** Last state the journal saw (PENDING_NEW when nothing came back). */
  state: TrackedState;
  intentId: string | undefined;
  label: string | undefined;
}

/** A strategy's position as the journal last recorded it (see the `holding` entry). */
export interface RecoveredHolding {
  readonly strategy: string;
  readonly account: string;
  readonly symbol: string;
  readonly qty: Decimal;
  readonly cost: Decimal;
}

export interface RecoveredJournal {
  readonly runIds: ReadonlySet<string>;
  /** Highest intent / order / cross sequence numbers seen. */
  readonly counters: IdCounters;
  /** Sent and not finished, in the order they were sent. */
  readonly open: readonly RecoveredOrder[];
  readonly entries: number;
  /** Orders known from requests in the journal, finished or not. */
  readonly orders: number;
  /** Each strategy's positions that are not flat (several strategies only; empty otherwise). */
  readonly holdings: readonly RecoveredHolding[];
}

const SEQ = /-(\d+)$/;

function seqOf(id: string | undefined): number {
  const match = id === undefined ? null : SEQ.exec(id);
  const n = match === null ? 0 : Number.parseInt(match[1] ?? '0', 10);
  return Number.isSafeInteger(n) ? n : 0;
}

/** Folds journal entries into a RecoveredJournal; feed entries in file order, then call `result()`. */
export class JournalRebuilder {
  private readonly runIds = new Set<string>();
  private readonly counters: IdCounters = { intents: 0, orders: 0, crosses: 0 };
  private readonly orders: RecoveredOrder[] = [];
  private readonly byClordId = new Map<string, RecoveredOrder>();
  private readonly byOrderId = new Map<string, RecoveredOrder>();
  /** intentId and label of place intents, by clordId, until the request arrives. */
  private readonly intents = new Map<string, { intentId: string; label: string | undefined }>();
  /** By strategy, account and symbol: the last `holding` line. */
  private readonly holdings = new Map<string, RecoveredHolding>();
  private entries = 0;

  add(entry: JournalEntry): void {
    this.entries += 1;
    switch (entry.type) {
      case 'runStart':
      case 'runStop':
        this.runIds.add(entry.runId);
        return;
      case 'checkpoint':
        for (const runId of entry.runIds) this.runIds.add(runId);
        this.counters.intents = Math.max(this.counters.intents, entry.counters.intents);
        this.counters.orders = Math.max(this.counters.orders, entry.counters.orders);
        this.counters.crosses = Math.max(this.counters.crosses, entry.counters.crosses);
        return;
      case 'intent':
        this.counters.intents = Math.max(this.counters.intents, seqOf(entry.intentId));
        if (entry.kind === 'place' && entry.clordId !== undefined)
          this.intents.set(entry.clordId, { intentId: entry.intentId, label: entry.label });
        return;
      case 'request':
        this.request(entry);
        return;
      case 'open':
        this.openLine(entry);
        return;
      case 'ack': {
        const order = this.find(entry.clordId, entry.orderId);
        if (order !== undefined) this.learnOrderId(order, entry.orderId);
        return;
      }
      case 'execution':
      case 'resolved': {
        const order = this.find(entry.clordId, entry.orderId);
        if (order === undefined) return;
        if (entry.orderId !== undefined && entry.orderId !== '') this.learnOrderId(order, entry.orderId);
        this.progress(order, new Decimal(entry.cumQty), new Decimal(entry.avgPx), entry.state);
        return;
      }
      case 'holding': {
        const { strategy, account, symbol } = entry;
        const key = JSON.stringify([strategy, account, symbol]);
        this.holdings.set(key, { strategy, account, symbol, qty: new Decimal(entry.qty), cost: new Decimal(entry.cost) });
        return;
      }
      case 'sendFailed': {
        const order = this.byClordId.get(entry.clordId);
        if (order === undefined || isTerminal(order.state)) return;
        order.state = entry.state;
        return;
      }
    }
  }

  result(): RecoveredJournal {
    return {
      runIds: new Set(this.runIds),
      counters: { ...this.counters },
      open: this.orders.filter((o) => !isTerminal(o.state)),
      entries: this.entries,
      orders: this.orders.length,
      holdings: [...this.holdings.values()].filter((h) => !h.qty.isZero()),
    };
  }

  private request(entry: EntryOf<'request'>): void {
    this.counters.orders = Math.max(this.counters.orders, seqOf(entry.clordId));
    switch (entry.kind) {
      case 'insert':
      case 'cross': {
        const crossId = entry.kind === 'cross' ? entry.crossId : undefined;
        if (crossId !== undefined) this.counters.crosses = Math.max(this.counters.crosses, seqOf(crossId));
        if (this.byClordId.has(entry.clordId)) return; // a clordId is sent once; a repeated line changes nothing
        const intent = this.intents.get(entry.clordId);
        this.intents.delete(entry.clordId);
        this.addOrder({
          clordId: entry.clordId,
          clordIds: [entry.clordId],
          orderId: undefined,
          crossId,
          terms: entry.terms,
          cumQty: ZERO,
          avgPx: ZERO,
          state: 'PENDING_NEW',
          intentId: intent?.intentId,
          label: intent?.label,
        });
        return;
      }
      case 'replace': {
        const order = this.find(entry.origClordId, entry.orderId);
        if (order === undefined) return;
        this.learnOrderId(order, entry.orderId);
        if (this.byClordId.has(entry.clordId)) return;
        order.clordIds = [order.clordId, entry.clordId];
        this.byClordId.set(entry.clordId, order);
        return;
      }
      case 'cancel':
        return;
    }
  }

  private openLine(entry: EntryOf<'open'>): void {
    for (const clordId of entry.clordIds) this.counters.orders = Math.max(this.counters.orders, seqOf(clordId));
    if (entry.crossId !== undefined) this.counters.crosses = Math.max(this.counters.crosses, seqOf(entry.crossId));
    this.counters.intents = Math.max(this.counters.intents, seqOf(entry.intentId));
    const first = entry.clordIds[0];
    if (first === undefined || this.byClordId.has(first)) return;
    this.addOrder({
      clordId: first,
      clordIds: [...entry.clordIds],
      orderId: entry.orderId === '' ? undefined : entry.orderId,
      crossId: entry.crossId,
      terms: entry.terms,
      cumQty: new Decimal(entry.cumQty),
      avgPx: new Decimal(entry.avgPx),
      state: entry.state,
      intentId: entry.intentId,
      label: entry.label,
    });
  }

  private addOrder(order: RecoveredOrder): void {
    this.orders.push(order);
    for (const clordId of order.clordIds) this.byClordId.set(clordId, order);
    if (order.orderId !== undefined) this.byOrderId.set(order.orderId, order);
  }

  private find(clordId: string, orderId: string | undefined): RecoveredOrder | undefined {
    return this.byClordId.get(clordId) ?? (orderId === undefined || orderId === '' ? undefined : this.byOrderId.get(orderId));
  }

  private learnOrderId(order: RecoveredOrder, orderId: string): void {
    if (order.orderId !== undefined || orderId === '') return;
    order.orderId = orderId;
    this.byOrderId.set(orderId, order);
    if (order.state === 'PENDING_NEW') order.state = 'NEW';
  }

  private progress(order: RecoveredOrder, cumQty: Decimal, avgPx: Decimal, state: TrackedState): void {
    if (isTerminal(order.state)) return;
    if (cumQty.gt(order.cumQty)) {
      order.cumQty = cumQty;
      order.avgPx = avgPx;
    }
    order.state = state;
  }
}

/** Replays a whole journal. */
export async function rebuildJournal(entries: AsyncIterable<JournalEntry>): Promise<RecoveredJournal> {
  const rebuilder = new JournalRebuilder();
  for await (const entry of entries) rebuilder.add(entry);
  return rebuilder.result();
}
