/**
 * The gateway's authentication endpoints (`/auth/v1beta1/*`) in the simulator: register (one-time, with a
 * registration JWT), check_password, login (with `otp` once MFA is on), refresh_access_token (rotating the
 * refresh token), enroll_mfa, confirm_mfa, change_password and logout (of the caller's whole session).
 * Request bodies are validated; failures are 400/401 in the gateway's `{code, message, details}` shape and
 * never reveal whether a username exists. A one-time code is accepted once per user (RFC 6238 5.2): login,
 * enroll_mfa and confirm_mfa refuse a code whose time step is not after the user's last accepted one.
 * Guessing is limited per username (login-throttle.ts): from the fifth failed password or code in a row, the
 * username is locked out with a doubling back-off (429).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Handler, Router, RequestContext } from '../http/router.ts';
import { invalidArgument, unauthenticated, SimHttpError } from '../http/errors.ts';
import { checkPassword } from './password-policy.ts';
import type { TokenService } from './token-service.ts';
import type { UserStore, SimUser } from './user-store.ts';
import { LoginThrottle } from './login-throttle.ts';
import { acceptTotp, enrollmentUrl, newTotpSecret } from '../../exchange/auth/totp.ts';

export interface GatewayAuthSettings {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  registrationTokenTtlSeconds: number;
}

export interface GatewayAuthDeps {
  users: UserStore;
  tokens: TokenService;
  clock: { now(): number };
  settings: () => GatewayAuthSettings;
}

/** The handlers' dependencies: the routes' deps and the per-username guessing limit they share. */
interface AuthDeps extends GatewayAuthDeps {
  readonly throttle: LoginThrottle;
}

const str = (field: string) => z.string({ error: `${field} must be a string` }).min(1, `${field} is required`);

const schemas = {
  register: z.object({ token: str('token'), password: str('password') }),
  checkPassword: z.object({ password: z.string({ error: 'password must be a string' }), username: z.string().optional() }),
  login: z.object({ username: str('username'), password: str('password'), otp: z.string().optional() }),
  refresh: z.object({ refreshToken: str('refreshToken') }),
  enrollMfa: z.object({ username: str('username'), password: str('password'), otp: z.string().optional() }),
  confirmMfa: z.object({ username: str('username'), password: str('password'), otp: str('otp') }),
  changePassword: z.object({ username: str('username'), oldPassword: str('oldPassword'), newPassword: str('newPassword') }),
  logout: z.object({ accessToken: z.string().optional(), refreshToken: z.string().optional() }),
};

async function parse<T extends z.ZodType>(context: RequestContext, schema: T): Promise<z.output<T>> {
  const result = schema.safeParse(await context.body());
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidArgument(issue === undefined ? 'invalid request body' : issue.message);
  }
  return result.data;
}

const BAD_LOGIN = 'invalid username, password or one-time code';

/** A new login session's access and refresh tokens, sharing a `sid` so logout can revoke them all. */
async function issuePair(deps: AuthDeps, user: SimUser) {
  const settings = deps.settings();
  const sid = randomUUID();
  const access = await deps.tokens.issue('access', user.username, settings.accessTokenTtlSeconds, { participant: user.participant, sid });
  const refresh = await deps.tokens.issue('refresh', user.username, settings.refreshTokenTtlSeconds, { sid });
  return {
    accessToken: access.token,
    refreshToken: refresh.token,
    accessIssueTime: access.issuedAt.toISOString(),
    accessExpirationTime: access.expiresAt.toISOString(),
    refreshIssueTime: refresh.issuedAt.toISOString(),
    refreshExpirationTime: refresh.expiresAt.toISOString(),
  };
}

/** Accepts `code` from `secret` once: on success the user's last accepted time step moves to the code's. */
function useOtp(deps: AuthDeps, user: SimUser, secret: string, code: string | undefined): boolean {
  if (code === undefined || code === '') return false;
  const step = acceptTotp(secret, code, deps.clock.now(), user.lastOtpStep);
  if (step === undefined) return false;
  user.lastOtpStep = step;
  return true;
}

