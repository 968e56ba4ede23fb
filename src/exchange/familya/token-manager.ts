/**
 * TokenManager: the family A access token, kept fresh on demand (no timers).
 *
 * `getToken()` returns the cached token while it is outside its refresh margin; otherwise it signs a new
 * client assertion (fresh jti, see assertion.ts) and POSTs the token request to `{auth_url}/oauth/token`
 * with `audience` = the API base. One exchange runs at a time: concurrent callers share its promise. The
 * margin is `refreshMarginSeconds` (default 30) but at most half the token's lifetime, so a short-lived
 * token is not renewed on every call. Expiry is tracked on the injected local clock from the moment the
 * request was sent (`expires_in` is relative), so server clock skew does not matter. When a proactive renewal
 * fails for a retryable reason while the cached token is still valid, the cached token is used (the next
 * call tries again). `invalidate()` drops the cached token after an API 401, so the retry gets a fresh one.
 *
 * The token request is never retried by the transport: a repeat would reuse the assertion's jti.
 * The private key, the assertion and the token never reach a log line or an error.
 */
import type { KeyObject } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { Logger } from 'pino';
import { Subject, type Observable } from 'rxjs';
import { CLIENT_ASSERTION_TYPE, CLIENT_CREDENTIALS_GRANT, TOKEN_REFRESH_MARGIN_S, authCodecs } from '../../domain/index.ts';
import type { TokenResponse } from '../../domain/index.ts';
import { isTradebotError } from '../../errors.ts';
import type { Transport } from '../transport/index.ts';
import { TOKEN_PATH, buildClientAssertion, tokenEndpointUrl } from './assertion.ts';
import { FamilyAError, FamilyAErrorCode, badResponse } from './errors.ts';
import { tokenEndpointError } from './token-errors.ts';

export interface TokenManagerOptions {
  readonly clientId: string;
  /** `{auth_url}`: the token endpoint is `{auth_url}/oauth/token` (also the assertion's aud). */
  readonly authUrl: string;
  /** `{base_url}` of the /v1 API: the token request's `audience`. */
  readonly apiUrl: string;
  readonly privateKey: KeyObject;
  /** Transport whose base URL is `authUrl` (rate limited; not retried). */
  readonly transport: Transport;
  /** Local clock, ms since the epoch. Default Date.now. */
  readonly now?: () => number;
  /** Renew this long before expiry (capped at half the lifetime). Default 30. */
  readonly refreshMarginSeconds?: number;
  /** Assertion lifetime, 1..300 s. Default 300. */
  readonly assertionLifetimeSeconds?: number;
  /** Deadline of one token request, ms. Default the transport's. */
  readonly timeoutMs?: number;
  readonly logger?: Logger;
}

/** What is known about the current token, without the token. */
export interface TokenInfo {
  readonly tokenType: string;
  readonly expiresInSeconds: number;
  /** Local-clock deadlines, ms since the epoch. */
  readonly obtainedAt: number;
  readonly expiresAt: number;
  readonly refreshAt: number;
  /** The token's `scope` claim (read without verifying the signature); [] when it is not a JWT. */
  readonly scopes: readonly string[];
}

interface Grant extends TokenInfo {
  readonly token: string;
}

/** The `scope` (space-separated) or `scp` (array) claim of a JWT, unverified; [] otherwise. */
export function scopesOfToken(token: string): string[] {
  try {
    const claims = decodeJwt(token);
    const scope = claims['scope'] ?? claims['scp'];
    if (typeof scope === 'string') return scope.split(/\s+/).filter((s) => s !== '');
    if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string');
    return [];
  } catch {
    return [];
  }
}

export class TokenManager {
  private readonly options: TokenManagerOptions;
  private readonly now: () => number;
  private readonly marginMs: number;
  private readonly audience: string;
  private readonly tokenUrl: string;
  private grant: Grant | undefined;
  private pending: Promise<Grant> | undefined;
  private exchangeCount = 0;
  private readonly obtained = new Subject<void>();
  /** Emits after each token obtained: the exchange is reachable (gRPC streams waiting out a backoff reconnect sooner). */
  readonly tokens$: Observable<void> = this.obtained.asObservable();

