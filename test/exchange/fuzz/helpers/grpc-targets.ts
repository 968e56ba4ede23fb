/**
 * The messages the gRPC client decodes, for the client fuzz suites: every unary answer and stream message
 * with a fully populated sample as real protobuf bytes (codec encode -> the method's serializeResponse),
 * and byte damage (flipped bytes, truncation, junk appended, random bytes).
 */
import fc from 'fast-check';
import type { InstrumentStateMessage, MarketDataMessage, OrderStreamMessage } from '../../../../src/domain/index.ts';
import {
  exchangeProtocol,
  grpcCodecs,
  methodRef,
  type GrpcCodec,
  type MethodRef,
  type Payload,
} from '../../../../src/exchange/grpc/protocol/index.ts';
import { SCALES, execution, familySamples, trade } from '../../../domain/fixtures.ts';

export interface ClientTarget {
  name: string;
  ref: MethodRef;
  codec: GrpcCodec<unknown>;
  /** Valid bytes of a fully populated message. */
  bytes: Buffer;
}

const meta = { sessionId: 's-1', processedSentTime: Date.UTC(2024, 4, 1, 12) };

function target<T>(name: string, ref: MethodRef, codec: GrpcCodec<T>, sample: T): ClientTarget {
  const wire = exchangeProtocol().method(ref);
  return { name, ref, codec: codec as GrpcCodec<unknown>, bytes: wire.serializeResponse(codec.encode(sample, SCALES)) };
}

const positions = familySamples.positionStream.kind === 'update' ? familySamples.positionStream.positions : [];

/** Every message the gRPC client decodes, with a sample. */
export const CLIENT_TARGETS: ClientTarget[] = [
  target('InsertOrder', methodRef('OrderEntryAPI', 'InsertOrder'), grpcCodecs.insertOrderResponse, {
    orderId: 'ord-1',
    clordId: 'cl-1',
    status: 'REJECTED',
    text: 'closed',
  }),
  target('InsertOrderList', methodRef('OrderEntryAPI', 'InsertOrderList'), grpcCodecs.orderIdsResponse, familySamples.orderIdsResponse),
  target('PreviewOrder', methodRef('OrderEntryAPI', 'PreviewOrder'), grpcCodecs.previewOrderResponse, familySamples.previewOrderResponse),
  target('CancelOrder', methodRef('OrderEntryAPI', 'CancelOrder'), grpcCodecs.cancelOrderResponse, {}),
  target('CancelReplaceOrder', methodRef('OrderEntryAPI', 'CancelReplaceOrder'), grpcCodecs.replaceOrderResponse, { orderId: 'ord-2' }),
  target('GetOpenOrders', methodRef('OrderEntryAPI', 'GetOpenOrders'), grpcCodecs.openOrdersResponse, familySamples.openOrdersResponse),
  target(
    'ListInstruments',
    methodRef('RefDataAPI', 'ListInstruments'),
    grpcCodecs.listInstrumentsResponse,
    familySamples.listInstrumentsResponse,
  ),
  target('SearchTrades', methodRef('ReportAPI', 'SearchTrades'), grpcCodecs.searchTradesResponse, familySamples.searchTradesResponse),
  target(
    'order update',
    methodRef('OrderEntryAPI', 'CreateOrderSubscription'),
    grpcCodecs.orderStream,
    familySamples.orderStream as Payload<OrderStreamMessage>,
  ),
  target('order snapshot', methodRef('OrderEntryAPI', 'CreateOrderSubscription'), grpcCodecs.orderStream, {
    kind: 'snapshot',
    orders: familySamples.openOrdersResponse.orders,
    ...meta,
  }),
  target(
    'market data',
    methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription'),
    grpcCodecs.marketDataStream,
    familySamples.marketDataStream as Payload<MarketDataMessage>,
  ),
  target('position snapshot', methodRef('PositionAPI', 'CreatePositionSubscription'), grpcCodecs.positionStream, {
    kind: 'snapshot',
    positions,
    ...meta,
  }),
  target('drop copy', methodRef('DropCopyAPI', 'CreateDropCopySubscription'), grpcCodecs.dropCopyStream, {
    kind: 'execution',
    execution,
    resumeToken: 'ab12.7',
    ...meta,
  }),
  target('trade capture', methodRef('DropCopyAPI', 'CreateTradeCaptureReportSubscription'), grpcCodecs.tradeCaptureStream, {
    kind: 'trade',
    trade,
    resumeToken: 'ab12.8',
    ...meta,
  }),
  target(
    'instrument state',
    methodRef('DropCopyAPI', 'CreateInstrumentStateChangeSubscription'),
    grpcCodecs.instrumentStateStream,
    familySamples.instrumentStateStream as Payload<InstrumentStateMessage>,
  ),
];

export type Damage =
  | { kind: 'flipped'; flips: [number, number][] }
  | { kind: 'truncated'; cut: number }
  | { kind: 'appended'; bytes: Uint8Array }
  | { kind: 'random'; bytes: Uint8Array };

export const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc
    .array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 })
    .map((flips) => ({ kind: 'flipped' as const, flips })),
  fc.nat().map((cut) => ({ kind: 'truncated' as const, cut })),
  fc.uint8Array({ minLength: 1, maxLength: 24 }).map((bytes) => ({ kind: 'appended' as const, bytes })),
  fc.uint8Array({ maxLength: 96 }).map((bytes) => ({ kind: 'random' as const, bytes })),
);

/** `valid` with the damage applied. */
export function damaged(valid: Buffer, d: Damage): Buffer {
  switch (d.kind) {
    case 'flipped': {
      const out = Buffer.from(valid);
      for (const [at, value] of d.flips) if (out.length > 0) out[at % out.length] = value;
      return out;
    }
    case 'truncated':
      return valid.subarray(0, d.cut % Math.max(1, valid.length));
    case 'appended':
      return Buffer.concat([valid, d.bytes]);
    case 'random':
      return Buffer.from(d.bytes);
  }
}