/**
 * The user whose password this is, when not locked out (401 with the same message whatever was wrong); a wrong
 * password counts as a failure of the username.
 */
async function authenticate(deps: AuthDeps, username: string, password: string): Promise<SimUser> {
  deps.throttle.check(username);
  const user = await deps.users.verifyPassword(username, password);
  if (user === undefined) {
    deps.throttle.failure(username);
    throw unauthenticated(BAD_LOGIN);
  }
  return user;
}

/** A one-time code that did not match counts as a failure of the user, like a wrong password. */
function requireOtp(deps: AuthDeps, user: SimUser, secret: string, code: string | undefined, refusal: () => SimHttpError): void {
  if (useOtp(deps, user, secret, code)) return;
  deps.throttle.failure(user.username);
  throw refusal();
}

/** register: a registration JWT sets the user's first password (once). */
function registerHandler(deps: AuthDeps): Handler {
  return async (context) => {
    const body = await parse(context, schemas.register);
    const verified = await deps.tokens.verify(body.token, 'registration');
    if (typeof verified === 'string') throw unauthenticated(`registration token is ${verified}`);
    const user = deps.users.get(verified.username);
    if (user === undefined) throw unauthenticated('registration token names no user');
    if (user.registered) throw new SimHttpError('FAILED_PRECONDITION', 'this user has already registered; registration can be done once');
    const check = checkPassword(body.password, user.username);
    if (!check.valid) throw invalidArgument(`password too weak: ${check.messages.join('; ')}`);
    await deps.users.setPassword(user, body.password);
    user.registered = true;
    deps.tokens.revoke(verified.jti, verified.expiresAt);
    return { body: { username: user.username, participant: user.participant } };
  };
}

/** login: password, and the one-time code once MFA is on; an access and refresh token pair. */
function loginHandler(deps: AuthDeps): Handler {
  return async (context) => {
    const body = await parse(context, schemas.login);
    const user = await authenticate(deps, body.username, body.password);
    if (user.mfaSecret !== undefined) requireOtp(deps, user, user.mfaSecret, body.otp, () => unauthenticated(BAD_LOGIN));
    deps.throttle.success(user.username);
    return { body: await issuePair(deps, user) };
  };
}

/**
 * refresh_access_token: a new access token for a valid refresh token. Rotation: the refresh token presented is
 * spent and a new one (same session, same end) is answered with the access token; a spent one presented again
 * revokes the session (token-service.ts).
 */
function refreshHandler(deps: AuthDeps): Handler {
  return async (context) => {
    const body = await parse(context, schemas.refresh);
    const verified = await deps.tokens.redeemRefresh(body.refreshToken);
    if (verified === 'reused')
      throw unauthenticated('refresh token already used: its session is revoked (a copy may be in other hands); log in again');
    if (typeof verified === 'string') throw unauthenticated(`refresh token is ${verified}; log in again`);
    const user = deps.users.get(verified.username);
    if (user === undefined) throw unauthenticated('refresh token names no user');
    const session: Record<string, string> = verified.sid === '' ? {} : { sid: verified.sid };
    const access = await deps.tokens.issue('access', user.username, deps.settings().accessTokenTtlSeconds, {
      participant: user.participant,
      ...session,
    });
    const remainingSeconds = (verified.expiresAt.getTime() - deps.clock.now()) / 1000;
    const refresh = await deps.tokens.issue('refresh', user.username, remainingSeconds, session);
    return {
      body: {
        accessToken: access.token,
        accessIssueTime: access.issuedAt.toISOString(),
        accessExpirationTime: access.expiresAt.toISOString(),
        refreshToken: refresh.token,
        refreshIssueTime: refresh.issuedAt.toISOString(),
        refreshExpirationTime: refresh.expiresAt.toISOString(),
      },
    };
  };
}

