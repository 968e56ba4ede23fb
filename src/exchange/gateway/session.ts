/**
 * GatewaySession: the gateway login, kept alive. It logs in (with a TOTP code from the configured base32
 * secret when MFA is on), keeps the tokens in memory only, and hands out an access token that is valid for
 * the next call: refreshed on demand before each call once the token is within its safety margin of expiry
 * (no timers), a new login when the refresh token has expired or the refresh is refused with 401, and a
 * logout (revoking both tokens) on shutdown. One renewal runs at a time: concurrent callers share its promise.
 *
 * Expiry is tracked on the injected local clock (token-deadlines.ts): the local send time plus the lifetime
 * the gateway gave, renewed min(refreshMarginMs (30 s), refreshMarginFraction (10 %) of the lifetime) early,
 * so a 60 s token is refreshed 6 s before it expires. A proactive refresh that fails for a connectivity reason
 * while the current token is still valid keeps the current token (the next call tries again).
 */
import { Subject, asyncScheduler, lastValueFrom, timer, type Observable } from 'rxjs';
import type { Logger } from 'pino';
import { isTradebotError } from '../../errors.ts';
import { TOKEN_REFRESH_MARGIN_S } from '../../domain/index.ts';
import { generateTotp, totpStep } from '../auth/totp.ts';
import { defaultIsRetryable } from '../transport/retry.ts';
import type { GatewayAuthApi, MfaConfirmation, MfaEnrollment } from './auth-api.ts';
import { GatewayError, GatewayErrorCode, isGatewayError } from './errors.ts';
import { tokensFromLogin, tokensFromRefresh } from './token-deadlines.ts';
import type { RenewalPolicy, SessionTokens } from './token-deadlines.ts';

export interface GatewayCredentials {
  readonly username: string;
  /** Held in memory only; never logged and never put in errors. */
  readonly password: string;
  /** Base32 TOTP secret (from enroll_mfa): when set, every login sends a fresh one-time code. */
  readonly totpSecret?: string;
  /** Alternative to `totpSecret`: supplies a one-time code (e.g. from an operator prompt). */
  readonly otp?: (nowMs: number) => string | Promise<string>;
  /**
   * The user has MFA enabled. Default: true when `totpSecret` or `otp` is set. True without either makes
   * login fail with GATEWAY_MFA_REQUIRED before anything is sent.
   */
  readonly mfa?: boolean;
}

export interface GatewaySessionOptions {
  readonly auth: GatewayAuthApi;
  readonly credentials: GatewayCredentials;
  /** Local clock, ms since the epoch. Default: asyncScheduler.now(). */
  readonly now?: () => number;
  /** Refresh this long before expiry at most. Default 30 000 ms. */
  readonly refreshMarginMs?: number;
  /** ... and at most this fraction of the token's lifetime (short tokens). Default 0.1. */
  readonly refreshMarginFraction?: number;
  /** Waits `ms` on the session's clock (used to wait for the next TOTP step). Default: an RxJS timer. */
  readonly wait?: (ms: number) => Promise<void>;
  readonly logger?: Logger;
}

/** What the session knows about its tokens, without the tokens. */
export interface SessionInfo {
  readonly loggedIn: boolean;
  readonly closed: boolean;
  /** Local-clock deadlines (ms); undefined when not logged in. */
  readonly accessExpiresAt: number | undefined;
  readonly accessRefreshAt: number | undefined;
  readonly refreshExpiresAt: number | undefined;
  /** Successful logins and refreshes since the session was created. */
  readonly logins: number;
  readonly refreshes: number;
}

type Tokens = SessionTokens;

const TOTP_PERIOD_MS = 30_000;

export class GatewaySession {
  private readonly auth: GatewayAuthApi;
  private credentials: GatewayCredentials;
  private readonly now: () => number;
  private readonly wait: (ms: number) => Promise<void>;
  /** The TOTP time step of the last code this session generated from its secret. */
  private lastTotpStep: number | undefined;
  private readonly policy: RenewalPolicy;
  private readonly logger: Logger | undefined;
  private tokens: Tokens | undefined;
  private renewal: Promise<Tokens> | undefined;
  private readonly loggedIn = new Subject<void>();
  /** Emits after each successful login: the gateway is reachable (streams waiting out a backoff reconnect sooner). */
  readonly logins$: Observable<void> = this.loggedIn.asObservable();
  private closed = false;
  private logins = 0;
  private refreshes = 0;

  constructor(options: GatewaySessionOptions) {
    this.auth = options.auth;
    this.credentials = options.credentials;
    this.now = options.now ?? (() => asyncScheduler.now());
    this.wait = options.wait ?? ((ms) => lastValueFrom(timer(ms), { defaultValue: 0 }).then(() => undefined));
    const marginMs = options.refreshMarginMs ?? TOKEN_REFRESH_MARGIN_S * 1000;
    const marginFraction = options.refreshMarginFraction ?? 0.1;
    this.policy = { marginMs, marginFraction };
    this.logger = options.logger;
    const problems: string[] = [];
    if (!(marginMs >= 0) || !Number.isFinite(marginMs)) problems.push(`refreshMarginMs must be a finite number >= 0 (got ${marginMs})`);
    if (!(marginFraction >= 0 && marginFraction < 1)) problems.push(`refreshMarginFraction must be in [0, 1) (got ${marginFraction})`);
    if (options.credentials.username === '') problems.push('credentials.username is empty');
    if (problems.length > 0) throw new GatewayError(GatewayErrorCode.InvalidOptions, `gateway session: ${problems.join('; ')}`);
  }

