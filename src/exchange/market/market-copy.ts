/**
 * MarketCopy: the bot's local copy of the market, kept from the streams of either transport (gateway
 * NDJSON or gRPC emit the same events): per-symbol books from market data, positions from the position
 * stream. Strategies read it through read-only views and may follow `changes$`.
 *
 * Freshness: when a feeding stream reports `disconnected` (or ends), every book it fed is marked stale
 * (`stale: true`, a `stale` change); each book becomes fresh again with the first update for its symbol
 * after the reconnection, which is that symbol's snapshot (every update carries the full levels). The
 * same holds for positions (`positionsStale`), which become fresh with the next position snapshot. A
 * stale book keeps its last levels: whether to trade on it is the strategy's decision.
 *
 *   const market = new MarketCopy();
 *   market.attachBooks(client.marketData$({ symbols }));     // GatewayClient or GrpcExchangeClient
 *   market.attachPositions(grpc.positions$());
 *   market.book('RAIN-NYC')?.bids[0]?.px;                   // Decimal
 */
import { Subject } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import type { Position } from '../../domain/index.ts';
import type { LocalBook } from './local-book.ts';
import type { BookEvent, MarketDataEvent, PositionStreamEvent } from './stream-types.ts';

export type MarketChange =
  | { readonly type: 'book'; readonly book: LocalBook }
  /** These books may be out of date (their stream is down). */
  | { readonly type: 'stale'; readonly symbols: readonly string[] }
  /** Positions replaced (`snapshot`) or changed. */
  | { readonly type: 'positions'; readonly positions: readonly Position[]; readonly snapshot: boolean }
  | { readonly type: 'positionsStale' }
  /** A feeding stream ended for good (its error, or undefined when it completed). */
  | { readonly type: 'streamEnded'; readonly stream: 'books' | 'positions'; readonly error: unknown };

const positionKey = (account: string, symbol: string): string => `${account}\n${symbol}`;

export class MarketCopy {
  private readonly bookMap = new Map<string, LocalBook>();
  private readonly positionMap = new Map<string, Position>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly changes = new Subject<MarketChange>();
  private positionsAreStale = true;
  private applied = 0;

  /** Every change, as it is applied. Hot: subscribe before attaching streams to see the snapshots. */
  readonly changes$: Observable<MarketChange> = this.changes.asObservable();

  /** The symbol's book, or undefined before its first snapshot. */
  book(symbol: string): LocalBook | undefined {
    return this.bookMap.get(symbol);
  }

  books(): readonly LocalBook[] {
    return [...this.bookMap.values()];
  }

  /** True when the symbol has a book and its stream is up. */
  isFresh(symbol: string): boolean {
    return this.bookMap.get(symbol)?.stale === false;
  }

  /** Book updates applied so far (all symbols). */
  get bookUpdates(): number {
    return this.applied;
  }

  position(account: string, symbol: string): Position | undefined {
    return this.positionMap.get(positionKey(account, symbol));
  }

  /** Positions, of one account or all. */
  positions(account?: string): readonly Position[] {
    const all = [...this.positionMap.values()];
    return account === undefined ? all : all.filter((p) => p.account === account);
  }

  /** True until the first position snapshot, and while the position stream is down. */
  get positionsStale(): boolean {
    return this.positionsAreStale;
  }

  /** Keeps books from a market data stream (either transport) until `close()` or the returned unsubscribe. */
  attachBooks(events$: Observable<MarketDataEvent>): Subscription {
    const fed = new Set<string>();
    const markStale = (): void => {
      const symbols: string[] = [];
      for (const symbol of fed) {
        const book = this.bookMap.get(symbol);
        if (book === undefined || book.stale) continue;
        this.bookMap.set(symbol, { ...book, stale: true });
        symbols.push(symbol);
      }
      if (symbols.length > 0) this.changes.next({ type: 'stale', symbols });
    };
    return this.track(
      events$.subscribe({
        next: (event) => {
          if (event.type === 'book') {
            fed.add(event.symbol);
            this.applyBook(event);
          } else if (event.type === 'disconnected') {
            markStale();
          }
        },
        error: (error: unknown) => {
          markStale();
          this.changes.next({ type: 'streamEnded', stream: 'books', error });
        },
        complete: () => {
          markStale();
          this.changes.next({ type: 'streamEnded', stream: 'books', error: undefined });
        },
      }),
    );
  }

  /** Keeps positions from a position stream until `close()` or the returned unsubscribe. */
  attachPositions(events$: Observable<PositionStreamEvent>): Subscription {
    const owned = new Set<string>();
    const markStale = (): void => {
      if (this.positionsAreStale) return;
      this.positionsAreStale = true;
      this.changes.next({ type: 'positionsStale' });
    };
    return this.track(
      events$.subscribe({
        next: (event) => {
          if (event.type === 'positionSnapshot') {
            for (const key of owned) this.positionMap.delete(key);
            owned.clear();
            for (const position of event.positions) this.setPosition(position, owned);
            this.positionsAreStale = false;
            this.changes.next({ type: 'positions', positions: event.positions, snapshot: true });
          } else if (event.type === 'position') {
            this.setPosition(event.position, owned);
            this.changes.next({ type: 'positions', positions: [event.position], snapshot: false });
          } else if (event.type === 'disconnected') {
            markStale();
          }
        },
        error: (error: unknown) => {
          markStale();
          this.changes.next({ type: 'streamEnded', stream: 'positions', error });
        },
        complete: () => {
          markStale();
          this.changes.next({ type: 'streamEnded', stream: 'positions', error: undefined });
        },
      }),
    );
  }

  /** Stops every attached stream and completes `changes$`. */
  close(): void {
    for (const subscription of [...this.subscriptions]) subscription.unsubscribe();
    this.changes.complete();
  }

  private applyBook(event: BookEvent): void {
    const previous = this.bookMap.get(event.symbol);
    const book: LocalBook = {
      symbol: event.symbol,
      bids: event.bids,
      offers: event.offers,
      state: event.state ?? previous?.state,
      stats: event.stats ?? previous?.stats,
      transactTime: event.transactTime,
      sequence: (previous?.sequence ?? 0) + 1,
      stale: false,
    };
    this.bookMap.set(event.symbol, book);
    this.applied += 1;
    if (this.changes.observed) this.changes.next({ type: 'book', book });
  }

  private setPosition(position: Position, owned: Set<string>): void {
    const key = positionKey(position.account, position.symbol);
    owned.add(key);
    this.positionMap.set(key, position);
  }

  private track(subscription: Subscription): Subscription {
    this.subscriptions.add(subscription);
    subscription.add(() => this.subscriptions.delete(subscription));
    return subscription;
  }
}
