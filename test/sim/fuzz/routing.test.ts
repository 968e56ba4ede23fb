/**
 * Fuzzing what comes before any handler: random methods, paths (known paths bent: trailing or double
 * slashes, extra or missing segments, percent-encoding, `..`, odd query strings; and random paths) and
 * random extra headers, on the gateway, the /v1 API and the token server. Every answer is a 2xx, a 4xx
 * in the server's error shape, or 501 UNIMPLEMENTED in that shape (a known path with another method, as
 * grpc-gateway answers and docs/decisions.md records); nothing hangs and nothing changes. Also requests
 * Node's HTTP parser refuses (oversized request line, malformed request line, conflicting lengths), which
 * are answered in the server's shape too.
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileString } from './helpers/arbitraries.ts';
import {
  checkFamilyA,
  checkGateway,
  checkOAuth,
  fuzzRuns,
  headerSafe,
  send,
  startFuzzSim,
  stateOf,
  Tally,
  type FuzzSim,
  type Outcome,
} from './helpers/fuzz-sim.ts';
import type { RawResponse } from './helpers/raw-http.ts';
import { API_ENDPOINTS as GATEWAY_API, AUTH_ENDPOINTS, STREAM_ENDPOINTS } from './helpers/gateway-requests.ts';
import { API_ENDPOINTS as V1 } from './helpers/familya-requests.ts';

let sim: FuzzSim;
beforeAll(async () => {
  sim = await startFuzzSim();
});
afterAll(() => sim.close());

type Check = (response: RawResponse, options: { what: string; head?: boolean; allowUnimplemented?: boolean }) => Outcome;

interface Server {
  name: string;
  url: () => string;
  paths: string[];
  check: Check;
}

const SERVERS: Server[] = [
  {
    name: 'gateway',
    url: () => sim.gateway,
    paths: [...AUTH_ENDPOINTS, ...GATEWAY_API, ...STREAM_ENDPOINTS].map((e) => e.path),
    check: checkGateway,
  },
  { name: 'api', url: () => sim.api, paths: V1.map((e) => e.path.replace('{symbol}', 'RAIN-NYC-2026-12-01')), check: checkFamilyA },
  { name: 'auth', url: () => sim.auth, paths: ['/oauth/token', '/.well-known/jwks.json', '/health'], check: checkOAuth },
];

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** Keeps only the bytes a request target may hold (node:http refuses the rest before sending). */
const targetSafe = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => (b >= 0x21 && b <= 0x7e ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`))
    .join('');

type Bend =
  | 'asIs'
  | 'trailingSlash'
  | 'doubleSlash'
  | 'extraSegment'
  | 'dropSegment'
  | 'upperCase'
  | 'percentEncode'
  | 'dotDot'
  | 'query'
  | 'absolute'
  | 'random';

const pathCase = fc.record({
  server: fc.nat({ max: SERVERS.length - 1 }),
  path: fc.nat(),
  method: fc.constantFrom(...METHODS),
  bend: fc.constantFrom<Bend>(
    'asIs',
    'trailingSlash',
    'doubleSlash',
    'extraSegment',
    'dropSegment',
    'upperCase',
    'percentEncode',
    'dotDot',
    'query',
    'absolute',
    'random',
  ),
  text: hostileString.map((s) => s.slice(0, 3000)),
  header: fc.option(
    fc.tuple(
      fc.stringMatching(/^[a-z][a-z0-9-]{0,30}$/),
      hostileString.map((s) => headerSafe(s, 500)),
    ),
    { nil: undefined },
  ),
});

function bend(path: string, how: Bend, text: string): string {
  const segments = path.split('/');
  switch (how) {
    case 'asIs':
      return path;
    case 'trailingSlash':
      return `${path}/`;
    case 'doubleSlash':
      return path.replace('/', '//');
    case 'extraSegment':
      return `${path}/${targetSafe(text) || 'x'}`;
    case 'dropSegment':
      return segments.slice(0, -1).join('/') || '/';
    case 'upperCase':
      return path.toUpperCase();
    case 'percentEncode':
      return path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
    case 'dotDot':
      return `${path}/../${segments.at(-1) ?? ''}`;
    case 'query':
      return `${path}?${targetSafe(text)}`;
    case 'absolute':
      return `http://sim.invalid${path}`;
    case 'random':
      return `/${targetSafe(text)}`;
  }
}

