/**
 * The gRPC client's stream events beyond the Venue port's: positions, drop copy and trade capture (only the
 * gRPC transport has those streams). The order, market data and instrument state events every transport emits
 * are the port's vocabulary, in src/domain/stream-events.ts. Each stream interleaves lifecycle events
 * (`connected`, `disconnected`) with its data events.
 */
import type { Execution, Position, Trade } from '../../domain/index.ts';
import type { HeartbeatEvent, InvalidMessageEvent, LifecycleEvent } from '../../domain/stream-events.ts';

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
