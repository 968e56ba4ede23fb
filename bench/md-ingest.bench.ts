/**
 * Bench "md-ingest" (updates/s): how many 10-level book updates per second the bot's client side alone
 * decodes and applies. The server side does no per-update work while timed: a child process
 * (bench/md-ingest-server.ts) builds UPDATES one-symbol books of 10 bids and 10 offers once, encodes each
 * once as the simulator sends it (gRPC: the MarketDataSubscriptionResponse protobuf message, gRPC-framed
 * over HTTP/2; NDJSON: the gateway's market data stream line), and its loopback servers only write those
 * bytes, in large chunks. This process runs the real client code only:
 * - value: gRPC, src/exchange/grpc GrpcExchangeClient.marketData$ (grpc-js, the protocol's deserializer,
 *   validation into the domain's OrderBook with Decimal prices and quantities);
 * - baseline: NDJSON, src/exchange/gateway GatewayClient.marketData$ (HTTP/1.1, line splitting, JSON.parse,
 *   the same validation);
 * each feeding the engine's BookStore (src/engine/books.ts) as the pipeline's market handler feeds it
 * (bench/book-follower.ts). A run subscribes (connection, login and the snapshot update are not timed),
 * then the clock runs from telling the server to write the UPDATES updates to the last one applied.
 * One warm-up run per transport, then RUNS timed runs alternating gRPC and NDJSON; the reported figures are
 * medians. Extra fields: the load average (1 min) before and after, and the client's CPU time per update
 * (process.cpuUsage of this process, which runs no server code).
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './bench-result.ts';
import { followRun } from './book-follower.ts';
import type { FromServer, ToServer, Transport } from './md-ingest-server.ts';
import { GatewayClient, instrumentCatalog } from '../src/exchange/gateway/index.ts';
import { GrpcExchangeClient } from '../src/exchange/grpc/index.ts';

const UPDATES = 100_000;
const WARMUP_UPDATES = 20_000;
const RUNS = 5;
const SEED = 20261128;
/** A run whose book store applies no update for this long has stalled. */
const STALL_MS = 30_000;

type Ready = Extract<FromServer, { type: 'ready' }>;

interface ServerProcess {
  readonly ready: Ready;
  /** Tells the server to write updates 1..count to the open stream of `transport`; resolves once written. */
  go(transport: Transport, count: number): Promise<void>;
  close(): void;
}

const here = dirname(fileURLToPath(import.meta.url));

export async function startServer(): Promise<ServerProcess> {
  const child = fork(join(here, 'md-ingest-server.ts'), [String(UPDATES), String(SEED)], {
    execArgv: ['--import', 'tsx'],
    cwd: join(here, '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => {
      const error = new Error(`md-ingest: the server process exited (code ${code})`);
      reject(error);
      pending?.reject(error);
    });
    child.on('message', (message: FromServer) => {
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'sent') pending?.resolve();
      else {
        const error = new Error(`md-ingest: the server failed: ${message.message}`);
        if (pending === undefined) reject(error);
        else pending.reject(error);
      }
    });
  });
  return {
    ready,
    go(transport, count) {
      return new Promise<void>((resolve, reject) => {
        pending = { resolve, reject };
        child.send({ type: 'go', transport, count } satisfies ToServer);
      });
    },
    close: () => child.kill(),
  };
}

interface RunFigures {
  readonly seconds: number;
  readonly cpuMicros: number;
}

function clientFor(server: Ready, transport: Transport): { source: Pick<GatewayClient, 'marketData$'>; close(): Promise<void> } {
  const instruments = instrumentCatalog([{ symbol: server.symbol, priceScale: server.priceScale, fractionalQtyScale: server.qtyScale }]);
  if (transport === 'grpc') {
    const client = new GrpcExchangeClient({ address: server.grpcAddress, getToken: async () => 'bench-access-token', instruments });
    return { source: client, close: async () => client.close() };
  }
  const client = new GatewayClient({
    gatewayUrl: server.gatewayUrl,
    credentials: { username: 'bench', password: 'bench-only' },
    instruments,
  });
  return { source: client, close: () => client.close({ logout: false }) };
}

/** One timed run: `count` updates written by the server, decoded and applied here. */
export async function timedRun(server: ServerProcess, transport: Transport, count: number): Promise<RunFigures> {
  const client = clientFor(server.ready, transport);
  const watch = followRun(client.source.marketData$({ symbols: [server.ready.symbol] }), {
    bench: 'md-ingest',
    transport: transport === 'grpc' ? 'gRPC' : 'the gateway NDJSON stream',
    stallMs: STALL_MS,
  });
  try {
    await watch.until(1);
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const written = server.go(transport, count);
    await watch.until(1 + count);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    await written;
    if (watch.applied !== 1 + count) throw new Error(`md-ingest: expected ${1 + count} updates, applied ${watch.applied}`);
    return { seconds, cpuMicros: used.user + used.system };
  } finally {
    watch.stop();
    await client.close();
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

const rate = (run: RunFigures): number => Math.round(UPDATES / run.seconds);
const cpuPerUpdate = (runs: readonly RunFigures[]): number => Math.round((median(runs.map((r) => r.cpuMicros)) / UPDATES) * 100) / 100;

export default async function mdIngestBench(): Promise<BenchResult> {
  const load1mBefore = loadavg()[0] as number;
  const server = await startServer();
  try {
    await timedRun(server, 'grpc', WARMUP_UPDATES);
    await timedRun(server, 'ndjson', WARMUP_UPDATES);
    const grpc: RunFigures[] = [];
    const ndjson: RunFigures[] = [];
    for (let r = 0; r < RUNS; r++) {
      grpc.push(await timedRun(server, 'grpc', UPDATES));
      ndjson.push(await timedRun(server, 'ndjson', UPDATES));
    }
    const value = median(grpc.map(rate));
    const baselineValue = median(ndjson.map(rate));
    return {
      bench: 'md-ingest',
      unit: 'updates/s',
      value,
      baseline: 'gateway NDJSON stream (same updates, same BookStore, client side alone)',
      baselineValue,
      ratio: Math.round((value / baselineValue) * 100) / 100,
      levels: 10,
      updates: UPDATES,
      runs: RUNS,
      grpcRunsUpdatesPerSecond: grpc.map(rate),
      ndjsonRunsUpdatesPerSecond: ndjson.map(rate),
      grpcCpuMicrosPerUpdate: cpuPerUpdate(grpc),
      ndjsonCpuMicrosPerUpdate: cpuPerUpdate(ndjson),
      wireBytesPerUpdate: {
        grpc: Math.round(server.ready.bytes.grpc / (UPDATES + 1)),
        ndjson: Math.round(server.ready.bytes.ndjson / (UPDATES + 1)),
      },
      load1mBefore: Math.round(load1mBefore * 100) / 100,
      load1mAfter: Math.round((loadavg()[0] as number) * 100) / 100,
    };
  } finally {
    server.close();
  }
}
