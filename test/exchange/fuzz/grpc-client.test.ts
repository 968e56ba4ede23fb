/**
 * Fuzzing the gRPC client end to end without a network: server messages made of valid samples, samples
 * mutated and serialized again, and damaged or random bytes, deserialized by the protocol's real
 * deserializer (as grpc-js does) and fed through the client's real machinery with a fake channel: the
 * streams (`GrpcStreams`: order updates, market data, positions, instrument states; `GrpcResumableStreams`:
 * drop copy, trade capture; the resilient runner) and the unary calls (`GrpcTradingApi`). A stream emits
 * only known, typed events; each message that does not decode becomes exactly one `invalidMessage`
 * carrying GRPC_BAD_RESPONSE (counted against an independent decode of the same bytes) and the stream
 * carries on; a unary call returns its result or fails with GRPC_BAD_RESPONSE. Never a TypeError, an
 * unhandled error or a value that is not what the types say.
 */
import fc from 'fast-check';
import { NEVER, asyncScheduler, firstValueFrom, from, takeWhile, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/index.ts';
import { isTradebotError } from '../../../src/errors.ts';
import { instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import {
  GrpcClientErrorCode,
  GrpcResumableStreams,
  GrpcStreams,
  GrpcTradingApi,
  type GrpcChannel,
  type GrpcStreamDeps,
} from '../../../src/exchange/grpc/index.ts';
import { exchangeProtocol, type MethodRef } from '../../../src/exchange/grpc/protocol/index.ts';
import { applyMutations, mutation, type Json } from '../../sim/fuzz/helpers/arbitraries.ts';
import { fuzzRuns } from '../../sim/fuzz/helpers/fuzz-sim.ts';
import { SCALES } from '../../domain/fixtures.ts';
import { CLIENT_TARGETS, damaged, type ClientTarget } from './helpers/grpc-targets.ts';

type Message =
  | { kind: 'valid' }
  | { kind: 'mutated'; mutations: Parameters<typeof applyMutations>[1] }
  | { kind: 'damaged'; damage: Parameters<typeof damaged>[1] };

const message: fc.Arbitrary<Message> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'valid' as const }) },
  {
    weight: 5,
    arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => ({ kind: 'mutated' as const, mutations })),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc
          .array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 })
          .map((flips) => ({ kind: 'flipped' as const, flips })),
        fc.nat().map((cut) => ({ kind: 'truncated' as const, cut })),
        fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'random' as const, bytes })),
      )
      .map((damage) => ({ kind: 'damaged' as const, damage })),
  },
);

/** The bytes of one server message of target `t`. */
function bytesOf(t: ClientTarget, m: Message): Buffer {
  if (m.kind === 'valid') return t.bytes;
  if (m.kind === 'damaged') return damaged(t.bytes, m.damage);
  const wire = exchangeProtocol().method(t.ref);
  try {
    return wire.serializeResponse(applyMutations(wire.deserializeResponse(t.bytes) as Json, m.mutations) as object);
  } catch {
    return t.bytes; // protobufjs refuses the object: a server could not have sent it
  }
}

/** Whether the client's codec accepts these bytes, decided on a fresh deserialization. */
function decodes(t: ClientTarget, bytes: Buffer): boolean {
  try {
    t.codec.decode(exchangeProtocol().method(t.ref).deserializeResponse(bytes), SCALES);
    return true;
  } catch {
    return false;
  }
}

/** A channel whose first stream call serves `messages` (deserialized as grpc-js would) and ends; later calls never open. */
function fakeChannel(ref: MethodRef, messages: readonly Buffer[], unaryAnswer?: Buffer): GrpcChannel {
  const wire = exchangeProtocol().method(ref);
  let calls = 0;
  const channel = {
    serverStream: (): Observable<unknown> => (++calls > 1 ? NEVER : from(messages.map((b) => wire.deserializeResponse(b)))),
    unary: async (): Promise<unknown> => wire.deserializeResponse(unaryAnswer ?? Buffer.alloc(0)),
    close: () => undefined,
  };
  return channel as unknown as GrpcChannel;
}

function deps(channel: GrpcChannel): GrpcStreamDeps {
  return { channel, getToken: async () => 'token', scheduler: asyncScheduler, random: () => 0.5, options: {}, logger: undefined };
}

const catalog = instrumentCatalog(SCALES);

const STREAMS: Record<string, (d: GrpcStreamDeps) => Observable<{ type: string }>> = {
  'order update': (d) => new GrpcStreams(d, catalog).orderUpdates$(),
  'order snapshot': (d) => new GrpcStreams(d, catalog).orderUpdates$(),
  'market data': (d) => new GrpcStreams(d, catalog).marketData$({ symbols: ['EVT-A', 'EVT-B'] }),
  'position snapshot': (d) => new GrpcStreams(d, catalog).positions$(),
  'drop copy': (d) => new GrpcResumableStreams(d, catalog).dropCopy$({ dedupe: false }),
  'trade capture': (d) => new GrpcResumableStreams(d, catalog).tradeCaptureReports$({ dedupe: false }),
  'instrument state': (d) => new GrpcStreams(d, catalog).instrumentStates$(),
};

const KNOWN = new Set([
  'connected',
  'disconnected',
  'heartbeat',
  'invalidMessage',
  'snapshot',
  'execution',
  'cancelReject',
  'book',
  'state',
  'positionSnapshot',
  'position',
  'trade',
  'resumeLost',
]);

