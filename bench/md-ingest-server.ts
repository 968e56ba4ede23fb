/**
 * The server side of bench "md-ingest" (bench/md-ingest.bench.ts), run as a child process so the bench's
 * process measures the client side alone. At start-up (not timed) it builds UPDATES + 1 ten-level book
 * updates of one symbol (book 0 is the subscription's snapshot) and encodes each once, as the simulator
 * sends it:
 * - gRPC: the MarketDataSubscriptionResponse message (grpcCodecs.marketDataStream.encode, serialized with
 *   the protocol's own serializer), framed as gRPC length-prefixed messages;
 * - NDJSON: the gateway's market data stream line (gateway.marketDataStream.encode, then
 *   `JSON.stringify(message) + "\n"`, as src/sim/http/server.ts writes each stream line).
 * Two loopback servers (127.0.0.1, port 0) then only write those bytes: an HTTP/2 server answering
 * CreateMarketDataSubscription with the gRPC frames, and an HTTP/1.1 server answering the gateway's login
 * (a fixed token pair) and create_market_data_subscription with the NDJSON lines. Each new subscription
 * gets the snapshot frame at once; the rest is written when the parent says `go` (IPC), in large chunks,
 * following the socket's backpressure: no per-update work happens while a run is timed.
 *
 * IPC: child -> parent `{type: 'ready', grpcAddress, gatewayUrl, symbol, priceScale, qtyScale, updates, bytes}`,
 * `{type: 'sent', transport}` once a `go` was written out, `{type: 'failed', message}`;
 * parent -> child `{type: 'go', transport: 'grpc' | 'ndjson', count}` (updates 1..count of the open stream).
 */
import { createServer as createHttp2Server } from 'node:http2';
import type { ServerHttp2Stream } from 'node:http2';
import { createServer as createHttpServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Decimal } from '../src/domain/decimal.ts';
import { authCodecs, gateway, instrumentScales } from '../src/domain/index.ts';
import type { InstrumentStats, OrderBook } from '../src/domain/index.ts';
import { exchangeProtocol, grpcCodecs, methodRef } from '../src/exchange/grpc/protocol/index.ts';

export const SYMBOL = 'BENCH-INGEST';
export const PRICE_SCALE = 100;
export const QTY_SCALE = 1;
export const LEVELS = 10;
const CHUNK_BYTES = 256 * 1024;
const START_TIME = Date.parse('2026-01-05T14:30:00.000Z');

export type Transport = 'grpc' | 'ndjson';
export type ToServer = { type: 'go'; transport: Transport; count: number };
export type FromServer =
  | {
      type: 'ready';
      grpcAddress: string;
      gatewayUrl: string;
      symbol: string;
      priceScale: number;
      qtyScale: number;
      updates: number;
      bytes: { grpc: number; ndjson: number };
    }
  | { type: 'sent'; transport: Transport }
  | { type: 'failed'; message: string };

/** Deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const cents = (raw: number): Decimal => new Decimal(raw).div(PRICE_SCALE);

/**
 * Book i: 10 bids below a wandering mid and 10 offers above it (prices 0.01-0.99, tick 0.01), random
 * quantities, session statistics whose volume grows, and a transact time 1 ms after the previous one.
 */
export function makeBooks(count: number, seed: number): OrderBook[] {
  const random = prng(seed);
  let mid = 50;
  let traded = 0;
  const books: OrderBook[] = [];
  for (let i = 0; i < count; i++) {
    mid = Math.min(85, Math.max(15, mid + Math.floor(random() * 3) - 1));
    const bids = Array.from({ length: LEVELS }, (_, k) => ({ px: cents(mid - 1 - k), qty: new Decimal(1 + Math.floor(random() * 500)) }));
    const offers = Array.from({ length: LEVELS }, (_, k) => ({ px: cents(mid + 1 + k), qty: new Decimal(1 + Math.floor(random() * 500)) }));
    if (random() < 0.3) traded += 1 + Math.floor(random() * 20);
    const stats: InstrumentStats = {
      openPx: cents(50),
      closePx: new Decimal(0),
      lowPx: cents(15),
      highPx: cents(85),
      lastTradePx: cents(mid),
      indicativeOpenPx: new Decimal(0),
      settlementPx: new Decimal(0),
      sharesTraded: new Decimal(traded),
      notionalTraded: new Decimal(traded * mid).div(PRICE_SCALE * QTY_SCALE),
      openInterest: new Decimal(Math.floor(traded / 2)),
    };
    books.push({ symbol: SYMBOL, bids, offers, state: 'INSTRUMENT_STATE_OPEN', stats, transactTime: START_TIME + i });
  }
  return books;
}

