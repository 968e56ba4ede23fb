/**
 * Test harness for the gRPC door: an ExchangeCore built from sim YAML (through the config loader, as
 * startSim builds it) on a hand-driven clock, the gRPC server next to it on 127.0.0.1:0 with an HS256
 * test verifier (tokens minted here with jose), optionally the gateway HTTP server on the same core, and
 * helpers to place orders and build clients. Nothing sleeps: tests wait on stream events.
 */
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { configSchema, parseConfigText } from '../../../../src/config/index.ts';
import type { SimConfig } from '../../../../src/sim/config.ts';
import { ExchangeCore } from '../../../../src/sim/exchange/exchange-core.ts';
import type { OrderRequest, Side } from '../../../../src/sim/matching/types.ts';
import { startGrpcServer } from '../../../../src/sim/grpc/index.ts';
import type { GrpcServerLimits, GrpcTokenVerifier, RunningGrpcServer, VerifiedToken } from '../../../../src/sim/grpc/index.ts';
import { startGatewayServer } from '../../../../src/sim/gateway/gateway-server.ts';
import { TokenService } from '../../../../src/sim/gateway/token-service.ts';
import { UserStore } from '../../../../src/sim/gateway/user-store.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';
import { instrumentCatalog } from '../../../../src/exchange/gateway/index.ts';
import type { InstrumentCatalog } from '../../../../src/exchange/gateway/index.ts';
import { GrpcExchangeClient } from '../../../../src/exchange/grpc/index.ts';
import type { GrpcExchangeClientOptions } from '../../../../src/exchange/grpc/index.ts';

export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const SYMBOL2 = 'FED-CUT-2026-12';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
export const BOB_MAIN = 'firms/other/accounts/bob-main';
export const ALICE_PASSWORD = 'Test-Alice-Pass-2026';
export const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
/** Test-only HS256 secret for the harness's access tokens. */
const SECRET = new TextEncoder().encode('test-only-grpc-harness-secret-0123456789');

export const ALL_SCOPES = [
  'read:marketdata',
  'read:orders',
  'write:orders',
  'read:positions',
  'read:dropcopy',
  'read:instruments',
  'read:reports',
];

export const USERS = {
  alice: { firm: 'demo', participant: 'firms/demo/users/alice', accounts: [ALICE_MAIN, ALICE_HEDGE] },
  bob: { firm: 'other', participant: 'firms/other/users/bob', accounts: [BOB_MAIN] },
} as const;
export type TestUser = keyof typeof USERS;

export class ManualClock {
  constructor(public t: number = T0) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export function testConfig(): SimConfig {
  const yaml = `
sim:
  startingBalance: "100000"
  gateway: { rateLimitPerSecond: 10000 }
  users:
    - { username: alice, password: "${ALICE_PASSWORD}", participant: ${USERS.alice.participant}, accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}] }
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
    - { symbol: ${SYMBOL2}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
  activity: { enabled: false }
`;
  const config = parseConfigText(yaml, configSchema, { env: {} }).sim;
  if (config === undefined) throw new Error('test config has no sim section');
  return config;
}

/** Mints a family A-like access token (HS256) that the harness verifier accepts. */
export async function mintToken(
  user: TestUser,
  options: { scopes?: readonly string[]; expiresAtMs?: number; nowMs?: number } = {},
): Promise<string> {
  const u = USERS[user];
  const iat = Math.floor((options.nowMs ?? T0) / 1000);
  const exp = Math.floor((options.expiresAtMs ?? (options.nowMs ?? T0) + 3_600_000) / 1000);
  return new SignJWT({
    scope: (options.scopes ?? ALL_SCOPES).join(' '),
    firm: u.firm,
    participant: u.participant,
    accounts: [...u.accounts],
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(SECRET);
}

/** Verifies harness tokens against `clock` (so a test expires a token by moving time). */
export function testVerifier(clock: { now(): number }): GrpcTokenVerifier {
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, SECRET, { algorithms: ['HS256'], currentDate: new Date(clock.now()) });
      const { scope, firm, participant, accounts } = payload as Record<string, unknown>;
      if (typeof scope !== 'string' || typeof firm !== 'string' || typeof participant !== 'string' || !Array.isArray(accounts))
        return 'invalid';
      const verified: VerifiedToken = {
        scopes: scope.split(' ').filter((s) => s !== ''),
        firm,
        participant,
        accounts: accounts.filter((a): a is string => typeof a === 'string'),
      };
      return verified;
    } catch (error) {
      return error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid';
    }
  };
}

