/**
 * The typed stream events of the Venue port, as every transport emits them (the gateway's NDJSON streams,
 * the gRPC streams, the backtest's replay, the scripted market). Each stream interleaves lifecycle events
 * (`connected`, `disconnected`) with domain events, so a consumer can mark its state stale on
 * `disconnected` and reconcile on the snapshot (orders) or the first full book (market data) that follows
 * the next `connected`.
 */
import type { InstrumentState } from './enums.ts';
import type { EpochMs } from './time.ts';
import type { CancelReject, Execution } from './types/execution.ts';
import type { BookLevel, InstrumentStats } from './types/market.ts';
import type { Order } from './types/order.ts';

/** Why a stream connection ended. */
export type DisconnectReason = 'error' | 'completed' | 'silence' | 'unauthenticated';

/** The stream is live again (its first message arrived); `attempt` counts connections from 1. */
export interface ConnectedEvent {
  readonly type: 'connected';
  readonly attempt: number;
}

/** The stream dropped; `willReconnect` false means it is over (the Observable errors or completes next). */
export interface DisconnectedEvent {
  readonly type: 'disconnected';
  readonly attempt: number;
  readonly reason: DisconnectReason;
  /** What ended the connection (a TradebotError; undefined for a clean end). */
  readonly error: unknown;
  readonly willReconnect: boolean;
  readonly retryInMs: number | undefined;
}

export interface HeartbeatEvent {
  readonly type: 'heartbeat';
}

/** A line that did not decode (e.g. a symbol missing from the catalog); the stream carries on. */
export interface InvalidMessageEvent {
  readonly type: 'invalidMessage';
  readonly error: unknown;
}

export type LifecycleEvent = ConnectedEvent | DisconnectedEvent;

/** Working orders at (re)connection: replace the local view of open orders with these. */
export interface OrderSnapshotEvent {
  readonly type: 'snapshot';
  readonly orders: readonly Order[];
  readonly sessionId: string;
}

/** One execution (acks, fills, cancels, replaces, rejects); delivered once per id across reconnects. */
export interface ExecutionEvent {
  readonly type: 'execution';
  readonly execution: Execution;
  readonly sessionId: string;
}

export interface CancelRejectEvent {
  readonly type: 'cancelReject';
  readonly cancelReject: CancelReject;
  readonly sessionId: string;
}

export type OrderStreamItem = OrderSnapshotEvent | ExecutionEvent | CancelRejectEvent | HeartbeatEvent | InvalidMessageEvent;
export type OrderStreamEvent = LifecycleEvent | OrderStreamItem;

/** A symbol's full aggregated book up to the requested depth (every update carries all levels). */
export interface BookEvent {
  readonly type: 'book';
  readonly symbol: string;
  /** Price descending. */
  readonly bids: readonly BookLevel[];
  /** Price ascending. */
  readonly offers: readonly BookLevel[];
  readonly state: InstrumentState | undefined;
  readonly stats: InstrumentStats | undefined;
  readonly transactTime: EpochMs | undefined;
}

export type MarketDataItem = BookEvent | HeartbeatEvent | InvalidMessageEvent;
export type MarketDataEvent = LifecycleEvent | MarketDataItem;

export interface InstrumentStateEvent {
  readonly type: 'state';
  readonly symbol: string;
  readonly state: InstrumentState;
  readonly text: string;
  readonly transactTime: EpochMs | undefined;
}

export type InstrumentStateItem = InstrumentStateEvent | HeartbeatEvent | InvalidMessageEvent;
export type InstrumentStateStreamEvent = LifecycleEvent | InstrumentStateItem;
