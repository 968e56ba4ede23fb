/**
 * The target of the simulator fuzz suites: one `startSim` (through the family A harness, so both doors,
 * the token server and onboarded clients exist) with a manual clock, streams that heartbeat every 50 ms (so
 * an open stream always has a first line to read) and limits raised so the fuzzer never meets the rate
 * limiter. Also what the properties need: the exchange state as a comparable string, request encodings
 * (JSON, truncated, form, invalid UTF-8, oversize, random bytes), header variants, and the checks of each
 * family's error shape.
 */
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { startFamilyA, ALICE_MAIN, ALICE_HEDGE, BOB_MAIN, CAROL_MAIN, type FamilyAHarness } from '../../familya/helpers/harness.ts';
import { toJsonText, hostileString, type Json } from './arbitraries.ts';
import { rawRequest, firstLine, type RawRequest, type RawResponse } from './raw-http.ts';
import { GRPC_STATUS } from '../../../../src/sim/http/errors.ts';

export { ALICE_MAIN, ALICE_HEDGE, BOB_MAIN, CAROL_MAIN };
export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const SYMBOL2 = 'FED-CUT-2026-12';
export const ACCOUNTS = [ALICE_MAIN, ALICE_HEDGE, BOB_MAIN, CAROL_MAIN] as const;
export const PASSWORDS = { alice: 'Demo-Alice-Pass-2026', bob: 'Demo-Bob-Pass-2026', carol: 'Demo-Carol-Pass-2026' } as const;
export const REQUEST_TIMEOUT_MS = 5000;

/** `numRuns` for a suite: the default, times TRADEBOT_FUZZ_SCALE when set (longer local fuzzing sessions). */
export function fuzzRuns(defaultRuns: number): number {
  const scale = Number(process.env['TRADEBOT_FUZZ_SCALE'] ?? '1');
  return Math.max(1, Math.round(defaultRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

export interface FuzzSim {
  h: FamilyAHarness;
  gateway: string;
  api: string;
  auth: string;
  close(): Promise<void>;
}

export async function startFuzzSim(): Promise<FuzzSim> {
  const h = await startFamilyA();
  const config = h.sim.config;
  config.gateway.heartbeatSeconds = 0.05;
  config.gateway.rateLimitPerSecond = 1_000_000_000;
  config.kyc.webhookTimeoutMs = 200;
  return { h, gateway: h.sim.ready.gateway, api: h.sim.ready.api, auth: h.sim.ready.auth, close: () => h.close() };
}

/**
 * Everything a refused request must leave as it was: orders, book, trades, positions, cash, users, KYC.
 * `exceptOrder`: an order id left out of the orders (a market rejection's REJECTED order, which stays on record).
 */
export function stateOf(h: FamilyAHarness, exceptOrder?: string): string {
  const { core, users, directory, kyc } = h.sim;
  return JSON.stringify({
    orders: [...core.allOrders()]
      .filter((r) => r.latest.order.orderId !== exceptOrder)
      .map((r) => [
        r.latest.order.orderId,
        r.latest.state,
        r.latest.cumQty,
        r.latest.leavesQty,
        r.latest.order.price,
        r.latest.order.orderQty,
      ]),
    open: ACCOUNTS.map((account) => core.openOrders({ account }).map((o) => o.order.orderId)),
    trades: core.trades().map((t) => t.id),
    positions: ACCOUNTS.map((account) => core.ledger.positionsOf(account).map((p) => [p.symbol, p.net, p.cost.toString()])),
    cash: ACCOUNTS.map((account) => core.ledger.balance(account).cash.toString()),
    users: users.all().map((u) => [u.username, u.registered, u.mfaSecret, u.pendingMfaSecret, u.passwordHash?.toString('hex')]),
    directory: ['demo', 'other'].map((firm) => directory.usersOf(firm).map((u) => [u.id, u.accounts])),
    kyc: [kyc.nextDueAt(), kyc.webhookUrl('demo'), kyc.webhookUrl('other')],
  });
}

let seedCount = 0;

/** A working order of `account` (inserted through the core when there is none), for cancel/replace bodies. */
export function restingOrder(h: FamilyAHarness, account: string, participant: string): string {
  const open = h.sim.core.openOrders({ account })[0];
  if (open !== undefined) return open.order.orderId;
  const result = h.sim.core.submit({
    account,
    participant,
    symbol: SYMBOL,
    side: 'SIDE_BUY',
    type: 'ORDER_TYPE_LIMIT',
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    orderQty: 1,
    price: 10,
    clordId: `fuzz-seed-${(seedCount += 1)}`,
  });
  const id = result.executions[0]?.order.orderId;
  if (id === undefined) throw new Error('could not seed a resting order');
  return id;
}

// ---------------------------------------------------------------------------------------------------------
// Bodies

export type BodyEncoding =
  | { kind: 'json' }
  | { kind: 'truncated'; cut: number }
  | { kind: 'form' }
  | { kind: 'badUtf8'; at: number }
  | { kind: 'empty' }
  | { kind: 'oversize' }
  | { kind: 'bytes'; bytes: Uint8Array };

export const bodyEncoding: fc.Arbitrary<BodyEncoding> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'json' as const }) },
  { weight: 2, arbitrary: fc.nat().map((cut) => ({ kind: 'truncated' as const, cut })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'form' as const }) },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ kind: 'badUtf8' as const, at })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'bytes' as const, bytes })) },
);