export interface GrpcHarness {
  core: ExchangeCore;
  clock: ManualClock;
  config: SimConfig;
  server: RunningGrpcServer;
  catalog: InstrumentCatalog;
  /** The gateway server on the same core (when started with `gateway: true`). */
  gatewayUrl: string | undefined;
  /** Ends every open gateway NDJSON stream from the server side (a no-op without the gateway). */
  dropGatewayStreams(): void;
  /** NDJSON streams open on the gateway right now (0 without the gateway). */
  gatewayStreamCount(): number;
  /** A gRPC client for `user` (all scopes) unless `getToken` is given. */
  client(user?: TestUser, options?: Partial<GrpcExchangeClientOptions>): GrpcExchangeClient;
  close(): Promise<void>;
}

export async function startGrpcHarness(options: { limits?: GrpcServerLimits; gateway?: boolean } = {}): Promise<GrpcHarness> {
  const clock = new ManualClock();
  const config = testConfig();
  const core = new ExchangeCore({
    clock,
    instruments: config.instruments,
    startingBalance: config.startingBalance,
    currency: config.currency,
  });
  const server = await startGrpcServer({
    core,
    port: 0,
    verifyToken: testVerifier(clock),
    logger: silentLogger(),
    limits: { heartbeatMs: 60_000, ...options.limits },
  });
  const closers: (() => Promise<void>)[] = [() => server.close()];
  let gateway: Awaited<ReturnType<typeof startGatewayServer>> | undefined;
  if (options.gateway === true) {
    const users = await UserStore.create(config.users.map((u) => ({ ...u })));
    gateway = await startGatewayServer({ config, core, users, tokens: new TokenService(clock), clock, logger: silentLogger() });
    closers.push(gateway.close);
  }
  const catalog = instrumentCatalog(
    core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
  );
  const clients: GrpcExchangeClient[] = [];
  return {
    core,
    clock,
    config,
    server,
    catalog,
    gatewayUrl: gateway?.url,
    dropGatewayStreams: () => gateway?.streams.dropAll(),
    gatewayStreamCount: () => gateway?.streams.count ?? 0,
    client(user = 'alice', overrides = {}) {
      let token: Promise<string> | undefined;
      const client = new GrpcExchangeClient({
        address: server.address,
        instruments: catalog,
        getToken: () => (token ??= mintToken(user, { nowMs: clock.now() })),
        streams: { baseDelayMs: 5, maxDelayMs: 20 },
        ...overrides,
      });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients.splice(0)) client.close();
      for (const close of closers.reverse()) await close();
      core.events$.complete();
    },
  };
}

let clordCounter = 0;

/** Places a GTC limit order directly on the core (raw price in cents, whole contracts). */
export function place(
  core: ExchangeCore,
  order: { account: string; side: Side; price: number; qty: number; symbol?: string; participant?: string },
): string {
  const request: OrderRequest = {
    symbol: order.symbol ?? SYMBOL,
    side: order.side,
    type: 'ORDER_TYPE_LIMIT',
    orderQty: order.qty,
    price: order.price,
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    account: order.account,
    clordId: `test-${++clordCounter}`,
    participant: order.participant ?? 'firms/demo/users/alice',
  };
  const first = core.submit(request).executions[0];
  if (first === undefined) throw new Error('the engine produced no execution');
  return first.order.orderId;
}
