/**
 * Test harness for the simulator's gateway (family B) wire contract: starts a real `startSim` on
 * 127.0.0.1 port 0 from YAML text (through the project's config loader), with an injected hand-driven
 * clock and activity off, and talks to it with raw HTTP (global fetch) so tests pin the JSON on the wire,
 * not any client library. NDJSON streams are read line by line and awaited by predicate, never by sleeps.
 */
import { parseConfigText, configSchema } from '../../../../src/config/index.ts';
import { startSim, type RunningSim } from '../../../../src/sim/simulator.ts';
import type { SimConfig } from '../../../../src/sim/config.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';

export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const SYMBOL2 = 'FED-CUT-2026-12';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
export const BOB_MAIN = 'firms/demo/accounts/bob-main';
export const ALICE = { username: 'alice', password: 'Demo-Alice-Pass-2026' } as const;
export const BOB = { username: 'bob', password: 'Demo-Bob-Pass-2026' } as const;
/** A fixed start time for the injected clock: 2026-01-05T10:00:00Z. */
export const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);

export interface HarnessOptions {
  /** Extra `sim.gateway` lines (YAML flow-mapping entries), e.g. `rateLimitPerSecond: 5`. */
  gateway?: string;
  /** Extra users, as YAML list items indented under `users:`. */
  extraUsers?: string;
  /** Extra instruments, as YAML list items indented under `instruments:`. */
  extraInstruments?: string;
  /** The `sim.activity` block as YAML lines indented under `activity:`; default `enabled: false`. */
  activity?: string;
  /** Edits of the parsed config before start (for values the YAML loader cannot express). */
  tweak?: (config: SimConfig) => SimConfig;
  /** false (default): activity only steps when the test calls `sim.activity.step()`. */
  activityTimer?: boolean;
}

export function simYaml(options: HarnessOptions = {}): string {
  const gateway = options.gateway ?? 'rateLimitPerSecond: 10000';
  return `
logging:
  level: silent
sim:
  ports: { api: 0, auth: 0, gateway: 0, grpc: 0 }
  startingBalance: "100000"
  gateway: { ${gateway} }
  users:
    - username: alice
      password: ${ALICE.password}
      participant: firms/demo/users/alice
      accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}]
    - username: bob
      password: ${BOB.password}
      participant: firms/demo/users/bob
      accounts: [${BOB_MAIN}]
${options.extraUsers ?? ''}
  instruments:
    - symbol: ${SYMBOL}
      priceScale: 100
      fractionalQtyScale: 1
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
    - symbol: ${SYMBOL2}
      priceScale: 100
      fractionalQtyScale: 1
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
${options.extraInstruments ?? ''}
  activity:
${options.activity ?? '    enabled: false'}
`;
}

export function simConfig(options: HarnessOptions = {}): SimConfig {
  const root = parseConfigText(simYaml(options), configSchema, { env: {} });
  if (root.sim === undefined) throw new Error('test config has no sim section');
  return options.tweak ? options.tweak(root.sim) : root.sim;
}

/** A clock the test moves by hand. */
export class ManualClock {
  constructor(public t: number = T0) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export type Json = Record<string, unknown>;

export interface WireResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body (an object for every gateway reply). */
  body: Json;
  text: string;
}

export interface PostOptions {
  token?: string;
  /** A raw body sent as is (for malformed JSON tests). */
  raw?: string;
  method?: string;
  headers?: Record<string, string>;
}

