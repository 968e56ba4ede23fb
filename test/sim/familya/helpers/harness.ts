/**
 * Test harness for the simulator's family A servers: starts a real `startSim` on 127.0.0.1 port 0 from
 * YAML (through the project's config loader) with an injected hand-driven clock, activity off and the KYC
 * timer off, onboards API clients with RSA keys made here (public PEMs written to a temp folder), and
 * talks raw HTTP (global fetch) so the tests pin the JSON on the wire. Assertions are built with jose.
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT, UnsecuredJWT } from 'jose';
import { parseConfigText, configSchema } from '../../../../src/config/index.ts';
import { startSim, type RunningSim } from '../../../../src/sim/simulator.ts';
import { SCOPES, type SimConfig } from '../../../../src/sim/config.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';

export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const SYMBOL2 = 'FED-CUT-2026-12';
export const ALICE = 'firms/demo/users/alice';
export const BOB = 'firms/demo/users/bob';
export const CAROL = 'firms/other/users/carol';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
export const BOB_MAIN = 'firms/demo/accounts/bob-main';
export const CAROL_MAIN = 'firms/other/accounts/carol-main';
export const ALICE_PASSWORD = 'Demo-Alice-Pass-2026';
/** 2026-01-05T10:00:00Z */
export const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);

export const CLIENT = 'demo-bot';
export const CLIENT_NO_L2 = 'demo-no-l2';
export const CLIENT_ALLOWLISTED = 'demo-allowlisted';
export const CLIENT_OTHER_FIRM = 'other-bot';

export class ManualClock {
  constructor(public t: number = T0) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = Math.max(this.t, ms);
  }
}

/** The real time, for the few tests that run the sim as `tradebot sim` does (timers on). */
export class WallClock extends ManualClock {
  override now = (): number => Date.now();
}

export type Json = Record<string, unknown>;

export interface WireResponse {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** `x-participant-id` */
  participant?: string;
  headers?: Record<string, string>;
}

export interface HarnessOptions {
  /** YAML for `sim.kyc` (a flow mapping body), e.g. `webhookTimeoutMs: 200`. */
  kyc?: string;
  familyA?: string;
  /** Wall clock and the KYC timer on, as in `tradebot sim` (default: a manual clock, timer off). */
  realTime?: boolean;
  /** YAML for `sim.gateway` (a flow mapping body); default `rateLimitPerSecond: 10000`. */
  gateway?: string;
}

export interface AssertionOptions {
  key?: KeyObject;
  claims?: Record<string, unknown>;
  omit?: string[];
}

export interface FamilyAHarness {
  sim: RunningSim;
  clock: ManualClock;
  api: string;
  auth: string;
  tokenEndpoint: string;
  dir: string;
  /** Private key of every demo client, and of the other firm's client (also "a wrong key" for demo). */
  demoKey: KeyObject;
  otherKey: KeyObject;
  demoPublicPem: string;
  assertion(clientId?: string, options?: AssertionOptions): Promise<string>;
  /** POST /oauth/token with the given fields (form or JSON). */
  tokenRequest(fields: Record<string, string>, form?: boolean): Promise<WireResponse>;
  /** A fresh access token for a client (fails the test when refused). */
  token(clientId?: string): Promise<string>;
  call(method: string, pathAndQuery: string, options?: CallOptions): Promise<WireResponse>;
  close(): Promise<void>;
}

