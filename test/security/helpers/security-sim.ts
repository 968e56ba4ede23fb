/**
 * The simulator the security suites attack: the family A harness's config (users alice and bob of firm
 * demo, carol of firm other, two instruments) plus API clients onboarded here with a key made here, each
 * with a scope set chosen for an attack: every scope, one scope only (read:instruments), every scope but
 * write:orders, and a client of the other firm. A manual clock, activity and KYC timer off. Raw fetch on
 * the wire, so the tests see exactly what an attacker would.
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT, type JWTHeaderParameters } from 'jose';
import { harnessConfig, ManualClock, ALICE, CAROL } from '../../sim/familya/helpers/harness.ts';
import { startSim, type RunningSim } from '../../../src/sim/simulator.ts';
import { SCOPES } from '../../../src/sim/config.ts';
import { silentLogger } from '../../../src/logging/logger.ts';

export const SEC_ALL = 'sec-all';
export const SEC_READ_ONLY = 'sec-instruments-only';
export const SEC_NO_WRITE_ORDERS = 'sec-no-write-orders';
export const SEC_OTHER_FIRM = 'sec-other-firm';

export interface Wire {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Headers;
}

export interface SecuritySim {
  sim: RunningSim;
  clock: ManualClock;
  key: KeyObject;
  publicPem: string;
  /** A signed client assertion for `clientId` (claims and header may be overridden). */
  assertion(clientId: string, claims?: Record<string, unknown>, header?: Partial<JWTHeaderParameters>, key?: KeyObject): Promise<string>;
  tokenRequest(fields: Record<string, string>): Promise<Wire>;
  /** A fresh access token (fails when refused). */
  token(clientId: string): Promise<string>;
  tokenFields(clientId: string, assertion: string): Record<string, string>;
  /** A /v1 call with `Authorization: Bearer <token>` (or the raw `authorization` given). */
  call(
    method: string,
    pathAndQuery: string,
    options?: { token?: string; authorization?: string; participant?: string; body?: unknown },
  ): Promise<Wire>;
  /** A gateway call with the bare token. */
  gateway(pathName: string, authorization: string | undefined, body?: unknown): Promise<Wire>;
  close(): Promise<void>;
}

async function wire(response: Response): Promise<Wire> {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    body = {};
  }
  return { status: response.status, body, text, headers: response.headers };
}

export async function startSecuritySim(): Promise<SecuritySim> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-sec-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const publicKeyFile = path.join(dir, 'sec.pub.pem');
  writeFileSync(publicKeyFile, publicPem);
  const config = harnessConfig(dir);
  const all = [...SCOPES];
  config.clients.push(
    { clientId: SEC_ALL, publicKeyFile, participant: ALICE, scopes: all },
    { clientId: SEC_READ_ONLY, publicKeyFile, participant: ALICE, scopes: ['read:instruments'] },
    { clientId: SEC_NO_WRITE_ORDERS, publicKeyFile, participant: ALICE, scopes: all.filter((s) => s !== 'write:orders') },
    { clientId: SEC_OTHER_FIRM, publicKeyFile, participant: CAROL, scopes: all },
  );
  const clock = new ManualClock();
  const sim = await startSim(config, { logger: silentLogger(), clock, activityTimer: false, kycTimer: false });
  const s: SecuritySim = {
    sim,
    clock,
    key: privateKey,
    publicPem,
    async assertion(clientId, claims = {}, header = {}, key = privateKey) {
      const now = Math.floor(clock.now() / 1000);
      return new SignJWT({ iss: clientId, sub: clientId, aud: sim.tokenEndpoint, iat: now, exp: now + 120, jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...header })
        .sign(key);
    },
    tokenFields: (clientId, assertion) => ({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      audience: sim.ready.api,
    }),
    async tokenRequest(fields) {
      return wire(
        await fetch(`${sim.ready.auth}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(fields),
        }),
      );
    },
    async token(clientId) {
      const response = await s.tokenRequest(s.tokenFields(clientId, await s.assertion(clientId)));
      if (response.status !== 200) throw new Error(`token for ${clientId} refused: ${response.text}`);
      return String(response.body['access_token']);
    },
    async call(method, pathAndQuery, o = {}) {
      const headers: Record<string, string> = {};
      if (o.authorization !== undefined) headers['authorization'] = o.authorization;
      else if (o.token !== undefined) headers['authorization'] = `Bearer ${o.token}`;
      if (o.participant !== undefined) headers['x-participant-id'] = o.participant;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      return wire(
        await fetch(`${sim.ready.api}${pathAndQuery}`, {
          method,
          headers,
          body: o.body === undefined ? undefined : JSON.stringify(o.body),
        }),
      );
    },
    async gateway(pathName, authorization, body = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization !== undefined) headers['authorization'] = authorization;
      return wire(await fetch(`${sim.ready.gateway}${pathName}`, { method: 'POST', headers, body: JSON.stringify(body) }));
    },
    async close() {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return s;
}

/** `error.details[0].reason` of a /v1 error body. */
export function reasonOf(body: Record<string, unknown>): unknown {
  const error = body['error'] as { details?: { reason?: unknown }[] } | undefined;
  return error?.details?.[0]?.reason;
}
