/**
 * Domain types of streamed messages and error bodies. A gateway stream line is `{"result": {...}}` or
 * `{"error": {...}}`; the domain form is a union discriminated by `kind`: 'heartbeat' | 'snapshot' |
 * 'update' | 'error' (the variant's wire key inside `result`, or 'error').
 */
import type { InstrumentState } from '../enums.ts';
import type { EpochMs } from '../time.ts';
import type { JsonObject } from './common.ts';
import type { CancelReject, Execution } from './execution.ts';
import type { Position } from './account.ts';
import type { MarketDataUpdate } from './market.ts';
import type { Order } from './order.ts';

/** `error` of a stream line: gRPC status code, message and `@type`d details. */
export interface StreamError {
  readonly code: number;
  readonly message: string;
  readonly details: readonly JsonObject[];
}

/** HTTP error body of the gateway (`details` is a string per the spec; an array is also accepted). */
export interface GatewayErrorBody {
  readonly code: number;
  readonly message: string;
  readonly details: string | readonly JsonObject[];
}

export interface StreamMeta {
  readonly sessionId: string;
  readonly processedSentTime: EpochMs | undefined;
}

export interface StreamErrorMessage {
  readonly kind: 'error';
  readonly error: StreamError;
}

export interface OrderSnapshotBody {
  readonly orders: readonly Order[];
}

export interface OrderUpdateBody {
  readonly executions: readonly Execution[];
  readonly cancelReject: CancelReject | undefined;
}

export type OrderStreamMessage =
  | ({ readonly kind: 'heartbeat' } & StreamMeta)
  | ({ readonly kind: 'snapshot' } & OrderSnapshotBody & StreamMeta)
  | ({ readonly kind: 'update' } & OrderUpdateBody & StreamMeta)
  | StreamErrorMessage;

export type MarketDataMessage = { readonly kind: 'heartbeat' } | ({ readonly kind: 'update' } & MarketDataUpdate) | StreamErrorMessage;

/** Our design: the instrument state stream's update. */
export interface InstrumentStateChange {
  readonly symbol: string;
  readonly state: InstrumentState;
  readonly text: string;
  readonly transactTime: EpochMs | undefined;
}

export type InstrumentStateMessage =
  { readonly kind: 'heartbeat' } | ({ readonly kind: 'update' } & InstrumentStateChange) | StreamErrorMessage;

/** Our design: the position stream sends the changed positions. */
export interface PositionUpdateBody {
  readonly positions: readonly Position[];
}

export type PositionStreamMessage =
  ({ readonly kind: 'heartbeat' } & StreamMeta) | ({ readonly kind: 'update' } & PositionUpdateBody & StreamMeta) | StreamErrorMessage;