export interface Harness {
  sim: RunningSim;
  clock: ManualClock;
  url: string;
  post(path: string, body?: unknown, options?: PostOptions): Promise<WireResponse>;
  /** POST under /api/v1beta1 with a token. */
  api(path: string, token: string, body?: unknown): Promise<WireResponse>;
  /** POST under /auth/v1beta1. */
  auth(path: string, body?: unknown, options?: PostOptions): Promise<WireResponse>;
  /** Logs in over the wire and returns the access token (fails the test if login fails). */
  login(user: { username: string; password: string }, otp?: string): Promise<string>;
  /**
   * An access token for a configured user, minted by the sim's own token service exactly as login mints
   * it, without the password hashing of a wire login (for tests about trading, not about login).
   */
  token(username: string): Promise<string>;
  /** Opens an NDJSON stream under /api/v1beta1. */
  stream(path: string, token: string, body?: unknown): Promise<NdjsonStream>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new ManualClock();
  const sim = await startSim(simConfig(options), { logger: silentLogger(), clock, activityTimer: options.activityTimer ?? false });
  const url = sim.ready.gateway;
  const streams: NdjsonStream[] = [];
  const post = async (path: string, body: unknown = {}, o: PostOptions = {}): Promise<WireResponse> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
    if (o.token !== undefined) headers['authorization'] = o.token;
    const method = o.method ?? 'POST';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : (o.raw ?? JSON.stringify(body)),
    });
    const text = await response.text();
    let parsed: unknown = {};
    if (text !== '') parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as Json, text };
  };
  const harness: Harness = {
    sim,
    clock,
    url,
    post,
    api: (path, token, body = {}) => post(`/api/v1beta1/${path}`, body, { token }),
    auth: (path, body = {}, o = {}) => post(`/auth/v1beta1/${path}`, body, o),
    async login(user, otp) {
      const response = await post('/auth/v1beta1/login', otp === undefined ? user : { ...user, otp });
      if (response.status !== 200) throw new Error(`login of ${user.username} failed: ${response.status} ${response.text}`);
      return String(response.body['accessToken']);
    },
    async token(username) {
      const user = sim.users.get(username);
      if (user === undefined) throw new Error(`no user ${username} in the test config`);
      const issued = await sim.gatewayTokens.issue('access', username, sim.config.gateway.accessTokenTtlSeconds, {
        participant: user.participant,
      });
      return issued.token;
    },
    async stream(path, token, body = {}) {
      const s = await openNdjson(`${url}/api/v1beta1/${path}`, token, body);
      streams.push(s);
      return s;
    },
    async close() {
      for (const s of streams) s.close();
      await sim.close();
    },
  };
  return harness;
}

/** An NDJSON response read incrementally: every parsed line is kept; tests await lines by predicate. */
export class NdjsonStream {
  readonly lines: Json[] = [];
  /** Resolves when the server ends the body (or the test aborts it). */
  readonly ended: Promise<void>;
  private waiters: (() => void)[] = [];
  private done = false;

  constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly controller: AbortController,
    body: ReadableStream<Uint8Array> | null,
  ) {
    this.ended = this.pump(body);
  }

  get isEnded(): boolean {
    return this.done;
  }

  private async pump(body: ReadableStream<Uint8Array> | null): Promise<void> {
    if (body === null) return this.finish();
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          if (line !== '') this.push(JSON.parse(line) as Json);
          newline = buffer.indexOf('\n');
        }
      }
      if (buffer.trim() !== '') this.push(JSON.parse(buffer) as Json);
    } catch {
      // aborted by the test, or the connection was cut: the stream is over either way
    }
    this.finish();
  }

  private push(line: Json): void {
    this.lines.push(line);
    this.wake();
  }

  private finish(): void {
    this.done = true;
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** The first line (from `from` on) matching `predicate`; rejects if the stream ends first. */
  async until(predicate: (line: Json) => boolean, from = 0): Promise<Json> {
    for (;;) {
      const found = this.lines.slice(from).find(predicate);
      if (found !== undefined) return found;
      if (this.done) throw new Error(`stream ended without a matching line; got ${JSON.stringify(this.lines)}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Waits until at least `count` lines have arrived. */
  async count(count: number): Promise<Json[]> {
    await this.until(() => this.lines.length >= count);
    return this.lines.slice(0, count);
  }

  close(): void {
    this.controller.abort();
  }
}

export async function openNdjson(url: string, token: string, body: unknown): Promise<NdjsonStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  return new NdjsonStream(response.status, response.headers, controller, response.body);
}

/** `result` of a stream line, or undefined. */
export function resultOf(line: Json): Json | undefined {
  const result = line['result'];
  return result !== null && typeof result === 'object' ? (result as Json) : undefined;
}

/** Reads a nested field by path (objects and arrays), for terse wire assertions. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let here: unknown = value;
  for (const key of path) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}

/** An array field as a list of objects (empty when absent, as proto3 JSON omits empty lists). */
export function list(value: unknown, ...path: (string | number)[]): Json[] {
  const found = at(value, ...path);
  return Array.isArray(found) ? (found as Json[]) : [];
}

/** A limit order request on the gateway wire (raw scaled price: "42" is 0.42 at price_scale 100). */
export function limitOrder(account: string, side: 'SIDE_BUY' | 'SIDE_SELL', qty: string, price: string, extra: Json = {}): Json {
  return {
    symbol: SYMBOL,
    side,
    order_qty: qty,
    price,
    type: 'ORDER_TYPE_LIMIT',
    time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    account,
    ...extra,
  };
}
