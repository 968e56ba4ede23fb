/**
 * The transport tests' local copy of the market, kept by the engine's own pieces:
 * - `BookCopy`: the books of ONE market data stream in the engine's BookStore (src/engine/books.ts), applied
 *   the way the pipeline's market handler applies them (an update older than one already applied is skipped
 *   and counted; `disconnected` marks every book stale; a symbol's next update, its snapshot, makes it fresh).
 *   On top of the store it keeps what the tests compare with the exchange and the store has no use for: an
 *   update count per symbol (1 = the first snapshot), the last instrument state and statistics, and
 *   `changes$` to wait on (no sleeps). The stream ending (error or completion) marks the books stale too.
 * - `positionsFrom`: the positions a recorded position stream leaves (the engine takes positions from the
 *   exchange's lookups, not from this stream, so there is no engine piece to feed).
 *
 *   const copy = new BookCopy();
 *   const changes = record(copy.changes$);
 *   copy.attach(client.marketData$({ symbols: [SYMBOL] }));   // GatewayClient or GrpcExchangeClient
 *   await changes.waitFor((c) => c.type === 'book' && c.book.sequence === 1);
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { InstrumentState, InstrumentStats, Position } from '../../../src/domain/index.ts';
import type { BookEvent, MarketDataEvent } from '../../../src/domain/stream-events.ts';
import type { PositionStreamEvent } from '../../../src/exchange/grpc/index.ts';
import { BookStore } from '../../../src/engine/books.ts';
import type { BookView } from '../../../src/engine/strategy/views.ts';

/** The engine's view of a symbol's book, with what the store does not keep. */
export interface CopiedBook extends BookView {
  /** Updates applied to this symbol since the copy started (1 = the first snapshot); never goes back. */
  readonly sequence: number;
  /** The last instrument state and statistics an update carried. */
  readonly state: InstrumentState | undefined;
  readonly stats: InstrumentStats | undefined;
}

export type BookChange =
  | { readonly type: 'book'; readonly book: CopiedBook }
  /** These books may be out of date (the stream is down). */
  | { readonly type: 'stale'; readonly symbols: readonly string[] }
  /** The stream ended for good (its error, or undefined when it completed). */
  | { readonly type: 'streamEnded'; readonly error: unknown };

interface Extras {
  readonly sequence: number;
  readonly state: InstrumentState | undefined;
  readonly stats: InstrumentStats | undefined;
}

export class BookCopy {
  private readonly store = new BookStore();
  private readonly extras = new Map<string, Extras>();
  private readonly changes = new Subject<BookChange>();
  private subscription: Subscription | undefined;
  private applied = 0;
  private skipped = 0;

  /** Every change, as it is applied. Hot: subscribe before `attach` to see the snapshots. */
  readonly changes$: Observable<BookChange> = this.changes.asObservable();

  /** Keeps the books of `events$` until `close()`; one stream per copy (the store has one feed, as the engine's). */
  attach(events$: Observable<MarketDataEvent>): void {
    if (this.subscription !== undefined) throw new Error('BookCopy: one stream per copy; make another copy for another stream');
    this.subscription = events$.subscribe({
      next: (event) => {
        if (event.type === 'book') this.apply(event);
        else if (event.type === 'disconnected') this.markStale();
      },
      error: (error: unknown) => this.end(error),
      complete: () => this.end(undefined),
    });
  }

  /** The symbol's book, or undefined before its first snapshot. */
  book(symbol: string): CopiedBook | undefined {
    const view = this.store.get(symbol);
    const extras = this.extras.get(symbol);
    return view === undefined || extras === undefined ? undefined : { ...view, ...extras };
  }

  /** True when the symbol has a book and the stream is up. */
  isFresh(symbol: string): boolean {
    return this.store.get(symbol)?.stale === false;
  }

  /** Book updates applied so far (all symbols). */
  get updates(): number {
    return this.applied;
  }

  /** Updates not applied because they were older than one already applied (the engine counts them too). */
  get outOfOrder(): number {
    return this.skipped;
  }

  /** Stops the stream and completes `changes$`. */
  close(): void {
    this.subscription?.unsubscribe();
    this.changes.complete();
  }

  private apply(event: BookEvent): void {
    if (this.store.isOutOfOrder(event)) {
      this.skipped += 1;
      return;
    }
    const { view } = this.store.apply(event, event.transactTime ?? 0);
    const previous = this.extras.get(event.symbol);
    const extras: Extras = {
      sequence: (previous?.sequence ?? 0) + 1,
      state: event.state ?? previous?.state,
      stats: event.stats ?? previous?.stats,
    };
    this.extras.set(event.symbol, extras);
    this.applied += 1;
    this.changes.next({ type: 'book', book: { ...view, ...extras } });
  }

  private markStale(): void {
    const symbols = this.store
      .all()
      .filter((view) => !view.stale)
      .map((view) => view.symbol);
    this.store.markAllStale();
    if (symbols.length > 0) this.changes.next({ type: 'stale', symbols });
  }

  private end(error: unknown): void {
    this.markStale();
    this.changes.next({ type: 'streamEnded', error });
  }
}

/** The positions a position stream's events leave, and whether they may be out of date. */
export interface PositionCopy {
  /** True before the first snapshot and after a `disconnected`, until the next snapshot. */
  readonly stale: boolean;
  position(account: string, symbol: string): Position | undefined;
  /** Positions, of one account or all. */
  positions(account?: string): readonly Position[];
}

/** Each snapshot replaces the positions, each `position` event changes one (the whole position, not a delta). */
export function positionsFrom(events: readonly PositionStreamEvent[]): PositionCopy {
  const key = (account: string, symbol: string): string => `${account}\n${symbol}`;
  const positions = new Map<string, Position>();
  let stale = true;
  for (const event of events) {
    if (event.type === 'positionSnapshot') {
      positions.clear();
      for (const p of event.positions) positions.set(key(p.account, p.symbol), p);
      stale = false;
    } else if (event.type === 'position') {
      positions.set(key(event.position.account, event.position.symbol), event.position);
    } else if (event.type === 'disconnected') {
      stale = true;
    }
  }
  return {
    stale,
    position: (account, symbol) => positions.get(key(account, symbol)),
    positions: (account) => [...positions.values()].filter((p) => account === undefined || p.account === account),
  };
}
