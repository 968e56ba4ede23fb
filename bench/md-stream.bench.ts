/**
 * Bench "md-stream" (updates/s): book updates per second from the simulator to a client's local market copy
 * over loopback, end to end: a pregenerated burst of UPDATES non-crossing limit orders is driven into a fresh
 * ExchangeCore (CHUNK orders per event-loop turn, so server and client interleave), each order changes the
 * book once, the server sends one full-depth (10 levels) update per change, and the clock stops when the
 * client's book store (the engine's BookStore, src/engine/books.ts, fed as the pipeline's market handler feeds
 * it) has applied the last one (it counts every update applied).
 * - value: gRPC (src/sim/grpc server -> src/exchange/grpc GrpcExchangeClient -> BookStore);
 * - baseline: the same flow over the gateway's NDJSON stream (src/sim/gateway startGatewayServer ->
 *   src/exchange/gateway GatewayClient -> the same BookStore).
 * Both run in this one Node process (server and client share the CPU), alternating, after a warm-up run each;
 * the reported value is the median of RUNS timed runs. Stream setup (login, snapshot) is not timed.
 * A run whose stream drops or ends (the books go stale, or the stream ends for good) or stops making
 * progress for STALL_MS fails with an error saying so; the runner prints it and exits non-zero.
 */
import { SignJWT, jwtVerify } from 'jose';
import type { BenchResult } from './bench-result.ts';
import { configSchema, parseConfigText } from '../src/config/index.ts';
import type { SimConfig } from '../src/sim/config.ts';
import { ExchangeCore } from '../src/sim/exchange/exchange-core.ts';
import type { OrderRequest } from '../src/sim/matching/types.ts';
import { startGrpcServer } from '../src/sim/grpc/index.ts';
import type { GrpcTokenVerifier } from '../src/sim/grpc/index.ts';
import { startGatewayServer } from '../src/sim/gateway/gateway-server.ts';
import { TokenService } from '../src/sim/gateway/token-service.ts';
import { UserStore } from '../src/sim/gateway/user-store.ts';
import { silentLogger } from '../src/logging/logger.ts';
import { GatewayClient, instrumentCatalog } from '../src/exchange/gateway/index.ts';
import type { InstrumentCatalog } from '../src/exchange/gateway/index.ts';
import { GrpcExchangeClient } from '../src/exchange/grpc/index.ts';
import { followRun } from './book-follower.ts';

const UPDATES = 20_000;
const WARMUP_UPDATES = 4_000;
const CHUNK = 500;
const RUNS = 5;
const SEED = 20240607;
/** A run whose book store applies no update for this long has stalled. */
const STALL_MS = 30_000;
const SYMBOL = 'BENCH-MD';
const ACCOUNT = 'firms/bench/accounts/main';
const PASSWORD = 'Bench-Only-Pass-2026';
/** Bench-only HS256 secret for the gRPC access token. */
const SECRET = new TextEncoder().encode('bench-only-md-stream-secret-0123456789ab');

const config: SimConfig = (() => {
  const yaml = `
sim:
  gateway: { rateLimitPerSecond: 100000, heartbeatSeconds: 60 }
  users:
    - { username: bench, password: "${PASSWORD}", participant: firms/bench/users/bench, accounts: [${ACCOUNT}] }
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
  activity: { enabled: false }
`;
  const sim = parseConfigText(yaml, configSchema, { env: {} }).sim;
  if (sim === undefined) throw new Error('bench config has no sim section');
  return sim;
})();

/** Non-crossing limit orders (bids 0.01-0.49, offers 0.51-0.99): each changes the book exactly once. */
export function makeFlow(count: number, seed: number): OrderRequest[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, (_, i): OrderRequest => {
    const buy = random() < 0.5;
    return {
      symbol: SYMBOL,
      side: buy ? 'SIDE_BUY' : 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: 1 + Math.floor(random() * 20),
      price: buy ? 1 + Math.floor(random() * 49) : 51 + Math.floor(random() * 49),
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      account: ACCOUNT,
      clordId: `b${i}`,
      participant: 'firms/bench/users/bench',
    };
  });
}

/** What a run needs from a transport: GatewayClient and GrpcExchangeClient both fit. */
type MarketDataSource = Pick<GatewayClient, 'marketData$'>;

export interface Rig {
  source: MarketDataSource;
  /** Ends the server's streams (as a lost connection would): for checks of the failure path. */
  dropStreams(): void;
  close(): Promise<void>;
}

