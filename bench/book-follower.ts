/**
 * The client end of the market data benches (md-stream, md-ingest): a market data stream feeding the
 * engine's BookStore (src/engine/books.ts) as the pipeline's market handler feeds it, counting the updates
 * applied, with the failure checks both benches share (a dropped, reordered, ended or stalled stream voids
 * the run with an error saying so).
 */
import type { Observable } from 'rxjs';
import type { MarketDataEvent } from '../src/domain/stream-events.ts';
import { BookStore } from '../src/engine/books.ts';

export interface FollowOptions {
  /** Bench name, for error messages. */
  readonly bench: string;
  /** e.g. `gRPC`, for error messages. */
  readonly transport: string;
  /** A run whose book store applies no update for this long has stalled. */
  readonly stallMs: number;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : error === undefined ? 'it completed' : String(error));

/**
 * Follows a run: the market data stream feeds the engine's BookStore as the pipeline's market handler does
 * (an update older than one already applied is not applied). `until(n)` resolves once n updates were
 * applied; the run fails (the pending `until` rejects, `check()` throws) when the stream drops (a
 * `disconnected`: updates were lost, the run is void), delivers an update out of order, ends for good, or
 * applies nothing for `stallMs`. Failures never throw inside the stream's subscriber, where they would escape
 * as an uncaught error.
 */
export function followRun(events$: Observable<MarketDataEvent>, options: FollowOptions) {
  const { bench, transport, stallMs } = options;
  const books = new BookStore();
  let applied = 0;
  let failure: Error | undefined;
  let waiter: { target: number; resolve: () => void; reject: (error: Error) => void } | undefined;
  let progressAt = applied;
  const fail = (message: string): void => {
    failure ??= new Error(`${bench} over ${transport}: ${message}`);
    settle();
  };
  const settle = (): void => {
    if (waiter === undefined) return;
    const { target, resolve, reject } = waiter;
    if (failure !== undefined) reject(failure);
    else if (applied >= target) resolve();
    else return;
    waiter = undefined;
  };
  const symbols = (): string =>
    books
      .all()
      .map((view) => view.symbol)
      .join(', ');
  const subscription = events$.subscribe({
    next: (event) => {
      if (event.type === 'book' && books.isOutOfOrder(event)) {
        fail(`an update arrived out of order after ${applied} updates; the run is void`);
      } else if (event.type === 'book') {
        books.apply(event, Date.now());
        applied += 1;
        settle();
      } else if (event.type === 'disconnected') {
        books.markAllStale();
        fail(`the market data stream dropped during the run (${symbols()} went stale after ${applied} updates); the run is void`);
      } else if (event.type === 'invalidMessage') {
        fail(`an update did not decode after ${applied} updates (${reason(event.error)}); the run is void`);
      }
    },
    error: (error: unknown) => fail(`the market data stream ended during the run (${reason(error)}) after ${applied} updates`),
    complete: () => fail(`the market data stream ended during the run (${reason(undefined)}) after ${applied} updates`),
  });
  const stallTimer = setInterval(() => {
    if (waiter !== undefined && applied === progressAt) fail(`no update for ${stallMs / 1000} s (${applied} of ${waiter.target} applied)`);
    progressAt = applied;
  }, stallMs);
  return {
    /** The store the stream feeds (for checks of what was applied). */
    books,
    get applied(): number {
      return applied;
    },
    until(target: number): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        waiter = { target, resolve, reject };
        settle();
      });
    },
    check(): void {
      if (failure !== undefined) throw failure;
    },
    stop(): void {
      clearInterval(stallTimer);
      subscription.unsubscribe();
    },
  };
}