/** Frames laid end to end, with the end offset of each. */
interface Encoded {
  readonly bytes: Buffer;
  readonly ends: readonly number[];
}

function concat(parts: readonly Buffer[]): Encoded {
  const ends: number[] = [];
  let total = 0;
  for (const part of parts) {
    total += part.length;
    ends.push(total);
  }
  return { bytes: Buffer.concat(parts, total), ends };
}

const MARKET_DATA = methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription');

export function encodeGrpc(books: readonly OrderBook[]): Encoded {
  const scales = instrumentScales(PRICE_SCALE, QTY_SCALE);
  const serialize = exchangeProtocol().method(MARKET_DATA).serializeResponse;
  return concat(
    books.map((book) => {
      const message = serialize(grpcCodecs.marketDataStream.encode({ kind: 'update', ...book }, scales));
      const frame = Buffer.alloc(5 + message.length);
      frame.writeUInt32BE(message.length, 1);
      message.copy(frame, 5);
      return frame;
    }),
  );
}

export function encodeNdjson(books: readonly OrderBook[]): Encoded {
  const scales = instrumentScales(PRICE_SCALE, QTY_SCALE);
  return concat(
    books.map((book) => Buffer.from(`${JSON.stringify(gateway.marketDataStream.encode({ kind: 'update', ...book }, scales))}\n`)),
  );
}

/** Writes `bytes` in CHUNK_BYTES pieces, waiting for 'drain' whenever the socket's buffer is full. */
async function writeAll(sink: Writable, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    if (sink.destroyed) throw new Error('the client closed the stream before every update was written');
    const more = sink.write(bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES)));
    if (!more) await new Promise<void>((resolve) => sink.once('drain', resolve));
  }
}

function loginBody(): string {
  const far = Date.now() + 24 * 3_600_000;
  return JSON.stringify(
    authCodecs.loginResponse.encode({
      accessToken: 'bench-access-token',
      refreshToken: 'bench-refresh-token',
      accessIssueTime: Date.now(),
      accessExpirationTime: far,
      refreshIssueTime: Date.now(),
      refreshExpirationTime: far,
    }),
  );
}

async function main(): Promise<void> {
  const send = (message: FromServer): void => void process.send?.(message);
  const updates = Number(process.argv[2]);
  const books = makeBooks(updates + 1, Number(process.argv[3]));
  const grpc = encodeGrpc(books);
  const ndjson = encodeNdjson(books);
  const path = exchangeProtocol().method(MARKET_DATA).path;
  let grpcStream: ServerHttp2Stream | undefined;
  let ndjsonStream: ServerResponse | undefined;

  const h2 = createHttp2Server();
  h2.on('stream', (stream, headers) => {
    if (headers[':path'] !== path) {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' }, { endStream: true });
      return;
    }
    stream.resume();
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    stream.write(grpc.bytes.subarray(0, grpc.ends[0]));
    grpcStream = stream;
    stream.on('error', () => undefined);
  });
  const http = createHttpServer((request, response) => {
    request.resume();
    if (request.url === '/auth/v1beta1/login') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(loginBody());
    } else if (request.url === '/api/v1beta1/create_market_data_subscription') {
      response.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
      response.write(ndjson.bytes.subarray(0, ndjson.ends[0]));
      ndjsonStream = response;
      response.on('error', () => undefined);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":5,"message":"not served by the bench"}');
    }
  });
  await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  process.on('message', (raw: ToServer) => {
    const [sink, encoded] = raw.transport === 'grpc' ? [grpcStream, grpc] : [ndjsonStream, ndjson];
    const from = encoded.ends[0] as number;
    const to = encoded.ends[Math.min(raw.count, updates)] as number;
    if (sink === undefined) return send({ type: 'failed', message: `no open ${raw.transport} stream to write to` });
    writeAll(sink, encoded.bytes.subarray(from, to)).then(
      () => send({ type: 'sent', transport: raw.transport }),
      (error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
  send({
    type: 'ready',
    grpcAddress: `127.0.0.1:${(h2.address() as AddressInfo).port}`,
    gatewayUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    symbol: SYMBOL,
    priceScale: PRICE_SCALE,
    qtyScale: QTY_SCALE,
    updates,
    bytes: { grpc: grpc.bytes.length, ndjson: ndjson.bytes.length },
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
