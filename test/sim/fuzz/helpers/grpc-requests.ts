/**
 * What the gRPC fuzz suites send to the simulator's gRPC door: a valid request object for every method of
 * proto/exchange.proto (built at run time, so cancels and replaces name a working order), mutated field by
 * field (see arbitraries.ts), then turned into request bytes in one of several ways: the real serializer
 * (protobufjs coerces what it can: a number for a string field, a string for an int32, ...), another
 * method's request (a wrong message type), the valid bytes with flipped bytes, truncated or with junk
 * appended, random bytes, or nothing. A mutated object protobufjs refuses outright (a list or a message
 * replaced by a scalar) is first fitted to the schema: only those fields are dropped, so the other
 * mutations, and the scalar type changes the serializer coerces, still reach the server. Metadata: the
 * family A `authorization` variants of the /v1 fuzzing (missing, bare, other firm, gateway token, tampered,
 * alg none, HS256 with the public key, garbage), alone or folded twice into one value (as a proxy joining
 * two headers would; grpc-js itself refuses to send two `authorization` entries), plus a random extra entry
 * (text or `-bin`).
 *
 * Calls go through a raw grpc-js Client (grpc-raw.ts), so the bytes are exactly the fuzzed ones and the
 * answer is checked as it comes: OK (a unary answer, or a stream's first message, that decodes
 * with the client codecs) or a clear status (INVALID_ARGUMENT, UNAUTHENTICATED, PERMISSION_DENIED,
 * NOT_FOUND, FAILED_PRECONDITION, OUT_OF_RANGE) with details saying what is wrong; never INTERNAL,
 * UNKNOWN or a hang. A refused call, and any stream, leaves the exchange state exactly as it was.
 */
import fc from 'fast-check';
import { Metadata, status } from '@grpc/grpc-js';
import { loadSync, type MessageTypeDefinition, type PackageDefinition, type ServiceDefinition } from '@grpc/proto-loader';
import { expect } from 'vitest';
import {
  LOADER_OPTIONS,
  PROTO_DIR,
  PROTO_FILE,
  SERVICES,
  exchangeProtocol,
  grpcCodecs,
  methodRef,
  type GrpcCodec,
  type MethodRef,
  type ServiceName,
} from '../../../../src/exchange/grpc/protocol/index.ts';
import type { ScaleSource } from '../../../../src/domain/index.ts';
import { applyMutations, hostileJson, hostileString, mutation, type Json, type Mutation } from './arbitraries.ts';
import { ALICE_HEDGE, ALICE_MAIN, SYMBOL, SYMBOL2, headerSafe, restingOrder, stateOf, type FuzzSim, type Tally } from './fuzz-sim.ts';
import { ALICE, ApiTokens, apiAuth, type ApiAuth } from './familya-requests.ts';
import { RawGrpc } from './grpc-raw.ts';

export interface GrpcMethod {
  readonly ref: MethodRef;
  /** The valid request object (the loader's snake_case form). */
  base(sim: FuzzSim): Json;
  /** Decodes an OK answer (unary) or first message (stream). */
  readonly answer: GrpcCodec<unknown>;
}

const order = (account: string, side: 'SIDE_BUY' | 'SIDE_SELL', qty: string, price: string, symbol = SYMBOL): Json => ({
  symbol,
  side,
  type: 'ORDER_TYPE_LIMIT',
  time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  order_qty: qty,
  price,
  account,
});

const aliceOrder = (sim: FuzzSim): string => restingOrder(sim.h, ALICE_MAIN, ALICE);
const codec = <T>(c: GrpcCodec<T>): GrpcCodec<unknown> => c as GrpcCodec<unknown>;

