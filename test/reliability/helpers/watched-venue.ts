/**
 * A Venue that forwards to another and wakes `changed$` after every market and order event the pipeline
 * handled and every venue call answer, so reliability tests wait on what happens instead of sleeping. It
 * also counts calls in flight, calls by kind and failed calls by kind and error code.
 */
import { Observable, Subject, type Subscription } from 'rxjs';
import type { MarketDataEvent, OrderStreamEvent } from '../../../src/domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderQuery,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../../../src/engine/venue.ts';

export class WatchedVenue implements Venue {
  readonly name: string;
  readonly changed$ = new Subject<void>();
  /** Calls sent and not answered yet. */
  inFlight = 0;
  /** Failed calls by "kind code" (e.g. "replace GATEWAY_NOT_FOUND"). */
  readonly failures: Record<string, number> = {};
  readonly calls: Record<string, number> = {};
  /** Single-order lookups, when the wrapped venue has them (the pipeline uses them after a reconnect). */
  readonly lookupOrder: Venue['lookupOrder'];

  constructor(private readonly inner: Venue) {
    this.name = inner.name;
    const lookup = inner.lookupOrder?.bind(inner);
    this.lookupOrder = lookup === undefined ? undefined : (query: VenueOrderQuery) => this.call('lookup', () => lookup(query));
  }

  instruments(symbols: readonly string[]) {
    return this.inner.instruments(symbols);
  }

  marketData(symbols: readonly string[]): Observable<MarketDataEvent> {
    return this.watched(this.inner.marketData(symbols));
  }

  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent> {
    return this.watched(this.inner.orderUpdates(accounts));
  }

  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    return this.call('insert', () => this.inner.insertOrders(requests));
  }

  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    return this.call('cancel', () => this.inner.cancelOrders(requests));
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    return this.call('replace', () => this.inner.replaceOrders(requests));
  }

  cross(request: VenueCrossRequest): Promise<readonly string[]> {
    return this.call('cross', () => this.inner.cross(request));
  }

  snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    return this.call('snapshot', () => this.inner.snapshot(accounts));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private watched<T>(source: Observable<T>): Observable<T> {
    return new Observable<T>((subscriber) => {
      const subscription: Subscription = source.subscribe({
        next: (event) => {
          subscriber.next(event);
          this.changed$.next();
        },
        error: (error: unknown) => {
          subscriber.error(error);
          this.changed$.next();
        },
        complete: () => subscriber.complete(),
      });
      return subscription;
    });
  }

  private call<T>(kind: string, send: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    this.calls[kind] = (this.calls[kind] ?? 0) + 1;
    return send()
      .catch((error: unknown) => {
        const label = `${kind} ${String((error as { code?: unknown }).code)}`;
        this.failures[label] = (this.failures[label] ?? 0) + 1;
        throw error;
      })
      .finally(() => {
        this.inFlight -= 1;
        // after the caller's own continuation ran
        setImmediate(() => this.changed$.next());
      });
  }
}
