/**
 * What both streaming clients (gateway NDJSON, src/exchange/gateway/streams.ts; gRPC,
 * src/exchange/grpc/streams.ts) make of a decoded stream message, so the two emit the same events:
 * - `orderStreamItems`: a snapshot, or one `execution` item per execution of an update (split so that
 *   deduplication by execution id works across reconnects) and its `cancelReject`;
 * - `bookItems`, `instrumentStateItems`: a market data book, an instrument state change;
 * - `lastOrderSnapshot`, `booksBySymbol`: the `snapshot_only` streams reduced to their result;
 * - `OrderAndMarketStreams`: the order and market data methods of both clients' stream classes, over the
 *   streams each transport opens.
 * Heartbeats become `heartbeat` items; an error message (the gateway's error lines, which its stream runner
 * turns into stream errors before they get here) gives none.
 */
import { defer, lastValueFrom, reduce } from 'rxjs';
import type { Observable } from 'rxjs';
import type { InstrumentStateMessage, MarketDataMessage, Order, OrderBook, OrderStreamMessage } from '../domain/index.ts';
import type { InstrumentStateItem, MarketDataEvent, MarketDataItem, OrderStreamEvent, OrderStreamItem } from '../domain/stream-events.ts';
import type { MarketDataFilter, OrderStreamFilter } from './gateway/streams.ts';

export function orderStreamItems(message: OrderStreamMessage): readonly OrderStreamItem[] {
  switch (message.kind) {
    case 'heartbeat':
      return [{ type: 'heartbeat' }];
    case 'snapshot':
      return [{ type: 'snapshot', orders: message.orders, sessionId: message.sessionId }];
    case 'update': {
      const items: OrderStreamItem[] = message.executions.map((execution) => ({
        type: 'execution',
        execution,
        sessionId: message.sessionId,
      }));
      if (message.cancelReject !== undefined)
        items.push({ type: 'cancelReject', cancelReject: message.cancelReject, sessionId: message.sessionId });
      return items;
    }
    case 'error':
      return [];
  }
}

export function bookItems(message: MarketDataMessage): readonly MarketDataItem[] {
  if (message.kind === 'heartbeat') return [{ type: 'heartbeat' }];
  if (message.kind === 'error') return [];
  const { symbol, bids, offers, state, stats, transactTime } = message;
  return [{ type: 'book', symbol, bids, offers, state, stats, transactTime }];
}

export function instrumentStateItems(message: InstrumentStateMessage): readonly InstrumentStateItem[] {
  if (message.kind === 'heartbeat') return [{ type: 'heartbeat' }];
  if (message.kind === 'error') return [];
  return [{ type: 'state', symbol: message.symbol, state: message.state, text: message.text, transactTime: message.transactTime }];
}

/** The last order snapshot a snapshot_only order stream delivered (undefined: none). */
export function lastOrderSnapshot(events$: Observable<OrderStreamEvent>): Promise<readonly Order[] | undefined> {
  return lastValueFrom(
    events$.pipe(reduce<OrderStreamEvent, readonly Order[] | undefined>((acc, e) => (e.type === 'snapshot' ? e.orders : acc), undefined)),
  );
}

/** The last book of each symbol a snapshot_only market data stream delivered, by symbol. */
export function booksBySymbol(events$: Observable<MarketDataEvent>): Promise<ReadonlyMap<string, OrderBook>> {
  return lastValueFrom(
    events$.pipe(
      reduce((books, e) => {
        if (e.type === 'book')
          books.set(e.symbol, {
            symbol: e.symbol,
            bids: e.bids,
            offers: e.offers,
            state: e.state,
            stats: e.stats,
            transactTime: e.transactTime,
          });
        return books;
      }, new Map<string, OrderBook>()),
    ),
  );
}

/** The order and market data methods both clients' stream classes share; each transport opens the streams. */
export abstract class OrderAndMarketStreams {
  /** Order updates of the caller's accounts; see the module header. */
  orderUpdates$(filter: OrderStreamFilter = {}): Observable<OrderStreamEvent> {
    return this.orderStream(filter, false);
  }

  /** The working orders right now (a snapshot_only subscription). */
  async orderSnapshot(filter: OrderStreamFilter = {}): Promise<readonly Order[]> {
    const last = await lastOrderSnapshot(this.orderStream(filter, true));
    if (last === undefined) throw this.noSnapshot();
    return last;
  }

  /** Full books of `symbols`, live. */
  marketData$(filter: MarketDataFilter): Observable<MarketDataEvent> {
    return defer(() => {
      this.checkMarketFilter(filter);
      return this.marketStream(filter, false);
    });
  }

  /** The current book of each symbol (a snapshot_only subscription), by symbol. */
  async marketDataSnapshot(filter: MarketDataFilter): Promise<ReadonlyMap<string, OrderBook>> {
    this.checkMarketFilter(filter);
    return booksBySymbol(this.marketStream(filter, true));
  }

  protected abstract orderStream(filter: OrderStreamFilter, snapshotOnly: boolean): Observable<OrderStreamEvent>;
  protected abstract marketStream(filter: MarketDataFilter, snapshotOnly: boolean): Observable<MarketDataEvent>;
  /** Throws when the transport refuses the filter before anything is sent. */
  protected abstract checkMarketFilter(filter: MarketDataFilter): void;
  /** The error of a snapshot-only order stream that ended without a snapshot. */
  protected abstract noSnapshot(): Error;
}