/** Rare: a body over the servers' 1 MiB cap. */
export const bodyEncodingWithOversize: fc.Arbitrary<BodyEncoding> = fc.oneof(
  { weight: 40, arbitrary: bodyEncoding },
  { weight: 1, arbitrary: fc.constant({ kind: 'oversize' as const }) },
);

export function encodeBody(value: Json, encoding: BodyEncoding): Buffer {
  const text = toJsonText(value);
  switch (encoding.kind) {
    case 'json':
      return Buffer.from(text, 'utf8');
    case 'truncated':
      return Buffer.from(text.slice(0, encoding.cut % Math.max(1, text.length)), 'utf8');
    case 'form': {
      const fields = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
      const params = new URLSearchParams();
      for (const [key, v] of Object.entries(fields)) params.append(key, typeof v === 'string' ? v : toJsonText(v));
      return Buffer.from(params.toString(), 'utf8');
    }
    case 'badUtf8': {
      const bytes = Buffer.from(text, 'utf8');
      const at = encoding.at % (bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]), bytes.subarray(at)]);
    }
    case 'empty':
      return Buffer.alloc(0);
    case 'oversize':
      return Buffer.from(`{"pad":"${'p'.repeat(1024 * 1024)}","body":${text}}`, 'utf8');
    case 'bytes':
      return Buffer.from(encoding.bytes);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Headers

/** Characters a header value may carry on the wire (what node:http lets through). */
export const headerSafe = (text: string, max = 2000): string => text.replace(/[^\t\x20-\x7e]/g, '?').slice(0, max);

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constant('application/json; charset=utf-8') },
  { weight: 1, arbitrary: fc.constant('application/x-www-form-urlencoded') },
  { weight: 1, arbitrary: fc.constant('text/plain') },
  { weight: 1, arbitrary: fc.constant('multipart/form-data; boundary=xyz') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: hostileString.map((s) => headerSafe(s, 200)) },
);

/** An `alg: none` JWT with the given claims. */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/** An HS256 JWT signed with `secret` (for alg confusion: the secret is a public key). */
export function hs256Jwt(claims: Record<string, unknown>, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/** Flips a character in the signature part. */
export function tamper(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.at(-1) ?? ''}`;
}

export function send(base: string, request: RawRequest): Promise<RawResponse> {
  return rawRequest(base, request, REQUEST_TIMEOUT_MS);
}

// ---------------------------------------------------------------------------------------------------------
// Checks

function parse(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${what}: the body is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${what}: the body is not a JSON object: ${text.slice(0, 200)}`);
  return value as Record<string, unknown>;
}

const STATUS_NAMES = new Map<number, string>(Object.entries(GRPC_STATUS).map(([name, code]) => [code, name]));

/** Outcome of one fuzzed request: 'ok' (2xx, valid by chance) or 'refused' (a clear error). */
export type Outcome = 'ok' | 'refused';

