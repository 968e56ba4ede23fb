/**
 * The gateway's NDJSON streams as RxJS Observables of typed domain events:
 * - `orderUpdates$({accounts?, symbols?})` over create_order_subscription: a snapshot of working orders on
 *   every (re)connection, then one `execution` event per execution (an update's `executions[]` is split so
 *   deduplication by execution id works across reconnects: at-least-once delivery becomes exactly-once for
 *   ids still remembered), `cancelReject` events and heartbeats;
 * - `marketData$({symbols, depth?})` over create_market_data_subscription: full books per symbol (the first
 *   after `connected` is the snapshot to reconcile with);
 * - `instrumentStates$({symbols?})` over create_instrument_state_change_subscription;
 * - `orderSnapshot()` and `marketDataSnapshot()`: the `snapshot_only` variants, as Promises (retried like the
 *   streams, but given up after 3 reconnections in a row that deliver nothing).
 * Observables are cold: each subscription opens its own HTTP stream; unsubscribing closes it. What a decoded
 * message becomes, and the snapshot reductions, are shared with the gRPC client (../stream-items.ts).
 */
import type { Observable } from 'rxjs';
import { filter } from 'rxjs';
import { MARKET_DATA_MAX_SYMBOLS, fastMarketDataLine, gateway } from '../../domain/index.ts';
import type { InstrumentScales, MarketDataMessage, ScaleSource } from '../../domain/index.ts';
import { type InstrumentCatalog, scaleSourceOf } from './catalog.ts';
import { GatewayError, GatewayErrorCode, badResponse } from './errors.ts';
import type {
  InstrumentStateItem,
  InstrumentStateStreamEvent,
  MarketDataEvent,
  MarketDataItem,
  OrderStreamEvent,
  OrderStreamItem,
} from '../../domain/stream-events.ts';
import { type StreamRunnerDeps, runGatewayStream } from './stream-runner.ts';
import { OrderAndMarketStreams, bookItems, instrumentStateItems, orderStreamItems } from '../stream-items.ts';

/** A snapshot Promise fails (STREAM_RECONNECT_EXHAUSTED) after this many reconnections in a row without a message. */
const SNAPSHOT_ATTEMPTS = 3;

export interface OrderStreamFilter {
  /** Only these accounts (all of the caller's when absent). */
  readonly accounts?: readonly string[];
  readonly symbols?: readonly string[];
}

export interface MarketDataFilter {
  /** 1 to 1000 symbols. */
  readonly symbols: readonly string[];
  /** Levels per side; the gateway's default (10) when absent. */
  readonly depth?: number;
}

export interface InstrumentStateFilter {
  readonly symbols?: readonly string[];
}

function checkMarketFilter(operation: string, filter: MarketDataFilter): void {
  const count = filter.symbols.length;
  if (count === 0 || count > MARKET_DATA_MAX_SYMBOLS) {
    throw new GatewayError(
      count === 0 ? GatewayErrorCode.InvalidRequest : GatewayErrorCode.LimitExceeded,
      `${operation}: name 1 to ${MARKET_DATA_MAX_SYMBOLS} symbols (got ${count})`,
      { details: { operation, count, max: MARKET_DATA_MAX_SYMBOLS } },
    );
  }
  if (filter.depth !== undefined && !(Number.isInteger(filter.depth) && filter.depth >= 0)) {
    throw new GatewayError(GatewayErrorCode.InvalidRequest, `${operation}: depth must be a whole number >= 0 (got ${filter.depth})`, {
      details: { operation },
    });
  }
}

export class GatewayStreams extends OrderAndMarketStreams {
  constructor(
    private readonly deps: StreamRunnerDeps,
    private readonly catalog: InstrumentCatalog,
  ) {
    super();
  }

  protected checkMarketFilter(filter: MarketDataFilter): void {
    checkMarketFilter('create_market_data_subscription', filter);
  }

  protected noSnapshot(): Error {
    return badResponse('create_order_subscription', new Error('the snapshot-only stream ended without a snapshot'));
  }

  /** Instrument state changes (the current state of each instrument first, then each change). */
  instrumentStates$(filter: InstrumentStateFilter = {}): Observable<InstrumentStateStreamEvent> {
    return runGatewayStream<InstrumentStateItem>(this.deps, {
      name: 'create_instrument_state_change_subscription',
      body: gateway.instrumentStateSubscriptionRequest.encode({ symbols: filter.symbols ?? [] }),
      decode: (line) => instrumentStateItems(gateway.instrumentStateStream.decode(line)),
    });
  }

  protected orderStream(filter: OrderStreamFilter, snapshotOnly: boolean): Observable<OrderStreamEvent> {
    return runGatewayStream<OrderStreamItem>(this.deps, {
      name: 'create_order_subscription',
      body: gateway.orderSubscriptionRequest.encode({ accounts: filter.accounts ?? [], symbols: filter.symbols ?? [], snapshotOnly }),
      decode: (line) => orderStreamItems(gateway.orderStream.decode(line, this.scales())),
      dedupeKey: (item) => (item.type === 'execution' && item.execution.id !== '' ? item.execution.id : undefined),
      expectCompletion: snapshotOnly,
      ...(snapshotOnly ? { maxConsecutiveFailures: SNAPSHOT_ATTEMPTS } : {}),
    });
  }

  protected marketStream(filter: MarketDataFilter, snapshotOnly: boolean): Observable<MarketDataEvent> {
    return runGatewayStream<MarketDataItem>(this.deps, {
      name: 'create_market_data_subscription',
      body: gateway.marketDataSubscriptionRequest.encode({ symbols: filter.symbols, depth: filter.depth ?? 0, snapshotOnly }),
      decode: (line) => bookItems(this.marketMessage(line)),
      expectCompletion: snapshotOnly,
      ...(snapshotOnly ? { maxConsecutiveFailures: SNAPSHOT_ATTEMPTS } : {}),
    });
  }

  private scales(): ScaleSource {
    return scaleSourceOf(this.catalog);
  }

  /** A market data line: a book update through the fast path, anything else (and any doubt) through the codec. */
  private marketMessage(line: unknown): MarketDataMessage {
    return fastMarketDataLine(line, this.lookup) ?? gateway.marketDataStream.decode(line, this.scales());
  }

  private readonly lookup = (symbol: string): InstrumentScales | undefined => this.catalog.scalesOf(symbol);
}

/** Keeps the events of the given types: `orderUpdates$().pipe(ofType('execution'))`. */
export function ofType<E extends { readonly type: string }, T extends E['type']>(
  ...types: readonly T[]
): (source: Observable<E>) => Observable<Extract<E, { type: T }>> {
  return (source) => source.pipe(filter((e): e is Extract<E, { type: T }> => (types as readonly string[]).includes(e.type)));
}
