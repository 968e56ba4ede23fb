/**
 * What both streaming clients (gateway NDJSON, src/exchange/gateway/streams.ts; gRPC,
 * src/exchange/grpc/streams.ts) make of a decoded stream message, so the two emit the same events:
 * - `orderStreamItems`: a snapshot, or one `execution` item per execution of an update (split so that
 *   deduplication by execution id works across reconnects) and its `cancelReject`;
 * - `bookItems`, `instrumentStateItems`: a market data book, an instrument state change;
 * - `lastOrderSnapshot`, `booksBySymbol`: the `snapshot_only` streams reduced to their result.
 * Heartbeats become `heartbeat` items; an error message (the gateway's error lines, which its stream runner
 * turns into stream errors before they get here) gives none.
 */
import { lastValueFrom, reduce } from 'rxjs';
import type { Observable } from 'rxjs';
import type { InstrumentStateMessage, MarketDataMessage, Order, OrderBook, OrderStreamMessage } from '../domain/index.ts';
import type { InstrumentStateItem, MarketDataEvent, MarketDataItem, OrderStreamEvent, OrderStreamItem } from '../domain/stream-events.ts';

export function orderStreamItems(message: OrderStreamMessage): readonly OrderStreamItem[] {
  switch (message.kind) {
    case 'heartbeat':
      return [{ type: 'heartbeat' }];
    case 'snapshot':
      return [{ type: 'snapshot', orders: message.orders, sessionId: message.sessionId }];
    case 'update': {
      const items: OrderStreamItem[] = message.executions.map((execution) => ({ type: 'execution', execution, sessionId: message.sessionId }));
      if (message.cancelReject !== undefined) items.push({ type: 'cancelReject', cancelReject: message.cancelReject, sessionId: message.sessionId });
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
  return lastValueFrom(events$.pipe(reduce<OrderStreamEvent, readonly Order[] | undefined>((acc, e) => (e.type === 'snapshot' ? e.orders : acc), undefined)));
}

/** The last book of each symbol a snapshot_only market data stream delivered, by symbol. */
export function booksBySymbol(events$: Observable<MarketDataEvent>): Promise<ReadonlyMap<string, OrderBook>> {
  return lastValueFrom(
    events$.pipe(
      reduce((books, e) => {
        if (e.type === 'book') books.set(e.symbol, { symbol: e.symbol, bids: e.bids, offers: e.offers, state: e.state, stats: e.stats, transactTime: e.transactTime });
        return books;
      }, new Map<string, OrderBook>()),
    ),
  );
}