  info(): SessionInfo {
    const t = this.tokens;
    return {
      loggedIn: t !== undefined,
      closed: this.closed,
      accessExpiresAt: t?.accessExpiresAt,
      accessRefreshAt: t?.accessRefreshAt,
      refreshExpiresAt: t?.refreshExpiresAt,
      logins: this.logins,
      refreshes: this.refreshes,
    };
  }

  /** Logs in now (replacing any tokens held). */
  async login(): Promise<void> {
    this.assertOpen();
    await this.renew('login');
  }

  /** Refreshes the access token now (a new login if the refresh token is expired or refused). */
  async refresh(): Promise<void> {
    this.assertOpen();
    if (this.tokens === undefined) await this.renew('login');
    else await this.renew('refresh');
  }

  /** The user's username (not a secret). */
  get username(): string {
    return this.credentials.username;
  }

  /**
   * Changes the user's password on the gateway (checked by the gateway's policy) and uses the new one for
   * later logins. Tokens already issued stay valid.
   */
  async changePassword(newPassword: string): Promise<void> {
    this.assertOpen();
    const { username, password } = this.credentials;
    await this.auth.changePassword({ username, oldPassword: password, newPassword });
    this.credentials = { ...this.credentials, password: newPassword };
  }

  /** Starts MFA enrolment for the configured user: the otpauth URL and its secret (store it safely). */
  async enrollMfa(): Promise<MfaEnrollment> {
    this.assertOpen();
    const { username, password } = this.credentials;
    return this.auth.enrollMfa({ username, password });
  }

  /**
   * Confirms MFA enrolment with a code generated from `secret` now (or the given `otp`); on success later
   * logins send a fresh code from `secret`. Without `secret`, configure `totpSecret` before the next login.
   */
  async confirmMfa(input: { readonly secret?: string; readonly otp?: string }): Promise<MfaConfirmation> {
    this.assertOpen();
    const otp = input.otp ?? (input.secret === undefined ? undefined : this.codeFromSecret(input.secret));
    if (otp === undefined)
      throw new GatewayError(GatewayErrorCode.InvalidRequest, 'confirm_mfa: pass the enrolment secret or a one-time code');
    const { username, password } = this.credentials;
    const confirmation = await this.auth.confirmMfa({ username, password, otp });
    if (input.secret !== undefined) this.credentials = { ...this.credentials, totpSecret: input.secret, otp: undefined, mfa: true };
    else this.credentials = { ...this.credentials, mfa: true };
    return confirmation;
  }

  /** An access token valid for the next call: logs in, refreshes or re-logs in as needed. */
  async accessToken(): Promise<string> {
    this.assertOpen();
    const current = this.tokens;
    const now = this.now();
    if (current !== undefined && now < current.accessRefreshAt) return current.accessToken;
    if (current === undefined || now >= current.accessExpiresAt) return (await this.renew('auto')).accessToken;
    try {
      return (await this.renew('auto')).accessToken;
    } catch (error) {
      // Within the margin but not expired: a connectivity failure of the refresh need not fail the call.
      if (isTradebotError(error) && error.retryable && this.tokens === current && this.now() < current.accessExpiresAt) {
        this.logger?.warn({ code: error.code }, 'gateway token refresh failed; using the current token until it expires');
        return current.accessToken;
      }
      throw error;
    }
  }

  /**
   * Called after the gateway answered 401 to a call made with `rejectedToken`: renews (refresh, or a new login)
   * unless another caller already did, and returns the token to retry with.
   */
  async recoverFromUnauthorized(rejectedToken: string | undefined): Promise<string> {
    this.assertOpen();
    const current = this.tokens;
    if (current !== undefined && current.accessToken !== rejectedToken && this.now() < current.accessExpiresAt) {
      return current.accessToken;
    }
    if (current !== undefined && current.accessToken === rejectedToken) {
      // The token is dead whatever its expiry says: make the next renewal refresh it.
      this.tokens = { ...current, accessRefreshAt: -Infinity, accessExpiresAt: -Infinity };
    }
    return (await this.renew('auto')).accessToken;
  }