  constructor(options: TokenManagerOptions) {
    const margin = options.refreshMarginSeconds ?? TOKEN_REFRESH_MARGIN_S;
    if (options.clientId === '' || !Number.isFinite(margin) || margin < 0) {
      throw new FamilyAError(
        FamilyAErrorCode.InvalidOptions,
        'TokenManager: clientId must be non-empty and refreshMarginSeconds a number >= 0',
      );
    }
    this.options = options;
    this.now = options.now ?? (() => Date.now());
    this.marginMs = margin * 1000;
    this.audience = options.apiUrl.replace(/\/+$/, '');
    this.tokenUrl = tokenEndpointUrl(options.authUrl);
  }

  /** Token exchanges made so far (for tests and metrics). */
  get exchanges(): number {
    return this.exchangeCount;
  }

  /** The current token's metadata (never the token); undefined before the first exchange. */
  info(): TokenInfo | undefined {
    if (this.grant === undefined) return undefined;
    const { token: _token, ...info } = this.grant;
    return info;
  }

  /** A token valid for the next call: the cached one, or a fresh one (one exchange in flight at a time). */
  async getToken(): Promise<string> {
    const grant = this.grant;
    const now = this.now();
    if (grant !== undefined && now < grant.refreshAt) return grant.token;
    try {
      return (await this.renew()).token;
    } catch (error) {
      const stillValid = grant !== undefined && this.grant === grant && this.now() < grant.expiresAt;
      if (stillValid && isTradebotError(error) && error.retryable) {
        this.options.logger?.warn({ err: error }, 'family A token renewal failed; using the current token until it expires');
        return grant.token;
      }
      throw error;
    }
  }

  /**
   * Drops the cached token after the API answered 401. With `rejected`, only when it is still the cached
   * token (a concurrent caller may already have renewed it).
   */
  invalidate(rejected?: string): void {
    if (rejected !== undefined && this.grant?.token !== rejected) return;
    this.grant = undefined;
  }

  private renew(): Promise<Grant> {
    if (this.pending !== undefined) return this.pending;
    const pending = this.exchange().finally(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    this.pending = pending;
    return pending;
  }

  private async exchange(): Promise<Grant> {
    const sentAt = this.now();
    const assertion = await buildClientAssertion({
      clientId: this.options.clientId,
      audience: this.tokenUrl,
      privateKey: this.options.privateKey,
      nowMs: sentAt,
      ...(this.options.assertionLifetimeSeconds === undefined ? {} : { lifetimeSeconds: this.options.assertionLifetimeSeconds }),
    });
    const body = authCodecs.tokenRequest.encode({
      clientId: this.options.clientId,
      clientAssertionType: CLIENT_ASSERTION_TYPE,
      clientAssertion: assertion,
      audience: this.audience,
      grantType: CLIENT_CREDENTIALS_GRANT,
    });
    this.exchangeCount++;
    let raw: unknown;
    try {
      const response = await this.options.transport.request({
        method: 'POST',
        path: TOKEN_PATH,
        body,
        idempotent: false,
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      });
      raw = response.body;
    } catch (error) {
      throw tokenEndpointError(error, this.options.clientId);
    }
    const grant = this.grantOf(raw, sentAt);
    this.grant = grant;
    this.options.logger?.debug({ expiresInSeconds: grant.expiresInSeconds, scopes: grant.scopes }, 'family A access token obtained');
    this.obtained.next();
    return grant;
  }

  private grantOf(raw: unknown, sentAt: number): Grant {
    let response: TokenResponse;
    try {
      response = authCodecs.tokenResponse.decode(raw);
    } catch (error) {
      throw badResponse('token', error);
    }
    if (response.accessToken === '' || response.expiresIn <= 0) {
      throw badResponse('token', new Error('the token response lacks access_token or a positive expires_in'));
    }
    if (response.tokenType !== '' && response.tokenType.toLowerCase() !== 'bearer') {
      throw badResponse('token', new Error(`token_type ${JSON.stringify(response.tokenType)} is not Bearer`));
    }
    const lifetimeMs = response.expiresIn * 1000;
    const expiresAt = sentAt + lifetimeMs;
    return {
      token: response.accessToken,
      tokenType: response.tokenType === '' ? 'Bearer' : response.tokenType,
      expiresInSeconds: response.expiresIn,
      obtainedAt: sentAt,
      expiresAt,
      refreshAt: expiresAt - Math.min(this.marginMs, lifetimeMs / 2),
      scopes: scopesOfToken(response.accessToken),
    };
  }
}
