/**
 * A small in-test family A exchange on 127.0.0.1:0 (node:http + jose): a token server that verifies the
 * client assertion like the real one (RS256 against the onboarded public key, iss = sub = client id,
 * aud = the token endpoint, exp - iat <= 300, a jti never seen before, audience = the API base) and answers
 * OAuth errors, and an API server with per-test routes that checks `Authorization: Bearer` against the tokens
 * it issued. Both record every request so tests can assert the client's wire behaviour.
 */
import http from 'node:http';
import type { KeyObject } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface TokenRecord {
  body: Record<string, unknown>;
  header: { alg?: string; typ?: string };
  claims: JWTPayload;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: RecordedRequest) => Reply | Promise<Reply>;

export interface FakeExchangeOptions {
  clientId: string;
  publicKey: KeyObject;
  /** The fake's clock (ms), for assertion expiry; default Date.now. */
  now?: () => number;
  tokenTtlSeconds?: number;
  scopes?: string[];
}

export interface FakeExchange {
  apiUrl: string;
  authUrl: string;
  tokenEndpoint: string;
  tokenRequests: TokenRecord[];
  apiRequests: RecordedRequest[];
  /** Issued and still accepted access tokens. */
  validTokens: Set<string>;
  tokenTtlSeconds: number;
  /** Next token answers: an OAuth error (status, body) instead of a token; consumed in order. */
  tokenFailures: Reply[];
  /** Delay token answers until this promise resolves (single-flight tests). */
  holdTokens: Promise<void> | undefined;
  route(method: string, path: string, handler: Handler): void;
  /** Makes every issued token fail with 401 (as if it expired). */
  expireTokens(): void;
  close(): Promise<void>;
}

const secret = new TextEncoder().encode('fake-exchange-signing-secret-0123456789');

function read(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, reply: Reply): void {
  const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...reply.headers });
  res.end(text);
}

async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    handler(req, res).catch((error: unknown) => send(res, { status: 500, body: { error: { code: 'INTERNAL', message: String(error) } } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const oauth = (status: number, error: string, description: string): Reply => ({ status, body: { error, error_description: description } });

export async function startFakeExchange(options: FakeExchangeOptions): Promise<FakeExchange> {
  const now = options.now ?? (() => Date.now());
  const seenJti = new Set<string>();
  const routes = new Map<string, Handler>();
  let apiUrl = '';
  let tokenEndpoint = '';

  const fake: FakeExchange = {
    apiUrl: '',
    authUrl: '',
    tokenEndpoint: '',
    tokenRequests: [],
    apiRequests: [],
    validTokens: new Set(),
    tokenTtlSeconds: options.tokenTtlSeconds ?? 180,
    tokenFailures: [],
    holdTokens: undefined,
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    expireTokens: () => fake.validTokens.clear(),
    close: async () => undefined,
  };

  async function token(body: Record<string, unknown>): Promise<Reply> {
    if (fake.holdTokens !== undefined) await fake.holdTokens;
    const assertion = typeof body['client_assertion'] === 'string' ? body['client_assertion'] : '';
    let header: TokenRecord['header'] = {};
    let claims: JWTPayload = {};
    try {
      header = decodeProtectedHeader(assertion) as TokenRecord['header'];
      claims = (await jwtVerify(assertion, options.publicKey, { algorithms: ['RS256'], currentDate: new Date(now()) })).payload;
    } catch {
      fake.tokenRequests.push({ body, header, claims });
      return oauth(401, 'invalid_client', 'assertion signature verification failed');
    }
    fake.tokenRequests.push({ body, header, claims });
    const failure = fake.tokenFailures.shift();
    if (failure !== undefined) return failure;
    if (body['grant_type'] !== 'client_credentials') return oauth(400, 'unsupported_grant_type', 'use client_credentials');
    if (body['client_assertion_type'] !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      return oauth(400, 'invalid_request', 'bad assertion type');
    if (body['client_id'] !== options.clientId) return oauth(401, 'invalid_client', 'unknown client');
    if (body['audience'] !== apiUrl) return oauth(400, 'invalid_request', `audience must be ${apiUrl}`);
    if (claims.iss !== options.clientId || claims.sub !== options.clientId)
      return oauth(400, 'invalid_client_assertion', 'iss and sub must be the client id');
    if (claims.aud !== tokenEndpoint) return oauth(400, 'invalid_client_assertion', `aud must be ${tokenEndpoint}`);
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.exp - claims.iat > 300)
      return oauth(400, 'invalid_client_assertion', 'exp at most 300 s after iat');
    if (typeof claims.jti !== 'string' || seenJti.has(claims.jti)) return oauth(400, 'invalid_client_assertion', 'jti reused');
    seenJti.add(claims.jti);
    const iat = Math.floor(now() / 1000);
    const accessToken = await new SignJWT({
      scope: (options.scopes ?? ['read:marketdata', 'write:orders']).join(' '),
      client_id: options.clientId,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + fake.tokenTtlSeconds)
      .setJti(randomUUID())
      .sign(secret);
    fake.validTokens.add(accessToken);
    return { body: { access_token: accessToken, token_type: 'Bearer', expires_in: fake.tokenTtlSeconds } };
  }

  const auth = await listen(async (req, res) => {
    const text = await read(req);
    if (req.method !== 'POST' || req.url !== '/oauth/token') return send(res, oauth(404, 'not_found', 'no such path'));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return send(res, oauth(400, 'invalid_request', 'body must be JSON'));
    }
    send(res, await token(body));
  });

  const api = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const text = await read(req);
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
    fake.apiRequests.push(recorded);
    const handler = routes.get(`${recorded.method} ${recorded.path}`);
    if (recorded.path !== '/v1/health') {
      const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
      if (match === null || !fake.validTokens.has(match[1] as string)) {
        return send(res, {
          status: 401,
          body: {
            error: { code: 'UNAUTHENTICATED', status: 401, message: 'token invalid or expired', details: [{ reason: 'TOKEN_EXPIRED' }] },
          },
        });
      }
    }
    if (handler === undefined)
      return send(res, {
        status: 404,
        body: { error: { code: 'NOT_FOUND', status: 404, message: `no route ${recorded.method} ${recorded.path}` } },
      });
    send(res, await handler(recorded));
  });

  apiUrl = api.url;
  tokenEndpoint = `${auth.url}/oauth/token`;
  fake.apiUrl = apiUrl;
  fake.authUrl = auth.url;
  fake.tokenEndpoint = tokenEndpoint;
  fake.close = async () => {
    for (const s of [auth.server, api.server]) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  };
  return fake;
}