  /**
   * Revokes the tokens on the gateway and forgets them; later calls fail with GATEWAY_SESSION_CLOSED.
   * A token near expiry is refreshed first (logout needs a valid access token). Idempotent.
   */
  async logout(): Promise<void> {
    if (this.closed) return;
    let tokens: Tokens | undefined;
    try {
      await this.renewal?.catch(() => undefined);
      // Nothing left to revoke once the refresh token has expired: never log in just to log out.
      if (this.tokens !== undefined && this.now() < this.tokens.refreshExpiresAt) {
        await this.accessToken();
        tokens = this.tokens;
      }
    } finally {
      this.closed = true;
    }
    this.tokens = undefined;
    if (tokens === undefined) return;
    await this.auth.logout({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
    this.logger?.info({ username: this.credentials.username }, 'gateway session logged out');
  }

  /** Forgets the tokens without calling the gateway (e.g. when the process is dying). */
  discard(): void {
    this.closed = true;
    this.tokens = undefined;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new GatewayError(
        GatewayErrorCode.SessionClosed,
        'the gateway session is logged out or closed; create a new client to log in again',
      );
    }
  }

  /** The single renewal in flight, shared by every caller. */
  private renew(how: 'auto' | 'refresh' | 'login'): Promise<Tokens> {
    if (this.renewal !== undefined) return this.renewal;
    const renewal = this.doRenew(how).finally(() => {
      if (this.renewal === renewal) this.renewal = undefined;
    });
    this.renewal = renewal;
    return renewal;
  }

  private async doRenew(how: 'auto' | 'refresh' | 'login'): Promise<Tokens> {
    const current = this.tokens;
    // A refresh token inside its own margin is not used: a new login is more robust than a last-second refresh.
    const limit = how === 'refresh' ? current?.refreshExpiresAt : current?.refreshRenewBefore;
    if (how !== 'login' && current !== undefined && limit !== undefined && this.now() < limit) {
      try {
        const sentAt = this.now();
        const refreshed = await this.auth.refreshAccessToken(current.refreshToken);
        return this.store(tokensFromRefresh(current, refreshed, sentAt, this.policy), 'refresh');
      } catch (error) {
        if (!isGatewayError(error, GatewayErrorCode.AuthFailed)) throw error;
        this.logger?.info({ username: this.credentials.username }, 'gateway refresh token refused; logging in again');
      }
    }
    let otp = await this.oneTimeCode();
    try {
      let sentAt = this.now();
      let response;
      try {
        response = await this.auth.login({ username: this.credentials.username, password: this.credentials.password, otp });
      } catch (error) {
        // a login with a one-time code is not resent as it was (the code may have been used): once more with
        // the next code, when the failure was one worth retrying (the reply lost, the gateway briefly down)
        if (otp === '' || !defaultIsRetryable(error)) throw error;
        this.logger?.info(
          { username: this.credentials.username },
          'gateway login with a one-time code failed retryably; trying again with the next code',
        );
        otp = await this.oneTimeCode();
        sentAt = this.now();
        response = await this.auth.login({ username: this.credentials.username, password: this.credentials.password, otp });
      }
      return this.store(tokensFromLogin(response, sentAt, this.policy), 'login');
    } catch (error) {
      if (otp === '' && isGatewayError(error, GatewayErrorCode.AuthFailed)) {
        throw new GatewayError(
          GatewayErrorCode.AuthFailed,
          `${error.message}; check the username and password, and if this user has MFA enabled configure its TOTP secret`,
          { cause: error, exchange: error.exchange, httpStatus: error.httpStatus, details: error.details },
        );
      }
      throw error;
    }
  }

  private store(tokens: Tokens, how: 'login' | 'refresh'): Tokens {
    if (this.closed) {
      throw new GatewayError(GatewayErrorCode.SessionClosed, 'the gateway session was closed while renewing its token');
    }
    this.tokens = tokens;
    if (how === 'login') this.logins += 1;
    else this.refreshes += 1;
    this.logger?.debug({ username: this.credentials.username, how, accessExpiresAt: tokens.accessExpiresAt }, 'gateway token renewed');
    if (how === 'login') this.loggedIn.next();
    return tokens;
  }

  private async oneTimeCode(): Promise<string> {
    const { otp, totpSecret, mfa } = this.credentials;
    if (otp !== undefined) return otp(this.now());
    if (totpSecret !== undefined && totpSecret !== '') {
      await this.untilUnusedTotpStep();
      return this.codeFromSecret(totpSecret);
    }
    if (mfa === true) {
      throw new GatewayError(
        GatewayErrorCode.MfaRequired,
        `gateway user ${this.credentials.username} has MFA enabled but no TOTP secret is configured; set the base32 secret from enroll_mfa`,
      );
    }
    return '';
  }

  /** Waits, when this session already used the current step's code, for the next 30-second step. */
  private async untilUnusedTotpStep(): Promise<void> {
    const last = this.lastTotpStep;
    if (last === undefined || totpStep(this.now()) > last) return;
    const waitMs = (last + 1) * TOTP_PERIOD_MS - this.now();
    this.logger?.debug({ username: this.credentials.username, waitMs }, "waiting for the next one-time code (this step's code was used)");
    await this.wait(waitMs);
  }

  /** The current code of `secret`, remembering its step (a verifier accepts each code once). */
  private codeFromSecret(secret: string): string {
    const now = this.now();
    this.lastTotpStep = totpStep(now);
    return generateTotp(secret, now);
  }
}
