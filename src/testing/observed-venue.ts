/**
 * ObservedVenue: a Venue that forwards every call to another and tells a test when something happened: after the
 * pipeline handled each market or order event and after each call's answer (`changed$`), so a test waits on
 * engine events instead of sleeping. It also counts calls (by kind) and those still in flight, and can hold the
 * answer of the next reconciliation lookup (`holdNextSnapshot`).
 */
import { Observable, Subject, type Subscription } from 'rxjs';
import type { MarketDataEvent, OrderStreamEvent } from '../domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../engine/venue.ts';

/** One order call the wrapper saw: its kind and how many orders it carried. */
export interface VenueCall {
  kind: 'insert' | 'cancel' | 'replace' | 'cross';
  count: number;
}

/**
 * A Venue that forwards to another and reports, after the pipeline handled it, every market and order
 * event and every answer to a call (`changed$`), and counts calls in flight.
 */
export class ObservedVenue implements Venue {
  readonly name: string;
  /** Fires after the pipeline handled a market or order event, and after each call's answer. */
  readonly changed$ = new Subject<void>();
  /** Every order call sent, oldest first. */
  readonly calls: VenueCall[] = [];
  /** Every market data event received, oldest first. */
  readonly marketEvents: MarketDataEvent[] = [];
  /** Order calls (insert, cancel, replace, cross) sent and not answered yet. */
  inFlight = 0;
  /** Calls sent and not answered yet, by kind (diagnostics for timeouts). */
  readonly pending = new Map<string, number>();

  /** Whether the wrapped venue can cross (absent on it: true). */
  get canCross(): boolean {
    return (this.inner as { readonly canCross?: boolean }).canCross ?? true;
  }

  constructor(private readonly inner: Venue) {
    this.name = inner.name;
  }

  instruments(symbols: readonly string[]) {
    return this.inner.instruments(symbols);
  }

  marketData(symbols: readonly string[]): Observable<MarketDataEvent> {
    return this.observed(this.inner.marketData(symbols), (event) => this.marketEvents.push(event));
  }

  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent> {
    return this.observed(this.inner.orderUpdates(accounts), () => undefined);
  }

  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    return this.call('insert', requests.length, () => this.inner.insertOrders(requests));
  }

  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    return this.call('cancel', requests.length, () => this.inner.cancelOrders(requests));
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    return this.call('replace', requests.length, () => this.inner.replaceOrders(requests));
  }

  cross(request: VenueCrossRequest): Promise<readonly string[]> {
    return this.call('cross', 1, () => this.inner.cross(request));
  }

  snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    const hold = this.snapshotHold;
    this.snapshotHold = undefined;
    return this.call(undefined, 0, async () => {
      const answer = await this.inner.snapshot(accounts);
      await hold;
      return answer;
    });
  }

  /** The next reconciliation lookup is answered (with what the exchange said when asked) only once `until` resolves. */
  holdNextSnapshot(until: Promise<void>): void {
    this.snapshotHold = until;
  }

  private snapshotHold: Promise<void> | undefined;

  close(): Promise<void> {
    return this.inner.close();
  }

  private observed<T>(source: Observable<T>, seen: (event: T) => void): Observable<T> {
    return new Observable<T>((subscriber) => {
      const subscription: Subscription = source.subscribe({
        next: (event) => {
          seen(event);
          subscriber.next(event);
          this.changed$.next();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return subscription;
    });
  }

  private call<T>(kind: VenueCall['kind'] | undefined, count: number, send: () => Promise<T>): Promise<T> {
    if (kind !== undefined) this.calls.push({ kind, count });
    const label = kind ?? 'snapshot';
    const counted = kind === undefined ? 0 : 1;
    this.inFlight += counted;
    this.pending.set(label, (this.pending.get(label) ?? 0) + 1);
    const done = () => {
      this.inFlight -= counted;
      this.pending.set(label, (this.pending.get(label) ?? 1) - 1);
      // after the caller's own continuation ran
      setImmediate(() => this.changed$.next());
    };
    return send().finally(done);
  }
}
