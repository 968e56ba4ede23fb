/**
 * The gRPC-only messages, as domain types with their snake_case codecs built from the domain's table-driven
 * codec kit: the position stream (which adds a `snapshot` variant to the gateway's position stream), the
 * drop copy and trade capture streams (an execution or a trade per message, with a `resume_token`), their
 * subscription requests, InsertOrder's answer with its `text`, CancelReplaceOrder's `{order_id}` and the
 * empty answer of the cancels. Everything else on gRPC has exactly the shape of a gateway payload and reuses
 * the gateway codecs (see codecs.ts).
 */
import type { Execution, Position, StreamErrorMessage, StreamMeta, Trade } from '../../../domain/index.ts';
import { bindCodec } from '../../../domain/index.ts';
import type { WireCodec } from '../../../domain/index.ts';
import { type MessageCodec, type RootCodec, message, msg } from '../../../domain/wire/codec.ts';
import { list, str, time } from '../../../domain/wire/fields.ts';
import { emptyCodec, streamCodec } from '../../../domain/wire/stream-codec.ts';
import { executionCodec, tradeCodec } from '../../../domain/wire/tables/execution.ts';
import { positionCodec } from '../../../domain/wire/tables/reference.ts';

/** Position stream: every position of the requested accounts first, then changed positions. */
export interface PositionListBody {
  readonly positions: readonly Position[];
}

export type GrpcPositionMessage =
  | ({ readonly kind: 'heartbeat' } & StreamMeta)
  | ({ readonly kind: 'snapshot' } & PositionListBody & StreamMeta)
  | ({ readonly kind: 'update' } & PositionListBody & StreamMeta)
  | StreamErrorMessage;

/** Meta of the resumable streams: the stream position after this message. */
export interface ResumableMeta extends StreamMeta {
  readonly resumeToken: string;
}

export type DropCopyMessage =
  | ({ readonly kind: 'heartbeat' } & ResumableMeta)
  | ({ readonly kind: 'execution'; readonly execution: Execution } & ResumableMeta)
  | StreamErrorMessage;

export type TradeCaptureMessage =
  | ({ readonly kind: 'heartbeat' } & ResumableMeta)
  | ({ readonly kind: 'trade'; readonly trade: Trade } & ResumableMeta)
  | StreamErrorMessage;

/** CreateDropCopySubscription / CreateTradeCaptureReportSubscription request. */
export interface ResumableSubscriptionRequest {
  readonly accounts: readonly string[];
  readonly symbols: readonly string[];
  /** '' = from now on. */
  readonly resumeToken: string;
}

/** InsertOrder's answer (the gateway's insert_order answer, `text` included). */
export interface InsertOrderAnswer {
  readonly orderId: string;
  readonly clordId: string;
  readonly status: string;
  readonly text: string;
}

/** CancelReplaceOrder's answer: the id of the order as replaced. */
export interface OrderIdAnswer {
  readonly orderId: string;
}

/** A variant whose body is one message kept under `key` (the stream codec spreads variant bodies). */
function boxed<K extends string, T>(key: K, codec: RootCodec<T>, name: string): MessageCodec<{ readonly [P in K]: T }> {
  return {
    name,
    usesScope: codec.usesScope,
    decodeAt: (raw, here, ctx, scope) => ({ [key]: codec.decodeAt(raw, here, ctx, scope) }) as { readonly [P in K]: T },
    encodeAt: (value, here, ctx, scope) => codec.encodeAt(value[key], here, ctx, scope),
  };
}

const positionListCodec = message<PositionListBody>({ name: 'PositionList', fields: { positions: list(msg(positionCodec)) } });
const streamMetaCodec = message<StreamMeta>({ name: 'StreamMeta', fields: { sessionId: str(), processedSentTime: time() } });
const resumableMetaCodec = message<ResumableMeta>({
  name: 'ResumableMeta',
  fields: { resumeToken: str(), sessionId: str(), processedSentTime: time() },
});

const positionStream = streamCodec<{ heartbeat: object; snapshot: PositionListBody; update: PositionListBody }, StreamMeta>({
  name: 'position stream',
  variants: { heartbeat: emptyCodec, snapshot: positionListCodec, update: positionListCodec },
  meta: streamMetaCodec,
}) as RootCodec<GrpcPositionMessage>;

const dropCopyStream = streamCodec<{ heartbeat: object; execution: { readonly execution: Execution } }, ResumableMeta>({
  name: 'drop copy stream',
  variants: { heartbeat: emptyCodec, execution: boxed('execution', executionCodec, 'Execution') },
  meta: resumableMetaCodec,
}) as RootCodec<DropCopyMessage>;

const tradeCaptureStream = streamCodec<{ heartbeat: object; trade: { readonly trade: Trade } }, ResumableMeta>({
  name: 'trade capture stream',
  variants: { heartbeat: emptyCodec, trade: boxed('trade', tradeCodec, 'Trade') },
  meta: resumableMetaCodec,
}) as RootCodec<TradeCaptureMessage>;

const resumableRequest = message<ResumableSubscriptionRequest>({
  name: 'ResumableSubscriptionRequest',
  fields: { accounts: list(str()), symbols: list(str()), resumeToken: str() },
});

const orderIdAnswer = message<OrderIdAnswer>({ name: 'OrderIdResponse', fields: { orderId: str() } });

const insertOrderAnswer = message<InsertOrderAnswer>({
  name: 'InsertOrderResponse',
  fields: { orderId: str(), clordId: str(), status: str(), text: str() },
});

/** snake_case codecs of the gRPC-only payloads, in the `{"result": ...}` line form for streams. */
export const grpcOnly: {
  readonly positionStream: WireCodec<GrpcPositionMessage>;
  readonly dropCopyStream: WireCodec<DropCopyMessage>;
  readonly tradeCaptureStream: WireCodec<TradeCaptureMessage>;
  readonly resumableRequest: WireCodec<ResumableSubscriptionRequest>;
  readonly insertOrderAnswer: WireCodec<InsertOrderAnswer>;
  readonly orderIdAnswer: WireCodec<OrderIdAnswer>;
  readonly emptyAnswer: WireCodec<object>;
} = {
  positionStream: bindCodec(positionStream, 'snake'),
  dropCopyStream: bindCodec(dropCopyStream, 'snake'),
  tradeCaptureStream: bindCodec(tradeCaptureStream, 'snake'),
  resumableRequest: bindCodec(resumableRequest, 'snake'),
  insertOrderAnswer: bindCodec(insertOrderAnswer, 'snake'),
  orderIdAnswer: bindCodec(orderIdAnswer, 'snake'),
  emptyAnswer: bindCodec(emptyCodec, 'snake'),
};
