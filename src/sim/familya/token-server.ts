/**
 * The family A token server (`{auth}`): `POST /oauth/token` exchanges a client assertion for an access
 * token (OAuth 2.0 client credentials with a private-key JWT, RFC 7523), with the body as JSON or
 * `application/x-www-form-urlencoded`. `GET /.well-known/jwks.json` publishes the key that signs access
 * tokens. Failures are OAuth error bodies `{error, error_description}`: invalid_request (400),
 * unsupported_grant_type (400), invalid_client (401), invalid_client_assertion (400).
 */
import type { Logger } from 'pino';
import { Router, type RequestContext } from '../http/router.ts';
import { startHttpServer } from '../http/server.ts';
import { SimHttpError } from '../http/errors.ts';
import { CLIENT_ASSERTION_TYPE, CLIENT_CREDENTIALS_GRANT } from '../../domain/types/auth.ts';
import { OAuthError, oauthErrorOf } from './errors.ts';
import { verifyClientAssertion } from './assertion.ts';
import { ReplayCache } from './replay-cache.ts';
import type { ClientRegistry } from './clients.ts';
import type { AccessTokenService } from './access-tokens.ts';

export interface TokenServerOptions {
  port: number;
  clients: ClientRegistry;
  tokens: AccessTokenService;
  /** The API base (`{api}`): the only accepted `audience`. */
  apiUrl: string;
  clock: { now(): number };
  settings: () => { accessTokenTtlSeconds: number; clockSkewSeconds: number };
  logger: Logger;
}

export interface RunningTokenServer {
  url: string;
  tokenEndpoint: string;
  close(): Promise<void>;
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

interface TokenRequestFields {
  clientId: string;
  assertionType: string;
  assertion: string;
  audience: string;
  grantType: string;
}

function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} must be a string`);
  return value;
}

function readFields(body: Record<string, unknown>): TokenRequestFields {
  const fields = {
    grantType: field(body, 'grant_type'),
    clientId: field(body, 'client_id'),
    assertionType: field(body, 'client_assertion_type'),
    assertion: field(body, 'client_assertion'),
    audience: field(body, 'audience'),
  };
  if (fields.grantType === '') throw new OAuthError('invalid_request', `grant_type is required (${CLIENT_CREDENTIALS_GRANT})`);
  if (fields.grantType !== CLIENT_CREDENTIALS_GRANT)
    throw new OAuthError('unsupported_grant_type', `grant_type ${fields.grantType} is not supported; use ${CLIENT_CREDENTIALS_GRANT}`);
  if (fields.clientId === '') throw new OAuthError('invalid_request', 'client_id is required');
  if (fields.assertionType !== CLIENT_ASSERTION_TYPE)
    throw new OAuthError('invalid_request', `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
  if (fields.assertion === '') throw new OAuthError('invalid_request', 'client_assertion is required');
  return fields;
}

const sameBase = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

export async function startTokenServer(options: TokenServerOptions): Promise<RunningTokenServer> {
  const replay = new ReplayCache(options.clock);
  let tokenEndpoint = '';

  const exchange = async (context: RequestContext) => {
    const fields = readFields(await context.body());
    if (fields.audience === '') throw new OAuthError('invalid_request', `audience is required: the API base address ${options.apiUrl}`);
    if (!sameBase(fields.audience, options.apiUrl))
      throw new OAuthError('invalid_request', `audience must be the API base address ${options.apiUrl}, not ${fields.audience}`);
    const client = options.clients.get(fields.clientId);
    if (client === undefined) throw new OAuthError('invalid_client', `unknown client_id ${fields.clientId}`);
    const settings = options.settings();
    await verifyClientAssertion(fields.assertion, client, {
      tokenEndpoint,
      nowMs: options.clock.now(),
      skewSeconds: settings.clockSkewSeconds,
      replay,
    });
    const issued = await options.tokens.issue(client, settings.accessTokenTtlSeconds);
    options.logger.debug({ clientId: client.clientId, expiresIn: issued.expiresIn }, 'family A access token issued');
    return { body: { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn }, headers: NO_STORE };
  };

  const router = new Router()
    .post('/oauth/token', async (context) => {
      try {
        return await exchange(context);
      } catch (error) {
        const oauth = error instanceof OAuthError ? error : error instanceof SimHttpError ? oauthErrorOf(error) : undefined;
        if (oauth === undefined) throw error;
        options.logger.debug({ error: oauth.code, description: oauth.description }, 'family A token request refused');
        return { status: oauth.httpStatus, body: oauth.body, headers: NO_STORE };
      }
    })
    .get('/.well-known/jwks.json', async () => ({ body: await options.tokens.jwks() }))
    .get('/health', () => ({ body: { status: 'SERVING' } }));

  const server = await startHttpServer({
    router,
    port: options.port,
    logger: options.logger,
    renderError: (error) => ({ status: error.httpStatus, body: oauthErrorOf(error).body, headers: error.headers }),
  });
  tokenEndpoint = `${server.url}/oauth/token`;
  return { url: server.url, tokenEndpoint, close: server.close };
}