const clock = { now: () => Date.now() };

function catalogOf(core: ExchangeCore): InstrumentCatalog {
  return instrumentCatalog(
    core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
  );
}

const verifier: GrpcTokenVerifier = async (token) => {
  try {
    await jwtVerify(token, SECRET, { algorithms: ['HS256'] });
    return { scopes: ['read:marketdata'], firm: 'bench', participant: 'firms/bench/users/bench', accounts: [ACCOUNT] };
  } catch {
    return 'invalid';
  }
};

export async function grpcRig(core: ExchangeCore): Promise<Rig> {
  const server = await startGrpcServer({ core, port: 0, verifyToken: verifier, logger: silentLogger(), limits: { heartbeatMs: 60_000 } });
  const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(SECRET);
  const client = new GrpcExchangeClient({ address: server.address, getToken: async () => token, instruments: catalogOf(core) });
  return {
    source: client,
    dropStreams: () => server.dropAll(),
    close: async () => {
      client.close();
      await server.close();
    },
  };
}

export async function gatewayRig(core: ExchangeCore): Promise<Rig> {
  const users = await UserStore.create(config.users.map((u) => ({ ...u })));
  const server = await startGatewayServer({ config, core, users, tokens: new TokenService(clock), clock, logger: silentLogger() });
  const client = new GatewayClient({
    gatewayUrl: server.url,
    credentials: { username: 'bench', password: PASSWORD },
    instruments: catalogOf(core),
  });
  return {
    source: client,
    dropStreams: () => server.streams.dropAll(),
    close: async () => {
      await client.close({ logout: false });
      await server.close();
    },
  };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * One timed run: seconds from the first order to the last update applied by the client's book store.
 * `midRun` (checks of the failure path) is called with the rig after the first chunk.
 */
export async function timedRun(
  makeRig: (core: ExchangeCore) => Promise<Rig>,
  flow: readonly OrderRequest[],
  midRun?: (rig: Rig) => void,
): Promise<number> {
  const core = new ExchangeCore({
    clock,
    instruments: config.instruments,
    startingBalance: config.startingBalance,
    currency: config.currency,
  });
  const rig = await makeRig(core);
  let watch: ReturnType<typeof followRun> | undefined;
  try {
    watch = followRun(rig.source.marketData$({ symbols: [SYMBOL] }), {
      bench: 'md-stream',
      transport: makeRig === grpcRig ? 'gRPC' : 'the gateway NDJSON stream',
      stallMs: STALL_MS,
    });
    await watch.until(1);
    const start = process.hrtime.bigint();
    for (let i = 0; i < flow.length; i += CHUNK) {
      const end = Math.min(flow.length, i + CHUNK);
      for (let k = i; k < end; k++) core.submit(flow[k] as OrderRequest);
      if (i === 0) midRun?.(rig);
      await nextTurn();
      watch.check();
    }
    await watch.until(1 + flow.length);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (watch.applied !== 1 + flow.length) throw new Error(`md-stream: expected ${1 + flow.length} updates, applied ${watch.applied}`);
    return seconds;
  } finally {
    watch?.stop();
    await rig.close();
    core.events$.complete();
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export default async function mdStreamBench(): Promise<BenchResult> {
  const warm = makeFlow(WARMUP_UPDATES, SEED + 1);
  const flow = makeFlow(UPDATES, SEED);
  await timedRun(grpcRig, warm);
  await timedRun(gatewayRig, warm);
  const grpcSeconds: number[] = [];
  const gatewaySeconds: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    grpcSeconds.push(await timedRun(grpcRig, flow));
    gatewaySeconds.push(await timedRun(gatewayRig, flow));
  }
  const value = Math.round(UPDATES / median(grpcSeconds));
  const baselineValue = Math.round(UPDATES / median(gatewaySeconds));
  return {
    bench: 'md-stream',
    unit: 'updates/s',
    value,
    baseline: 'gateway NDJSON stream (same flow, same BookStore)',
    baselineValue,
    ratio: Math.round((value / baselineValue) * 100) / 100,
    updates: UPDATES,
    depth: 10,
    chunk: CHUNK,
    runs: RUNS,
    grpcRunsUpdatesPerSecond: grpcSeconds.map((s) => Math.round(UPDATES / s)),
    gatewayRunsUpdatesPerSecond: gatewaySeconds.map((s) => Math.round(UPDATES / s)),
  };
}