function pemPair(): { privateKey: KeyObject; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

let cachedKeys: { demo: ReturnType<typeof pemPair>; other: ReturnType<typeof pemPair> } | undefined;

function keys() {
  cachedKeys ??= { demo: pemPair(), other: pemPair() };
  return cachedKeys;
}

export function harnessYaml(dir: string, options: HarnessOptions = {}): string {
  const all = SCOPES.join(', ');
  const noL2 = SCOPES.filter((s) => s !== 'read:l2marketdata').join(', ');
  const demoPem = path.join(dir, 'demo.pub.pem');
  const otherPem = path.join(dir, 'other.pub.pem');
  return `
logging:
  level: silent
sim:
  ports: { api: 0, auth: 0, gateway: 0, grpc: 0 }
  startingBalance: "100000"
  gateway: { ${options.gateway ?? 'rateLimitPerSecond: 10000'} }
  familyA: { ${options.familyA ?? ''} }
  kyc: { ${options.kyc ?? ''} }
  users:
    - username: alice
      password: ${ALICE_PASSWORD}
      participant: ${ALICE}
      accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}]
    - username: bob
      password: Demo-Bob-Pass-2026
      participant: ${BOB}
      accounts: [${BOB_MAIN}]
    - username: carol
      password: Demo-Carol-Pass-2026
      participant: ${CAROL}
      accounts: [${CAROL_MAIN}]
  clients:
    - { clientId: ${CLIENT}, publicKeyFile: ${demoPem}, participant: ${ALICE}, scopes: [${all}] }
    - { clientId: ${CLIENT_NO_L2}, publicKeyFile: ${demoPem}, participant: ${ALICE}, scopes: [${noL2}] }
    - { clientId: ${CLIENT_ALLOWLISTED}, publicKeyFile: ${demoPem}, participant: ${ALICE}, scopes: [${all}],
        allowlist: [10.1.2.3, "192.168.0.0/16"] }
    - { clientId: ${CLIENT_OTHER_FIRM}, publicKeyFile: ${otherPem}, participant: ${CAROL}, scopes: [${all}] }
  instruments:
    - symbol: ${SYMBOL}
      description: Will it rain?
      eventGroup: WEATHER
      priceScale: 100
      fractionalQtyScale: 1
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
    - symbol: ${SYMBOL2}
      priceScale: 100
      fractionalQtyScale: 1
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
  activity:
    enabled: false
`;
}

export function harnessConfig(dir: string, options: HarnessOptions = {}): SimConfig {
  const { demo, other } = keys();
  writeFileSync(path.join(dir, 'demo.pub.pem'), demo.publicPem);
  writeFileSync(path.join(dir, 'other.pub.pem'), other.publicPem);
  const root = parseConfigText(harnessYaml(dir, options), configSchema, { env: {}, file: path.join(dir, 'sim.yaml') });
  if (root.sim === undefined) throw new Error('test config has no sim section');
  return root.sim;
}

export async function startFamilyA(
  options: HarnessOptions = {},
  dir = mkdtempSync(path.join(tmpdir(), 'tradebot-fa-')),
): Promise<FamilyAHarness> {
  const clock = options.realTime === true ? new WallClock() : new ManualClock();
  const config = harnessConfig(dir, options);
  const sim = await startSim(config, { logger: silentLogger(), clock, activityTimer: false, kycTimer: options.realTime === true });
  const { demo, other } = keys();
  const h: FamilyAHarness = {
    sim,
    clock,
    api: sim.ready.api,
    auth: sim.ready.auth,
    tokenEndpoint: sim.tokenEndpoint,
    dir,
    demoKey: demo.privateKey,
    otherKey: other.privateKey,
    demoPublicPem: demo.publicPem,
    async assertion(clientId = CLIENT, o = {}) {
      const now = Math.floor(clock.now() / 1000);
      const claims: Record<string, unknown> = {
        iss: clientId,
        sub: clientId,
        aud: sim.tokenEndpoint,
        iat: now,
        exp: now + 300,
        jti: randomUUID(),
        ...o.claims,
      };
      for (const name of o.omit ?? []) delete claims[name];
      const key = o.key ?? (clientId === CLIENT_OTHER_FIRM ? other.privateKey : demo.privateKey);
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(key);
    },
    async tokenRequest(fields, form = false) {
      const response = await fetch(`${sim.ready.auth}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
        body: form ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
      });
      return wire(response);
    },
    async token(clientId = CLIENT) {
      const response = await h.tokenRequest(tokenFields(h, clientId, await h.assertion(clientId)));
      if (response.status !== 200) throw new Error(`token for ${clientId} refused: ${response.status} ${response.text}`);
      return String(response.body['access_token']);
    },
    async call(method, pathAndQuery, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token !== undefined) headers['authorization'] = `Bearer ${o.token}`;
      if (o.participant !== undefined) headers['x-participant-id'] = o.participant;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${sim.ready.api}${pathAndQuery}`, {
        method,
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      return wire(response);
    },
    async close() {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

export function tokenFields(h: FamilyAHarness, clientId: string, assertion: string): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
    audience: h.api,
  };
}

export async function wire(response: Response): Promise<WireResponse> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === '' ? {} : JSON.parse(text)) as Json, text };
}

/** `alg: none` assertion with the given claims. */
export function unsecuredAssertion(claims: Record<string, unknown>): string {
  return new UnsecuredJWT(claims).encode();
}

/** Reads a nested field by a dotted path (`error.details.0.reason`). */
export function at(value: unknown, dotted: string): unknown {
  let current = value;
  for (const part of dotted.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * A POST to the harness sim's gateway API (`/api/v1beta1/<path>`) as `username`, with an access token minted
 * straight from the sim's token service (one per user, reused). `harness` is read at call time, so the caller
 * can be made before `startFamilyA` has run.
 */
export function gatewayCaller(harness: () => FamilyAHarness) {
  const tokens = new Map<string, string>();
  return async (username: string, path: string, body: unknown): Promise<{ status: number; body: Json }> => {
    const { sim } = harness();
    let access = tokens.get(username);
    if (access === undefined) {
      const user = sim.users.get(username);
      if (user === undefined) throw new Error(`no user ${username}`);
      access = (await sim.gatewayTokens.issue('access', username, 900, { participant: user.participant })).token;
      tokens.set(username, access);
    }
    const response = await fetch(`${sim.ready.gateway}/api/v1beta1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: access },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
}