export const UNARY_METHODS: GrpcMethod[] = [
  {
    ref: methodRef('OrderEntryAPI', 'InsertOrder'),
    base: () => order(ALICE_MAIN, 'SIDE_BUY', '1', '20'),
    answer: codec(grpcCodecs.insertOrderResponse),
  },
  {
    ref: methodRef('OrderEntryAPI', 'InsertOrderList'),
    base: () => ({ requests: [order(ALICE_MAIN, 'SIDE_BUY', '1', '21'), order(ALICE_HEDGE, 'SIDE_BUY', '2', '22', SYMBOL2)] }),
    answer: codec(grpcCodecs.orderIdsResponse),
  },
  {
    ref: methodRef('OrderEntryAPI', 'PreviewOrder'),
    base: () => ({ request: order(ALICE_MAIN, 'SIDE_SELL', '3', '80') }),
    answer: codec(grpcCodecs.previewOrderResponse),
  },
  {
    ref: methodRef('OrderEntryAPI', 'CancelOrder'),
    base: (sim) => ({ order_id: aliceOrder(sim), symbol: SYMBOL }),
    answer: codec(grpcCodecs.cancelOrderResponse),
  },
  {
    ref: methodRef('OrderEntryAPI', 'CancelOrderList'),
    base: (sim) => ({ requests: [{ order_id: aliceOrder(sim), symbol: SYMBOL }] }),
    answer: codec(grpcCodecs.cancelOrderResponse),
  },
  {
    ref: methodRef('OrderEntryAPI', 'CancelReplaceOrder'),
    base: (sim) => ({ order_id: aliceOrder(sim), symbol: SYMBOL, order_qty: '2', price: '11' }),
    answer: codec(grpcCodecs.replaceOrderResponse),
  },
  {
    ref: methodRef('OrderEntryAPI', 'GetOpenOrders'),
    base: () => ({ accounts: [ALICE_MAIN], symbols: [SYMBOL] }),
    answer: codec(grpcCodecs.openOrdersResponse),
  },
  {
    ref: methodRef('RefDataAPI', 'ListInstruments'),
    base: () => ({ symbols: [SYMBOL], page_size: 10 }),
    answer: codec(grpcCodecs.listInstrumentsResponse),
  },
  {
    ref: methodRef('ReportAPI', 'SearchTrades'),
    base: () => ({ accounts: [ALICE_MAIN, ALICE_HEDGE], symbol: SYMBOL, page_size: 5 }),
    answer: codec(grpcCodecs.searchTradesResponse),
  },
];

export const STREAM_METHODS: GrpcMethod[] = [
  {
    ref: methodRef('OrderEntryAPI', 'CreateOrderSubscription'),
    base: () => ({ accounts: [ALICE_MAIN], symbols: [SYMBOL], snapshot_only: false }),
    answer: codec(grpcCodecs.orderStream),
  },
  {
    ref: methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription'),
    base: () => ({ symbols: [SYMBOL, SYMBOL2], depth: 5 }),
    answer: codec(grpcCodecs.marketDataStream),
  },
  {
    ref: methodRef('PositionAPI', 'CreatePositionSubscription'),
    base: () => ({ accounts: [ALICE_MAIN] }),
    answer: codec(grpcCodecs.positionStream),
  },
  {
    ref: methodRef('DropCopyAPI', 'CreateDropCopySubscription'),
    base: () => ({ accounts: [ALICE_MAIN], symbols: [SYMBOL], resume_token: '' }),
    answer: codec(grpcCodecs.dropCopyStream),
  },
  {
    ref: methodRef('DropCopyAPI', 'CreateTradeCaptureReportSubscription'),
    base: () => ({ accounts: [], symbols: [], resume_token: '' }),
    answer: codec(grpcCodecs.tradeCaptureStream),
  },
  {
    ref: methodRef('DropCopyAPI', 'CreateInstrumentStateChangeSubscription'),
    base: () => ({ symbols: [SYMBOL] }),
    answer: codec(grpcCodecs.instrumentStateStream),
  },
];

/** Every method of the protocol is fuzzed (a test checks the two tables cover SERVICES). */
export function fuzzedMethodNames(): string[] {
  return [...UNARY_METHODS, ...STREAM_METHODS].map((m) => `${m.ref.service}.${m.ref.method}`).sort();
}

export function protocolMethodNames(): string[] {
  return Object.entries(SERVICES)
    .flatMap(([service, methods]) => Object.keys(methods).map((method) => `${service as ServiceName}.${method}`))
    .sort();
}