function checkEvent(name: string, event: Record<string, unknown>): void {
  expect(KNOWN.has(String(event['type'])), `${name}: unknown event ${String(event['type'])}`).toBe(true);
  if (event['type'] === 'invalidMessage') {
    const error = event['error'] as { code?: unknown; cause?: unknown } | undefined;
    expect(
      isTradebotError(error) && error.code === GrpcClientErrorCode.BadResponse,
      `${name}: invalidMessage carries ${String(error)}`,
    ).toBe(true);
    expect(isTradebotError(error?.cause), `${name}: the cause is typed: ${String(error?.cause)}`).toBe(true);
  }
  if (event['type'] === 'execution') {
    const order = (event['execution'] as { order: { orderQty: unknown; symbol: unknown } }).order;
    expect(Decimal.isDecimal(order.orderQty) && typeof order.symbol === 'string', name).toBe(true);
  }
  if (event['type'] === 'book') {
    for (const level of [...(event['bids'] as { px: unknown }[]), ...(event['offers'] as { px: unknown }[])])
      expect(Decimal.isDecimal(level.px), name).toBe(true);
  }
  if (event['type'] === 'position') expect(Decimal.isDecimal((event['position'] as { netPosition: unknown }).netPosition), name).toBe(true);
}

const streamTargets = CLIENT_TARGETS.filter((t) => t.name in STREAMS);

describe('the gRPC client streams under bad server messages', () => {
  it('covers every stream message', () => {
    expect(streamTargets.map((t) => t.name).sort()).toEqual(Object.keys(STREAMS).sort());
  });

  it('emit only typed events, one invalidMessage per message that does not decode, and carry on', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: streamTargets.length - 1 }),
        fc.array(message, { minLength: 1, maxLength: 8 }),
        async (i, messages) => {
          const t = streamTargets[i] as ClientTarget;
          const bytes = messages.map((m) => bytesOf(t, m));
          const stream = (STREAMS[t.name] as (d: GrpcStreamDeps) => Observable<{ type: string }>)(deps(fakeChannel(t.ref, bytes)));
          const events = (await firstValueFrom(
            stream.pipe(
              takeWhile((e) => e.type !== 'disconnected', true),
              toArray(),
            ),
          )) as unknown as Record<string, unknown>[];
          for (const event of events) checkEvent(t.name, event);
          const invalid = bytes.filter((b) => !decodes(t, b)).length;
          expect(events.filter((e) => e['type'] === 'invalidMessage').length, t.name).toBe(invalid);
          // the server ended the stream normally: the client reconnects (bad messages never end a stream)
          expect(events.at(-1)).toMatchObject({ type: 'disconnected', reason: 'completed', willReconnect: true });
        },
      ),
      { numRuns: fuzzRuns(300) },
    );
  });
});

const input = {
  account: 'firms/f1/accounts/a1',
  symbol: 'EVT-A',
  side: 'SIDE_BUY' as const,
  type: 'ORDER_TYPE_LIMIT' as const,
  orderQty: new Decimal(2),
  price: new Decimal('0.5'),
};

const UNARY: Record<string, (api: GrpcTradingApi) => Promise<unknown>> = {
  InsertOrder: (api) => api.insertOrder(input),
  InsertOrderList: (api) => api.insertOrderList([input, input]),
  PreviewOrder: (api) => api.previewOrder(input),
  CancelOrder: (api) => api.cancelOrder({ orderId: 'ord-1', symbol: 'EVT-A' }),
  CancelReplaceOrder: (api) =>
    api.cancelReplaceOrder({ orderId: 'ord-1', symbol: 'EVT-A', orderQty: new Decimal(3), price: new Decimal('0.51') }),
  GetOpenOrders: (api) => api.getOpenOrders(),
  ListInstruments: (api) => api.listInstruments(),
  SearchTrades: (api) => api.searchTrades(),
};

const unaryTargets = CLIENT_TARGETS.filter((t) => t.name in UNARY);

describe('the gRPC client unary calls under bad server answers', () => {
  it('covers every unary answer', () => {
    expect(unaryTargets.map((t) => t.name).sort()).toEqual(Object.keys(UNARY).sort());
  });

  it('return their result, or fail with GRPC_BAD_RESPONSE naming the method', async () => {
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: unaryTargets.length - 1 }), message, async (i, m) => {
        const t = unaryTargets[i] as ClientTarget;
        const answer = bytesOf(t, m);
        const api = new GrpcTradingApi({
          channel: fakeChannel(t.ref, [], answer),
          getToken: async () => 'token',
          catalog,
          newClordId: () => 'cl-1',
          deadlineMs: 1000,
        });
        try {
          await (UNARY[t.name] as (api: GrpcTradingApi) => Promise<unknown>)(api);
          expect(decodes(t, answer), `${t.name}: a bad answer was accepted`).toBe(true);
        } catch (error) {
          refused += 1;
          expect(isTradebotError(error) && error.code === GrpcClientErrorCode.BadResponse, `${t.name}: failed with ${String(error)}`).toBe(
            true,
          );
          expect((error as Error).message).toContain(t.ref.method);
          expect(decodes(t, answer), `${t.name}: a good answer was refused`).toBe(false);
        }
      }),
      { numRuns: fuzzRuns(400) },
    );
    expect(refused).toBeGreaterThan(20);
  });
});
