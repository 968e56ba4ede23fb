/**
 * The real simulator for family A client tests: `startSim` on 127.0.0.1 port 0 from YAML (through the
 * config loader), a hand-driven clock, no synthetic activity, KYC moved by hand. API clients are onboarded
 * with a public key generated in the test's temp folder; `clientFor()` builds the production client stack
 * (createFamilyAClient) for a participant, sharing or not the sim's clock.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../../../../src/config/index.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';
import { startSim } from '../../../../src/sim/simulator.ts';
import type { RunningSim } from '../../../../src/sim/simulator.ts';
import type { ExchangeConfig } from '../../../../src/exchange/config.ts';
import { createFamilyAClient } from '../../../../src/exchange/familya/index.ts';
import type { CreateFamilyAOptions, FamilyAStack } from '../../../../src/exchange/familya/index.ts';
import { makeKeys } from './keys.ts';
import type { TestKeys } from './keys.ts';

export const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
export const RAIN = 'RAIN-NYC-2026-12-01';
export const FRAC = 'FRAC-EVT-2026';
export const ALICE = 'firms/demo/users/alice';
export const BOB = 'firms/demo/users/bob';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
export const BOB_MAIN = 'firms/demo/accounts/bob-main';
export const CLIENT = 'demo-bot';
export const CLIENT_NO_L2 = 'demo-no-l2';

export class ManualClock {
  constructor(public t: number = T0) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface SimHarness {
  sim: RunningSim;
  clock: ManualClock;
  keys: TestKeys;
  exchange: ExchangeConfig;
  clientFor(participant?: string, options?: CreateFamilyAOptions & { clientId?: string; privateKeyFile?: string }): FamilyAStack;
  close(): Promise<void>;
}

export interface SimHarnessOptions {
  /** YAML flow-mapping body for `sim.kyc`, e.g. `duplicateProbability: "1"`. */
  kyc?: string;
  accessTokenTtlSeconds?: number;
  /** Run the sim on the wall clock (for CLI tests, whose clients use the wall clock too). */
  wallClock?: boolean;
}

export async function startSimHarness(options: SimHarnessOptions = {}): Promise<SimHarness> {
  const keys = makeKeys();
  const all =
    'read:marketdata, read:l2marketdata, read:instruments, read:orders, write:orders, read:reports, read:positions, read:dropcopy, ' +
    'read:accounts, write:accounts, read:funding, write:funding, read:kyc, write:kyc';
  const yaml = `
logging: { level: silent }
sim:
  startingBalance: "1000"
  familyA: { accessTokenTtlSeconds: ${options.accessTokenTtlSeconds ?? 180} }
  kyc: { ${options.kyc ?? ''} }
  users:
    - { username: alice, password: Demo-Alice-Pass-2026, participant: ${ALICE}, accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}] }
    - { username: bob, password: Demo-Bob-Pass-2026, participant: ${BOB}, accounts: [${BOB_MAIN}] }
  clients:
    - { clientId: ${CLIENT}, publicKeyFile: ${path.basename(keys.publicKeyFile)}, participant: ${ALICE}, scopes: [${all}] }
    - { clientId: ${CLIENT_NO_L2}, publicKeyFile: ${path.basename(keys.publicKeyFile)}, participant: ${ALICE},
        scopes: [read:marketdata, read:instruments] }
  instruments:
    - { symbol: ${RAIN}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
    - { symbol: ${FRAC}, priceScale: 10000, fractionalQtyScale: 100, tickSize: "0.0001", priceLimits: { low: "0.0001", high: "0.9999" } }
  activity: { enabled: false }
`;
  const config = parseConfig(yaml, { file: path.join(keys.dir, 'sim.yaml') });
  if (config.sim === undefined) throw new Error('no sim section');
  const clock = new ManualClock();
  const sim = await startSim(config.sim, {
    logger: silentLogger(),
    ...(options.wallClock === true ? {} : { clock }),
    activityTimer: false,
    kycTimer: false,
  });
  const exchange: ExchangeConfig = {
    apiUrl: sim.ready.api,
    authUrl: sim.ready.auth,
    gatewayUrl: sim.ready.gateway,
    familyA: { clientId: CLIENT, privateKeyFile: keys.privateKeyFile, participant: ALICE, refreshMarginSeconds: 30 },
  };
  const stacks: FamilyAStack[] = [];
  return {
    sim,
    clock,
    keys,
    exchange,
    clientFor(participant = ALICE, over = {}) {
      const { clientId, privateKeyFile, ...rest } = over;
      const familyA = {
        ...(exchange.familyA as NonNullable<ExchangeConfig['familyA']>),
        participant,
        ...(clientId === undefined ? {} : { clientId }),
        ...(privateKeyFile === undefined ? {} : { privateKeyFile }),
      };
      const stack = createFamilyAClient({ ...exchange, familyA }, { now: clock.now, retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...rest });
      stacks.push(stack);
      return stack;
    },
    async close() {
      await Promise.all(stacks.splice(0).map((s) => s.client.close()));
      await sim.close();
    },
  };
}

/** Writes a PEM to the harness folder (e.g. a second, unknown key). */
export function writePem(dir: string, name: string, pem: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, pem, { mode: 0o600 });
  return file;
}