// ---------------------------------------------------------------------------------------------------------
// Request bytes

export type RequestBytes =
  | { kind: 'message' }
  | { kind: 'randomObject'; value: Json }
  | { kind: 'otherType'; other: number }
  | { kind: 'flipped'; flips: [number, number][] }
  | { kind: 'truncated'; cut: number }
  | { kind: 'appended'; bytes: Uint8Array }
  | { kind: 'random'; bytes: Uint8Array }
  | { kind: 'empty' };

export const requestBytes: fc.Arbitrary<RequestBytes> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'message' as const }) },
  { weight: 1, arbitrary: hostileJson.map((value) => ({ kind: 'randomObject' as const, value })) },
  { weight: 2, arbitrary: fc.nat().map((other) => ({ kind: 'otherType' as const, other })) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 })
      .map((flips) => ({ kind: 'flipped' as const, flips })),
  },
  { weight: 2, arbitrary: fc.nat().map((cut) => ({ kind: 'truncated' as const, cut })) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => ({ kind: 'appended' as const, bytes })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'random' as const, bytes })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

/** Serializes with the method's real serializer; undefined when protobufjs refuses the object outright. */
function serialize(ref: MethodRef, value: Json): Buffer | undefined {
  try {
    return exchangeProtocol()
      .method(ref)
      .serializeRequest(value as object);
  } catch {
    return undefined;
  }
}

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}

let definitions: PackageDefinition | undefined;
const loaded = (): PackageDefinition => (definitions ??= loadSync(PROTO_FILE, { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] }));

function fieldsOf(typeName: string): FieldDescriptor[] | undefined {
  const found = loaded()[`${exchangeProtocol().packageName}.${typeName}`] as MessageTypeDefinition<object, object> | undefined;
  return (found?.type as { field?: FieldDescriptor[] } | undefined)?.field;
}

const isObject = (value: unknown): value is { [key: string]: Json } => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A scalar field's value as protobufjs can coerce it (an object whose `toString` / `valueOf` keys are data cannot be). */
function coercible(value: Json): Json {
  try {
    String(value);
    return value;
  } catch {
    return JSON.stringify(value);
  }
}

/**
 * `value` with what protobufjs cannot take at all changed: a list that is not an array or a message that is
 * not an object is dropped, an object in a scalar field that cannot become a primitive is sent as its JSON.
 */
function fitToSchema(typeName: string, value: Json): Json {
  const fields = fieldsOf(typeName);
  if (!isObject(value)) return {};
  if (fields === undefined) return value;
  const out: { [key: string]: Json } = { ...value };
  for (const field of fields) {
    const v = out[field.name];
    if (v === undefined) continue;
    const message = field.type === 'TYPE_MESSAGE';
    if (field.label === 'LABEL_REPEATED') {
      if (!Array.isArray(v)) delete out[field.name];
      else if (message) out[field.name] = v.filter(isObject).map((item) => fitToSchema(field.typeName, item));
      else out[field.name] = v.map(coercible);
    } else if (message) {
      if (isObject(v)) out[field.name] = fitToSchema(field.typeName, v);
      else delete out[field.name];
    } else {
      out[field.name] = coercible(v);
    }
  }
  return out;
}

function requestTypeOf(ref: MethodRef): string {
  const service = loaded()[exchangeProtocol().qualifiedService(ref.service)] as ServiceDefinition;
  return (service[ref.method]?.requestType.type as { name: string }).name;
}

/** The real serializer, after fitting the object to the schema when protobufjs refuses it as it is. */
function serializeFitted(ref: MethodRef, value: Json): { bytes: Buffer | undefined; fitted: boolean } {
  const bytes = serialize(ref, value);
  if (bytes !== undefined) return { bytes, fitted: false };
  return { bytes: serialize(ref, fitToSchema(requestTypeOf(ref), value)), fitted: true };
}

/**
 * The bytes of a case; `fitted` when the object had to be fitted to the schema first, `serialized` false
 * when even that failed (the valid bytes are sent instead).
 */