interface CheckOptions {
  /** The method was HEAD: no body to check. */
  head?: boolean;
  /** The path exists with another method: 501 UNIMPLEMENTED is the documented answer (grpc-gateway mapping). */
  allowUnimplemented?: boolean;
  what: string;
}

function statusAllowed(response: RawResponse, options: CheckOptions): void {
  const ok = response.status >= 200 && response.status < 300;
  const clientError = response.status >= 400 && response.status < 500;
  const unimplemented = response.status === 501 && options.allowUnimplemented === true;
  if (!ok && !clientError && !unimplemented)
    throw new Error(`${options.what}: answered HTTP ${response.status}: ${response.text.slice(0, 300)}`);
}

function checkOkBody(response: RawResponse, options: CheckOptions): void {
  if (options.head === true) return;
  if (response.stream) {
    const line = parse(firstLine(response.text), `${options.what} (first stream line)`);
    if (!('result' in line) && !('error' in line))
      throw new Error(`${options.what}: stream line without result or error: ${response.text.slice(0, 200)}`);
    return;
  }
  parse(response.text, options.what);
}

/** Gateway: `{code: <gRPC number>, message: <status name>, details: <non-empty text>}`. */
export function checkGateway(response: RawResponse, options: CheckOptions): Outcome {
  statusAllowed(response, options);
  if (response.status < 300) {
    checkOkBody(response, options);
    return 'ok';
  }
  if (options.head === true) return 'refused';
  const body = parse(response.text, options.what);
  const name = STATUS_NAMES.get(body['code'] as number);
  expect(name, `${options.what}: code ${String(body['code'])}`).toBeDefined();
  expect(body['message'], options.what).toBe(name);
  expect(
    typeof body['details'] === 'string' && body['details'].trim() !== '',
    `${options.what}: details must say what is wrong: ${response.text}`,
  ).toBe(true);
  return 'refused';
}

/** Family A /v1: `{error: {code: <status name>, status: <http>, message: <non-empty>, details: [...]}}`. */
export function checkFamilyA(response: RawResponse, options: CheckOptions): Outcome {
  statusAllowed(response, options);
  if (response.status < 300) {
    checkOkBody(response, options);
    return 'ok';
  }
  if (options.head === true) return 'refused';
  const error = parse(response.text, options.what)['error'] as Record<string, unknown> | undefined;
  expect(error, `${options.what}: ${response.text}`).toBeTypeOf('object');
  expect([...STATUS_NAMES.values()], options.what).toContain(error?.['code']);
  expect(error?.['status'], options.what).toBe(response.status);
  expect(typeof error?.['message'] === 'string' && error['message'].trim() !== '', `${options.what}: message: ${response.text}`).toBe(true);
  expect(Array.isArray(error?.['details']), options.what).toBe(true);
  return 'refused';
}

/** Token server: OAuth `{error: <code>, error_description: <non-empty>}`. */
export function checkOAuth(response: RawResponse, options: CheckOptions): Outcome {
  statusAllowed(response, options);
  if (response.status < 300) {
    checkOkBody(response, options);
    return 'ok';
  }
  if (options.head === true) return 'refused';
  const body = parse(response.text, options.what);
  expect(typeof body['error'] === 'string' && body['error'] !== '', `${options.what}: ${response.text}`).toBe(true);
  expect(
    typeof body['error_description'] === 'string' && body['error_description'].trim() !== '',
    `${options.what}: ${response.text}`,
  ).toBe(true);
  return 'refused';
}

/** Counts of a fuzz run, to report and to check the run was not vacuous. */
export class Tally {
  ok = 0;
  refused = 0;
  readonly byStatus = new Map<number, number>();

  /** One line for the test log: `ok 12, refused 188 (400: 120, 401: 60, ...)`. */
  summary(): string {
    const statuses = [...this.byStatus.entries()].sort((a, b) => a[0] - b[0]).map(([status, n]) => `${status}: ${n}`);
    return `ok ${this.ok}, refused ${this.refused} (${statuses.join(', ')})`;
  }

  add(outcome: Outcome, status: number): void {
    if (outcome === 'ok') this.ok += 1;
    else this.refused += 1;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }
}
