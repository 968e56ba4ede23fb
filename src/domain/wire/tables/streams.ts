/**
 * Stream message codecs: order subscription, market data, instrument state changes and positions.
 */
import { INSTRUMENT_STATES } from '../../enums.ts';
import type {
  InstrumentStateChange,
  InstrumentStateMessage,
  MarketDataMessage,
  OrderStreamMessage,
  PositionStreamMessage,
  OrderSnapshotBody,
  OrderUpdateBody,
  PositionUpdateBody,
  StreamMeta,
} from '../../types/stream.ts';
import type { MarketDataUpdate } from '../../types/market.ts';
import { type RootCodec, message, msg, optMsg } from '../codec.ts';
import { enumOf, list, str, time } from '../fields.ts';
import { emptyCodec, streamCodec } from '../stream-codec.ts';
import { cancelRejectCodec, executionCodec } from './execution.ts';
import { orderBookCodec } from './market.ts';
import { orderCodec } from './order.ts';
import { positionCodec } from './reference.ts';

const streamMetaCodec = message<StreamMeta>({
  name: 'StreamMeta',
  fields: { sessionId: str(), processedSentTime: time() },
});
const noMetaCodec = message<object>({ name: 'NoMeta', fields: {} });

const orderSnapshotCodec = message<OrderSnapshotBody>({
  name: 'OrderSnapshot',
  fields: { orders: list(msg(orderCodec)) },
});
const orderUpdateCodec = message<OrderUpdateBody>({
  name: 'OrderUpdate',
  fields: { executions: list(msg(executionCodec)), cancelReject: optMsg(cancelRejectCodec) },
});

export const orderStreamCodec: RootCodec<OrderStreamMessage> = streamCodec<
  { heartbeat: object; snapshot: OrderSnapshotBody; update: OrderUpdateBody },
  StreamMeta
>({
  name: 'order stream',
  variants: { heartbeat: emptyCodec, snapshot: orderSnapshotCodec, update: orderUpdateCodec },
  meta: streamMetaCodec,
});

export const marketDataStreamCodec: RootCodec<MarketDataMessage> = streamCodec<{ heartbeat: object; update: MarketDataUpdate }, object>({
  name: 'market data stream',
  variants: { heartbeat: emptyCodec, update: orderBookCodec },
  meta: noMetaCodec,
});

const instrumentStateChangeCodec = message<InstrumentStateChange>({
  name: 'InstrumentStateChange',
  fields: {
    symbol: str(),
    state: enumOf(INSTRUMENT_STATES, 'InstrumentState'),
    text: str(),
    transactTime: time(),
  },
});

export const instrumentStateStreamCodec: RootCodec<InstrumentStateMessage> = streamCodec<
  { heartbeat: object; update: InstrumentStateChange },
  object
>({
  name: 'instrument state stream',
  variants: { heartbeat: emptyCodec, update: instrumentStateChangeCodec },
  meta: noMetaCodec,
});

const positionUpdateCodec = message<PositionUpdateBody>({
  name: 'PositionUpdate',
  fields: { positions: list(msg(positionCodec)) },
});

export const positionStreamCodec: RootCodec<PositionStreamMessage> = streamCodec<
  { heartbeat: object; update: PositionUpdateBody },
  StreamMeta
>({
  name: 'position stream',
  variants: { heartbeat: emptyCodec, update: positionUpdateCodec },
  meta: streamMetaCodec,
});