export function encodeRequest(
  sim: FuzzSim,
  method: GrpcMethod,
  request: Json,
  bytes: RequestBytes,
  methods: readonly GrpcMethod[],
): { bytes: Buffer; serialized: boolean; fitted: boolean } {
  const valid = serialize(method.ref, method.base(sim)) ?? Buffer.alloc(0);
  const done = (out: Buffer) => ({ bytes: out, serialized: true, fitted: false });
  switch (bytes.kind) {
    case 'message':
    case 'randomObject': {
      const encoded = serializeFitted(method.ref, bytes.kind === 'message' ? request : bytes.value);
      return { bytes: encoded.bytes ?? valid, serialized: encoded.bytes !== undefined, fitted: encoded.fitted };
    }
    case 'otherType': {
      const other = methods[bytes.other % methods.length] as GrpcMethod;
      return done(serialize(other.ref, other.base(sim)) ?? valid);
    }
    case 'flipped': {
      const out = Buffer.from(valid);
      for (const [at, value] of bytes.flips) if (out.length > 0) out[at % out.length] = value;
      return done(out);
    }
    case 'truncated':
      return done(valid.subarray(0, bytes.cut % Math.max(1, valid.length)));
    case 'appended':
      return done(Buffer.concat([valid, bytes.bytes]));
    case 'random':
      return done(Buffer.from(bytes.bytes));
    case 'empty':
      return done(Buffer.alloc(0));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Metadata

export interface GrpcAuth {
  auth: ApiAuth;
  /** The authorization value folded twice into one (`<value>, <value>`). */
  twice: boolean;
  extra: { key: string; value: string; binary: Uint8Array } | undefined;
}

const extraKey = fc.constantFrom(
  'x-participant-id',
  'user-agent',
  'x-request-id',
  'authorization-bin',
  'x-trace-bin',
  'grpc-previous-rpc-attempts-x',
  'cookie',
);

export const grpcAuth: fc.Arbitrary<GrpcAuth> = fc.record({
  auth: apiAuth,
  twice: fc.nat({ max: 9 }).map((n) => n === 0),
  extra: fc.option(
    fc.record({ key: extraKey, value: hostileString.map((s) => headerSafe(s, 300)), binary: fc.uint8Array({ maxLength: 32 }) }),
    { nil: undefined, freq: 4 },
  ),
});

/** What grpc-js lets through in a text metadata value: printable ASCII. */
const metadataSafe = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?');

export async function metadataOf(tokens: ApiTokens, auth: GrpcAuth): Promise<Metadata> {
  const metadata = new Metadata();
  const header = await tokens.header(auth.auth);
  if (header !== undefined) metadata.add('authorization', metadataSafe(auth.twice ? `${header}, ${header}` : header));
  if (auth.extra !== undefined) {
    if (auth.extra.key.endsWith('-bin')) metadata.add(auth.extra.key, Buffer.from(auth.extra.binary));
    else metadata.add(auth.extra.key, metadataSafe(auth.extra.value));
  }
  return metadata;
}

// ---------------------------------------------------------------------------------------------------------
// Cases

export interface GrpcCase {
  method: number;
  mutations: Mutation[];
  bytes: RequestBytes;
  auth: GrpcAuth;
}

export function grpcCase(methods: readonly GrpcMethod[]): fc.Arbitrary<GrpcCase> {
  return fc.record({
    method: fc.nat({ max: methods.length - 1 }),
    mutations: fc.array(mutation, { maxLength: 4 }),
    bytes: requestBytes,
    auth: grpcAuth,
  });
}

/** Statuses a refusal may carry: each says what the caller must change. */
const CLEAR_REFUSALS = new Set<status>([
  status.INVALID_ARGUMENT,
  status.UNAUTHENTICATED,
  status.PERMISSION_DENIED,
  status.NOT_FOUND,
  status.FAILED_PRECONDITION,
  status.OUT_OF_RANGE,
]);

export class GrpcFuzzTarget {
  readonly raw: RawGrpc;
  readonly tokens: ApiTokens;
  /** Cases whose mutated object had to be fitted to the schema before serializing. */
  fitted = 0;
  /** Cases whose object could not be serialized even then (sent as the valid bytes instead). */
  unserializable = 0;

  constructor(readonly sim: FuzzSim) {
    this.raw = new RawGrpc(sim.h.sim.ready.grpc);
    this.tokens = new ApiTokens(sim);
  }

  scales(): ScaleSource {
    const core = this.sim.h.sim.core;
    return (symbol: string) => core.instrument(symbol)?.scales;
  }

  /** Sends one case and checks the answer and the state; adds it to the tally. */
  async run(methods: readonly GrpcMethod[], stream: boolean, c: GrpcCase, tally: Tally): Promise<void> {
    const method = methods[c.method] as GrpcMethod;
    const base = method.base(this.sim);
    const request = c.mutations.length === 0 ? base : applyMutations(base, c.mutations);
    const encoded = encodeRequest(this.sim, method, request, c.bytes, methods);
    if (encoded.fitted) this.fitted += 1;
    if (!encoded.serialized) this.unserializable += 1;
    const metadata = await metadataOf(this.tokens, c.auth);
    const before = stateOf(this.sim.h);
    const answer = stream
      ? await this.raw.firstMessage(method.ref, encoded.bytes, metadata)
      : await this.raw.unary(method.ref, encoded.bytes, metadata);
    const what =
      `${method.ref.service}.${method.ref.method} ` +
      `(${c.auth.auth.kind}${c.auth.twice ? ' x2' : ''}, ${c.bytes.kind}, ${c.mutations.length} mutations)`;
    if (answer.code === status.OK) {
      if (stream) expect(answer.message, `${what}: an accepted stream sends its first message at once`).toBeDefined();
      if (answer.message !== undefined) {
        const raw = exchangeProtocol().method(method.ref).deserializeResponse(answer.message);
        expect(() => method.answer.decode(raw, this.scales()), `${what}: the OK answer must decode`).not.toThrow();
      }
      if (stream) expect(stateOf(this.sim.h), `${what}: subscribing changed the exchange state`).toBe(before);
      tally.add('ok', answer.code);
      return;
    }
    expect(CLEAR_REFUSALS.has(answer.code), `${what}: answered ${status[answer.code]} (${answer.details})`).toBe(true);
    expect(answer.details.trim().length, `${what}: ${status[answer.code]} without details`).toBeGreaterThan(0);
    expect(stateOf(this.sim.h), `${what} answered ${status[answer.code]} but changed the exchange state`).toBe(before);
    tally.add('refused', answer.code);
  }

  /** After a run: a valid unary call and a valid stream still work. */
  async expectServing(): Promise<void> {
    const metadata = await metadataOf(this.tokens, { auth: { kind: 'valid' }, twice: false, extra: undefined });
    const open = await this.raw.unary(
      methodRef('OrderEntryAPI', 'GetOpenOrders'),
      serialize(methodRef('OrderEntryAPI', 'GetOpenOrders'), {}) ?? Buffer.alloc(0),
      metadata,
    );
    expect(status[open.code], open.details).toBe('OK');
    const ref = methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription');
    const first = await this.raw.firstMessage(ref, serialize(ref, { symbols: [SYMBOL] }) ?? Buffer.alloc(0), metadata);
    expect(status[first.code], first.details).toBe('OK');
    expect(first.message).toBeDefined();
  }

  /** How many of `count` market data streams opened at once get their first message (the rest: the firm's limit). */
  async streamsAvailable(count: number): Promise<number> {
    const metadata = await metadataOf(this.tokens, { auth: { kind: 'valid' }, twice: false, extra: undefined });
    const ref = methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription');
    const answers = await this.raw.openAtOnce(ref, serialize(ref, { symbols: [SYMBOL] }) ?? Buffer.alloc(0), metadata, count);
    return answers.filter((a) => a.code === status.OK && a.message !== undefined).length;
  }

  close(): void {
    this.raw.close();
  }
}
