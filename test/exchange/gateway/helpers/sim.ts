/**
 * The real simulator for gateway client tests: config from YAML text through the config loader, a hand-
 * driven clock shared (or not) by the sim and the client, no synthetic activity, servers on 127.0.0.1:0.
 * `clientFor(user)` builds a GatewayClient for a configured user and remembers it so `close()` closes
 * every client before the sim.
 */
import { configSchema } from '../../../../src/config/index.ts';
import { parseConfigText } from '../../../../src/config/loader.ts';
import { Decimal } from '../../../../src/domain/index.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';
import { startSim } from '../../../../src/sim/simulator.ts';
import type { RunningSim } from '../../../../src/sim/simulator.ts';
import { GatewayClient, instrumentCatalog } from '../../../../src/exchange/gateway/index.ts';
import type { GatewayClientOptions, GatewayCredentials, InstrumentCatalog } from '../../../../src/exchange/gateway/index.ts';

/** A clock that moves only when told. */
export class ManualClock {
  constructor(private t: number) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export const START_MS = Date.UTC(2026, 0, 15, 14, 0, 0);
export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const OTHER_SYMBOL = 'FED-CUT-2026-12';
/** A fixed base32 TOTP secret for the MFA user (test-only). */
export const CAROL_TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export const PASSWORDS = {
  alice: 'Test-Alice-Pass-2026',
  bob: 'Test-Bob-Pass-2026',
  carol: 'Test-Carol-Pass-2026',
  dave: 'Test-Dave-Pass-2026',
  erin: 'Test-Erin-Pass-2026',
} as const;
export type TestUser = keyof typeof PASSWORDS;

export const ACCOUNTS = {
  aliceMain: 'firms/demo/accounts/alice-main',
  aliceHedge: 'firms/demo/accounts/alice-hedge',
  bobMain: 'firms/other/accounts/bob-main',
} as const;

const ALL_USERS: readonly TestUser[] = ['alice', 'bob', 'carol', 'dave', 'erin'];
const USER_YAML: Record<TestUser, string> = {
  alice:
    `{ username: alice, password: "${PASSWORDS.alice}", participant: firms/demo/users/alice, ` +
    `accounts: [${ACCOUNTS.aliceMain}, ${ACCOUNTS.aliceHedge}] }`,
  bob: `{ username: bob, password: "${PASSWORDS.bob}", participant: firms/other/users/bob, accounts: [${ACCOUNTS.bobMain}] }`,
  carol:
    `{ username: carol, password: "${PASSWORDS.carol}", participant: firms/demo/users/carol, ` +
    `accounts: [firms/demo/accounts/carol-main], mfaSecret: ${CAROL_TOTP} }`,
  dave: `{ username: dave, password: "${PASSWORDS.dave}", participant: firms/demo/users/dave, accounts: [firms/demo/accounts/dave-main] }`,
  erin:
    '{ username: erin, password: "unused-until-registered", participant: firms/demo/users/erin, ' +
    'accounts: [firms/demo/accounts/erin-main], registered: false }',
};

export interface SimYamlOptions {
  accessTtlSeconds?: number;
  refreshTtlSeconds?: number;
  rateLimitPerSecond?: number;
  /** Configured users (each costs a password hash at start). Default: all. */
  users?: readonly TestUser[];
}

export function simYaml(options: SimYamlOptions = {}): string {
  return `
sim:
  startingBalance: "1000"
  gateway:
    accessTokenTtlSeconds: ${options.accessTtlSeconds ?? 900}
    refreshTokenTtlSeconds: ${options.refreshTtlSeconds ?? 86400}
    rateLimitPerSecond: ${options.rateLimitPerSecond ?? 100}
  users:
${(options.users ?? ALL_USERS).map((user) => `    - ${USER_YAML[user]}`).join('\n')}
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
    - { symbol: ${OTHER_SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
  activity: { enabled: false }
`;
}

export interface TestSim {
  sim: RunningSim;
  /** The sim's clock. */
  clock: ManualClock;
  catalog: InstrumentCatalog;
  gatewayUrl: string;
  /** A client for a configured user; `now` defaults to the sim's clock. */
  clientFor(
    user: TestUser,
    overrides?: Partial<Omit<GatewayClientOptions, 'credentials'>> & { credentials?: Partial<GatewayCredentials> },
  ): GatewayClient;
  close(): Promise<void>;
}

export async function startTestSim(options: SimYamlOptions = {}): Promise<TestSim> {
  const config = parseConfigText(simYaml(options), configSchema, { env: {} });
  if (config.sim === undefined) throw new Error('test config has no sim section');
  const clock = new ManualClock(START_MS);
  const sim = await startSim(config.sim, { logger: silentLogger(), activityTimer: false, clock });
  const catalog = instrumentCatalog(
    sim.core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
  );
  const clients: GatewayClient[] = [];
  return {
    sim,
    clock,
    catalog,
    gatewayUrl: sim.ready.gateway,
    clientFor(user, overrides = {}) {
      const { credentials, ...rest } = overrides;
      const client = new GatewayClient({
        gatewayUrl: sim.ready.gateway,
        credentials: { username: user, password: PASSWORDS[user], ...(user === 'carol' ? { totpSecret: CAROL_TOTP } : {}), ...credentials },
        instruments: catalog,
        now: clock.now,
        retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
        ...rest,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.splice(0).map((c) => c.close({ logout: false })));
      await sim.close();
    },
  };
}

export const dec = (text: string): Decimal => new Decimal(text);