describe('routing under random methods, paths and headers', () => {
  it('answers 2xx, a shaped 4xx, or a shaped 501 for a known path with another method; never hangs or changes state', async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(pathCase, async (c) => {
        const server = SERVERS[c.server] as Server;
        const path = bend(server.paths[c.path % server.paths.length] as string, c.bend, c.text);
        const headers: Record<string, string> = {};
        if (
          c.header !== undefined &&
          !['host', 'content-length', 'transfer-encoding', 'connection', 'expect', 'upgrade'].includes(c.header[0])
        )
          headers[c.header[0]] = c.header[1];
        const body = c.method === 'GET' || c.method === 'HEAD' ? undefined : Buffer.from('{}');
        if (body !== undefined) headers['content-type'] = 'application/json';
        const before = stateOf(sim.h);
        const response = await send(server.url(), { method: c.method, path, headers, body });
        const outcome = server.check(response, {
          what: `${server.name} ${c.method} ${path.slice(0, 150)}`,
          head: c.method === 'HEAD',
          allowUnimplemented: true,
        });
        if (response.status === 501 && c.method !== 'HEAD')
          expect(response.text, 'a 501 only for a known path with another method').toContain(`method ${c.method} is not supported on`);
        if (outcome === 'refused') expect(stateOf(sim.h)).toBe(before);
        tally.add(outcome, response.status);
      }),
      { numRuns: fuzzRuns(250) },
    );
    console.log(`routing: ${tally.summary()}`);
    expect(tally.byStatus.get(404) ?? 0).toBeGreaterThan(20);
    const health = await send(sim.api, { method: 'GET', path: '/v1/health', headers: {} });
    expect(health.status).toBe(200);
  });
});

/** Writes raw bytes to a server and reads the whole answer (the server closes after an error). */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${JSON.stringify(bytes.slice(0, 80))}`));
    }, 5000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.on('error', () => undefined);
    socket.end(bytes);
  });
}

describe('requests the HTTP parser refuses', () => {
  /** A POST path whose handler reads the body (or, for /v1, refuses before reading it). */
  const bodyPath: Record<string, string> = { gateway: '/auth/v1beta1/check_password', api: '/v1/refdata/symbols', auth: '/oauth/token' };
  const cases: [string, (path: string) => string, number][] = [
    ['a request line over 16 KiB', () => `GET /v1/health?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 400],
    ['a header block over 16 KiB', () => `GET /v1/health HTTP/1.1\r\nHost: x\r\nx-big: ${'b'.repeat(20_000)}\r\n\r\n`, 400],
    ['a malformed request line', () => 'GARBAGE\r\n\r\n', 400],
    [
      'both content-length and transfer-encoding',
      (path) => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
      400,
    ],
    [
      'a bad chunk size',
      (path) =>
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      0,
    ],
  ];

  for (const server of SERVERS) {
    it.each(cases)(`${server.name}: %s is answered in the server's error shape`, async (_name, request, status) => {
      const answer = await rawExchange(server.url(), request(bodyPath[server.name] ?? '/'));
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const code = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
      // status 0: the handler may answer first (401 before reading a /v1 body), else the parser's 400.
      if (status !== 0) expect(code, head).toBe(status);
      else expect(code >= 400 && code < 500, head).toBe(true);
      const response: RawResponse = { status: code, headers: {}, text: body, stream: false };
      expect(server.check(response, { what: `${server.name} raw` })).toBe('refused');
    });
  }
});
