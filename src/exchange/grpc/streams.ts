/**
 * The gRPC streams as RxJS Observables of the SAME typed events the gateway client emits (the port's,
 * src/domain/stream-events.ts; positions from ./stream-types.ts), so a consumer does not care which transport
 * feeds it:
 * - `orderUpdates$` (CreateOrderSubscription): a snapshot per (re)connection, one `execution` event per
 *   execution (deduplicated by id across reconnects), `cancelReject` events, heartbeats;
 * - `marketData$` (CreateMarketDataSubscription): full books per symbol; the first per symbol after
 *   `connected` is its snapshot;
 * - `instrumentStates$` (CreateInstrumentStateChangeSubscription);
 * - `positions$` (CreatePositionSubscription): `positionSnapshot` per (re)connection, then `position` events;
 * - `orderSnapshot()` / `marketDataSnapshot()`: the `snapshot_only` variants as Promises.
 * Observables are cold: each subscription opens its own call; unsubscribing cancels it. The symbol count
 * of a market data request is checked by the server (INVALID_ARGUMENT beyond 1000). What a decoded message
 * becomes, and the snapshot reductions, are the gateway client's (../stream-items.ts).
 */
import type { Observable } from 'rxjs';
import type { InstrumentScales, ScaleSource } from '../../domain/index.ts';
import { type InstrumentCatalog, scaleSourceOf } from '../gateway/catalog.ts';
import type { InstrumentStateFilter, MarketDataFilter, OrderStreamFilter } from '../gateway/streams.ts';
import type {
  InstrumentStateItem,
  InstrumentStateStreamEvent,
  MarketDataEvent,
  MarketDataItem,
  OrderStreamEvent,
  OrderStreamItem,
} from '../../domain/stream-events.ts';
import type { PositionStreamEvent, PositionStreamItem } from './stream-types.ts';
import { GrpcClientErrorCode, GrpcError, badResponse } from './errors.ts';
import { decodeMarketDataResponse, grpcCodecs, methodRef } from './protocol/index.ts';
import { type GrpcStreamDeps, runGrpcStream } from './stream-runner.ts';
import { OrderAndMarketStreams, bookItems, instrumentStateItems, orderStreamItems } from '../stream-items.ts';

export interface PositionFilter {
  /** Only these accounts (all of the caller's when absent). */
  readonly accounts?: readonly string[];
}

function positionItems(raw: unknown, scales: ScaleSource): readonly PositionStreamItem[] {
  const message = grpcCodecs.positionStream.decode(raw, scales);
  if (message.kind === 'heartbeat') return [{ type: 'heartbeat' }];
  if (message.kind === 'snapshot') return [{ type: 'positionSnapshot', positions: message.positions, sessionId: message.sessionId }];
  return message.positions.map((position) => ({ type: 'position', position, sessionId: message.sessionId }));
}

function checkDepth(depth: number | undefined): void {
  if (depth !== undefined && !(Number.isInteger(depth) && depth >= 0)) {
    throw new GrpcError(
      GrpcClientErrorCode.InvalidOptions,
      `CreateMarketDataSubscription: depth must be a whole number >= 0 (got ${depth})`,
      { kind: 'validation' },
    );
  }
}

export class GrpcStreams extends OrderAndMarketStreams {
  constructor(
    private readonly deps: GrpcStreamDeps,
    private readonly catalog: InstrumentCatalog,
  ) {
    super();
  }

  protected checkMarketFilter(filter: MarketDataFilter): void {
    checkDepth(filter.depth);
  }

  protected noSnapshot(): Error {
    return badResponse('OrderEntryAPI.CreateOrderSubscription', new Error('the snapshot-only stream ended without a snapshot'));
  }

  /** Instrument state changes (the current state of each instrument first, then each change). */
  instrumentStates$(filter: InstrumentStateFilter = {}): Observable<InstrumentStateStreamEvent> {
    return runGrpcStream<InstrumentStateItem>(this.deps, {
      name: 'DropCopyAPI.CreateInstrumentStateChangeSubscription',
      method: methodRef('DropCopyAPI', 'CreateInstrumentStateChangeSubscription'),
      request: () => grpcCodecs.instrumentStateSubscriptionRequest.encode({ symbols: filter.symbols ?? [] }),
      decode: (raw) => instrumentStateItems(grpcCodecs.instrumentStateStream.decode(raw)),
    });
  }

  /** Positions of the caller's accounts: a snapshot per (re)connection, then each changed position. */
  positions$(filter: PositionFilter = {}): Observable<PositionStreamEvent> {
    return runGrpcStream<PositionStreamItem>(this.deps, {
      name: 'PositionAPI.CreatePositionSubscription',
      method: methodRef('PositionAPI', 'CreatePositionSubscription'),
      request: () => grpcCodecs.positionSubscriptionRequest.encode({ accounts: filter.accounts ?? [] }),
      decode: (raw) => positionItems(raw, this.scales()),
    });
  }

  protected orderStream(filter: OrderStreamFilter, snapshotOnly: boolean): Observable<OrderStreamEvent> {
    return runGrpcStream<OrderStreamItem>(this.deps, {
      name: 'OrderEntryAPI.CreateOrderSubscription',
      method: methodRef('OrderEntryAPI', 'CreateOrderSubscription'),
      request: () =>
        grpcCodecs.orderSubscriptionRequest.encode({ accounts: filter.accounts ?? [], symbols: filter.symbols ?? [], snapshotOnly }),
      decode: (raw) => orderStreamItems(grpcCodecs.orderStream.decode(raw, this.scales())),
      dedupeKey: (item) => (item.type === 'execution' && item.execution.id !== '' ? item.execution.id : undefined),
      expectCompletion: snapshotOnly,
    });
  }

  protected marketStream(filter: MarketDataFilter, snapshotOnly: boolean): Observable<MarketDataEvent> {
    return runGrpcStream<MarketDataItem>(this.deps, {
      name: 'MarketDataSubscriptionAPI.CreateMarketDataSubscription',
      method: methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription'),
      request: () => grpcCodecs.marketDataSubscriptionRequest.encode({ symbols: filter.symbols, depth: filter.depth ?? 0, snapshotOnly }),
      decode: (raw) => bookItems(decodeMarketDataResponse(raw, this.scales(), this.lookup)),
      rawMessages: true,
      expectCompletion: snapshotOnly,
    });
  }

  private scales(): ScaleSource {
    return scaleSourceOf(this.catalog);
  }

  private readonly lookup = (symbol: string): InstrumentScales | undefined => this.catalog.scalesOf(symbol);
}
