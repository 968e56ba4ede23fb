/**
 * The stream types of the exchange's transports beyond the Venue port's: the position, drop copy and trade
 * capture events (only gRPC has those streams today) and the source interfaces a transport implements. The
 * order, market data and instrument state events every transport emits are the port's vocabulary
 * (src/domain/stream-events.ts), imported from there and re-exported for the market barrel's users. Each
 * stream interleaves lifecycle events (`connected`, `disconnected`) with its data events.
 */
import type { Observable } from 'rxjs';
import type { Execution, Position, Trade } from '../../domain/index.ts';
import type {
  HeartbeatEvent,
  InvalidMessageEvent,
  LifecycleEvent,
  InstrumentStateStreamEvent,
  MarketDataEvent,
  OrderStreamEvent,
} from '../../domain/stream-events.ts';

export type {
  BookEvent,
  CancelRejectEvent,
  ConnectedEvent,
  DisconnectedEvent,
  ExecutionEvent,
  HeartbeatEvent,
  InstrumentStateEvent,
  InstrumentStateItem,
  InstrumentStateStreamEvent,
  InvalidMessageEvent,
  LifecycleEvent,
  MarketDataEvent,
  MarketDataItem,
  OrderSnapshotEvent,
  OrderStreamEvent,
  OrderStreamItem,
} from '../../domain/stream-events.ts';

/** Every position of the subscribed accounts at (re)connection: replace the local positions with these. */
export interface PositionSnapshotEvent {
  readonly type: 'positionSnapshot';
  readonly positions: readonly Position[];
  readonly sessionId: string;
}

/** One changed position (the whole position, not a delta). */
export interface PositionEvent {
  readonly type: 'position';
  readonly position: Position;
  readonly sessionId: string;
}

export type PositionStreamItem = PositionSnapshotEvent | PositionEvent | HeartbeatEvent | InvalidMessageEvent;
export type PositionStreamEvent = LifecycleEvent | PositionStreamItem;

/** A drop copy execution with the resume token to persist (reconnecting from it misses nothing). */
export interface DropCopyExecutionEvent {
  readonly type: 'execution';
  readonly execution: Execution;
  readonly resumeToken: string;
  readonly sessionId: string;
}

export interface TradeCaptureEvent {
  readonly type: 'trade';
  readonly trade: Trade;
  readonly resumeToken: string;
  readonly sessionId: string;
}

/**
 * The server could not resume from the client's token (too old, or from another server run): messages may
 * have been missed. The stream continues from now; reconcile the gap from trade search / open orders.
 */
export interface ResumeLostEvent {
  readonly type: 'resumeLost';
  readonly resumeToken: string;
  readonly error: unknown;
}

/** A heartbeat of a resumable stream: the stream position moved (nothing relevant happened). */
export interface ResumableHeartbeatEvent {
  readonly type: 'heartbeat';
  readonly resumeToken: string;
}

export type DropCopyItem = DropCopyExecutionEvent | ResumeLostEvent | ResumableHeartbeatEvent | InvalidMessageEvent;
export type DropCopyEvent = LifecycleEvent | DropCopyItem;
export type TradeCaptureItem = TradeCaptureEvent | ResumeLostEvent | ResumableHeartbeatEvent | InvalidMessageEvent;
export type TradeCaptureStreamEvent = LifecycleEvent | TradeCaptureItem;

export interface MarketDataRequest {
  /** 1 to 1000 symbols. */
  readonly symbols: readonly string[];
  /** Levels per side; the venue's default (10) when absent. */
  readonly depth?: number;
}

/** What the market copy needs from a transport: GatewayClient and GrpcExchangeClient both fit. */
export interface MarketDataSource {
  marketData$(request: MarketDataRequest): Observable<MarketDataEvent>;
}

export interface PositionSource {
  positions$(request?: { readonly accounts?: readonly string[] }): Observable<PositionStreamEvent>;
}

/** The order stream of either transport. */
export interface OrderUpdateSource {
  orderUpdates$(request?: { readonly accounts?: readonly string[]; readonly symbols?: readonly string[] }): Observable<OrderStreamEvent>;
}

export interface InstrumentStateSource {
  instrumentStates$(request?: { readonly symbols?: readonly string[] }): Observable<InstrumentStateStreamEvent>;
}
