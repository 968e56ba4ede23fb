/**
 * The real embedded exchange for gRPC client tests: `startSim` from YAML (through the config loader) on
 * 127.0.0.1 port 0 with a hand-driven clock, activity and KYC timers off, family A access tokens living
 * `ttlSeconds` (a few seconds), and API clients onboarded with an RSA key pair made in a private temp folder
 * (removed by `close()`). Clients: `grpc-bot` (every scope a gRPC bot uses) and `grpc-no-dropcopy` (the
 * same without read:dropcopy). `tokens()` builds the production family A stack (createFamilyAClient: the
 * real TokenManager signing client assertions and calling the sim's token endpoint) on a clock of the
 * test's choice; `grpc()` a GrpcExchangeClient fed by it through `tokenSourceOf`. `round()` crosses alice
 * (firm demo, the clients' participant) with carol (another firm) on the core and rests one more bid, so
 * every round gives the demo firm's drop copy executions and a trade, and leaves a book never seen before.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../../../src/config/index.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';
import { startSim, type RunningSim } from '../../../../src/sim/simulator.ts';
import type { ExchangeCore } from '../../../../src/sim/exchange/exchange-core.ts';
import { createFamilyAClient, type FamilyAStack } from '../../../../src/exchange/familya/index.ts';
import { instrumentCatalog } from '../../../../src/exchange/gateway/index.ts';
import { GrpcExchangeClient, tokenSourceOf, type GrpcExchangeClientOptions } from '../../../../src/exchange/grpc/index.ts';

export const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
export const RAIN = 'RAIN-NYC-2026-12-01';
export const ALICE = 'firms/demo/users/alice';
export const CAROL = 'firms/other/users/carol';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
export const CAROL_MAIN = 'firms/other/accounts/carol-main';
export const DEMO_ACCOUNTS: readonly string[] = [ALICE_MAIN, ALICE_HEDGE];
export const BOT = 'grpc-bot';
export const NO_DROPCOPY = 'grpc-no-dropcopy';

const BOT_SCOPES = [
  'read:marketdata',
  'read:orders',
  'write:orders',
  'read:positions',
  'read:dropcopy',
  'read:instruments',
  'read:reports',
];

export class ManualClock {
  constructor(public t: number = T0) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface GrpcSimRig {
  sim: RunningSim;
  /** The simulator's clock (token expiry is checked on it). */
  clock: ManualClock;
  /** The production family A stack of `clientId`, its TokenManager on `now` (default: the sim's clock). */
  tokens(clientId?: string, now?: () => number): FamilyAStack;
  /** A gRPC client authenticated through `stack`'s TokenManager. */
  grpc(stack: FamilyAStack, options?: Partial<GrpcExchangeClientOptions>): GrpcExchangeClient;
  close(): Promise<void>;
}

export async function startGrpcSim(options: { ttlSeconds: number }): Promise<GrpcSimRig> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-grpc-sim-'));
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyFile = path.join(dir, 'client.pub.pem');
  const privateKeyFile = path.join(dir, 'client.key.pem');
  writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const yaml = `
logging: { level: silent }
sim:
  startingBalance: "100000"
  familyA: { accessTokenTtlSeconds: ${options.ttlSeconds} }
  users:
    - { username: alice, password: Test-Alice-Pass-2026, participant: ${ALICE}, accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}] }
    - { username: carol, password: Test-Carol-Pass-2026, participant: ${CAROL}, accounts: [${CAROL_MAIN}] }
  clients:
    - { clientId: ${BOT}, publicKeyFile: client.pub.pem, participant: ${ALICE}, scopes: [${BOT_SCOPES.join(', ')}] }
    - { clientId: ${NO_DROPCOPY}, publicKeyFile: client.pub.pem, participant: ${ALICE},
        scopes: [${BOT_SCOPES.filter((s) => s !== 'read:dropcopy').join(', ')}] }
  instruments:
    - { symbol: ${RAIN}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
  activity: { enabled: false }
`;
  const config = parseConfig(yaml, { file: path.join(dir, 'sim.yaml') });
  if (config.sim === undefined) throw new Error('test config has no sim section');
  const clock = new ManualClock();
  const sim = await startSim(config.sim, { logger: silentLogger(), clock, activityTimer: false, kycTimer: false });
  const catalog = instrumentCatalog(
    sim.core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
  );
  const stacks: FamilyAStack[] = [];
  const clients: GrpcExchangeClient[] = [];
  return {
    sim,
    clock,
    tokens(clientId = BOT, now = clock.now) {
      const exchange = {
        apiUrl: sim.ready.api,
        authUrl: sim.ready.auth,
        gatewayUrl: sim.ready.gateway,
        familyA: { clientId, privateKeyFile, participant: ALICE, refreshMarginSeconds: 30 },
      };
      const stack = createFamilyAClient(exchange, { now, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
      stacks.push(stack);
      return stack;
    },
    grpc(stack, overrides = {}) {
      const client = new GrpcExchangeClient({
        address: sim.ready.grpc,
        getToken: tokenSourceOf(stack.tokens),
        instruments: catalog,
        streams: { baseDelayMs: 5, maxDelayMs: 20 },
        ...overrides,
      });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients.splice(0)) client.close();
      await Promise.all(stacks.splice(0).map((s) => s.client.close()));
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let clordCounter = 0;

/**
 * Round `n`: a trade of 1 lot at 0.60 (carol rests and alice takes, or the other way round), then a resting
 * alice-hedge bid of 1 lot at (2 + n) cents, so the book after each round differs from every earlier one.
 */
export function round(core: ExchangeCore, n: number): void {
  const order = (account: string, participant: string, side: 'SIDE_BUY' | 'SIDE_SELL', price: number) => ({
    symbol: RAIN,
    side,
    type: 'ORDER_TYPE_LIMIT' as const,
    orderQty: 1,
    price,
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL' as const,
    account,
    participant,
    clordId: `grpc-sim-${++clordCounter}`,
  });
  const alice = order(ALICE_MAIN, ALICE, 'SIDE_BUY', 60);
  const carol = order(CAROL_MAIN, CAROL, 'SIDE_SELL', 60);
  for (const request of n % 2 === 0 ? [carol, alice] : [alice, carol]) core.submit(request);
  core.submit(order(ALICE_HEDGE, ALICE, 'SIDE_BUY', 2 + n));
}