/** enroll_mfa: a pending TOTP secret (replacing an active one needs a code from it). */
function enrollMfaHandler(deps: AuthDeps): Handler {
  return async (context) => {
    const body = await parse(context, schemas.enrollMfa);
    const user = await authenticate(deps, body.username, body.password);
    // Replacing an active secret needs a code from it, so the password alone cannot take over MFA.
    if (user.mfaSecret !== undefined) requireOtp(deps, user, user.mfaSecret, body.otp, () => unauthenticated(BAD_LOGIN));
    deps.throttle.success(user.username);
    user.pendingMfaSecret = newTotpSecret();
    return { body: { enrollmentUrl: enrollmentUrl(user.pendingMfaSecret, 'tradebot-sim', user.username) } };
  };
}

/** confirm_mfa: a code from the pending secret makes it the user's MFA secret. */
function confirmMfaHandler(deps: AuthDeps): Handler {
  return async (context) => {
    const body = await parse(context, schemas.confirmMfa);
    const user = await authenticate(deps, body.username, body.password);
    if (user.pendingMfaSecret === undefined) throw new SimHttpError('FAILED_PRECONDITION', 'call enroll_mfa first');
    requireOtp(deps, user, user.pendingMfaSecret, body.otp, () =>
      invalidArgument('the one-time code does not match the enrolled secret, or was already used; send the next code'),
    );
    deps.throttle.success(user.username);
    user.mfaSecret = user.pendingMfaSecret;
    user.pendingMfaSecret = undefined;
    return { body: { mfaEnabled: true } };
  };
}

/** change_password: the old password, and a new one the policy accepts. */
function changePasswordHandler(deps: AuthDeps): Handler {
  return async (context) => {
    const body = await parse(context, schemas.changePassword);
    const user = await authenticate(deps, body.username, body.oldPassword);
    deps.throttle.success(user.username);
    const check = checkPassword(body.newPassword, user.username);
    if (!check.valid) throw invalidArgument(`password too weak: ${check.messages.join('; ')}`);
    await deps.users.setPassword(user, body.newPassword);
    return { body: {} };
  };
}

/**
 * logout: revokes the caller's access token and its whole session (every access token it issued and its latest
 * refresh token), and the named access and refresh tokens of the same user.
 */
function logoutHandler(deps: AuthDeps): Handler {
  return async (context) => {
    const header = context.headers.authorization;
    if (header === undefined || header === '') throw unauthenticated('missing Authorization header');
    const caller = await deps.tokens.verify(header, 'access');
    if (typeof caller === 'string') throw unauthenticated(`access token is ${caller}`);
    const body = await parse(context, schemas.logout);
    deps.tokens.revoke(caller.jti, caller.expiresAt);
    if (caller.sid !== '')
      deps.tokens.revokeSession(caller.sid, new Date(deps.clock.now() + deps.settings().refreshTokenTtlSeconds * 1000));
    if (body.accessToken !== undefined && body.accessToken !== '') {
      const access = await deps.tokens.verify(body.accessToken, 'access');
      if (typeof access !== 'string' && access.username === caller.username) deps.tokens.revoke(access.jti, access.expiresAt);
    }
    if (body.refreshToken !== undefined && body.refreshToken !== '') {
      const refresh = await deps.tokens.verify(body.refreshToken, 'refresh');
      if (typeof refresh !== 'string' && refresh.username === caller.username) deps.tokens.revoke(refresh.jti, refresh.expiresAt);
    }
    return { body: {} };
  };
}

export function registerGatewayAuthRoutes(router: Router, routeDeps: GatewayAuthDeps): void {
  const base = '/auth/v1beta1';
  const deps: AuthDeps = { ...routeDeps, throttle: new LoginThrottle(routeDeps.clock) };
  router.post(`${base}/register`, registerHandler(deps));
  router.post(`${base}/check_password`, async (context) => {
    const body = await parse(context, schemas.checkPassword);
    return { body: checkPassword(body.password, body.username ?? '') };
  });
  router.post(`${base}/login`, loginHandler(deps));
  router.post(`${base}/refresh_access_token`, refreshHandler(deps));
  router.post(`${base}/enroll_mfa`, enrollMfaHandler(deps));
  router.post(`${base}/confirm_mfa`, confirmMfaHandler(deps));
  router.post(`${base}/change_password`, changePasswordHandler(deps));
  router.post(`${base}/logout`, logoutHandler(deps));
}
