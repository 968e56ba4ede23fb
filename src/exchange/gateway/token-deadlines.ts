/**
 * The session's token bookkeeping as pure functions: when a token expires and when to renew it, on the
 * client's own clock.
 *
 * A token's local deadline is the local time its request was SENT plus the lifetime the gateway gave
 * (`*ExpirationTime - *IssueTime`), so a server clock that is off does not matter and the estimate errs on
 * the early side. The renewal point is that deadline minus min(marginMs, marginFraction x lifetime): with the
 * defaults (30 s, 10 %) a 900 s token is renewed 30 s early and a 60 s token 6 s early. Without an expiry
 * time the token never expires locally (only a 401 renews it); without an issue time the lifetime is
 * counted from the send time.
 */
import type { LoginResponse, RefreshResponse } from '../../domain/index.ts';

export interface RenewalPolicy {
  readonly marginMs: number;
  readonly marginFraction: number;
}

export interface Deadline {
  /** Local time the token stops working, ms. */
  readonly expiresAt: number;
  /** Local time from which it should be renewed, ms. */
  readonly renewAt: number;
}

/** Tokens held in memory with their local deadlines. */
export interface SessionTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly accessExpiresAt: number;
  readonly accessRefreshAt: number;
  readonly refreshExpiresAt: number;
  /** After this, a new login is preferred over a last-second refresh. */
  readonly refreshRenewBefore: number;
}

export function tokenDeadline(issue: number | undefined, expiry: number | undefined, sentAt: number, policy: RenewalPolicy): Deadline {
  if (expiry === undefined) return { expiresAt: Infinity, renewAt: Infinity };
  const lifetime = Math.max(0, expiry - (issue ?? sentAt));
  const margin = Math.min(policy.marginMs, lifetime * policy.marginFraction);
  return { expiresAt: sentAt + lifetime, renewAt: sentAt + lifetime - margin };
}

export function tokensFromLogin(response: LoginResponse, sentAt: number, policy: RenewalPolicy): SessionTokens {
  const access = tokenDeadline(response.accessIssueTime, response.accessExpirationTime, sentAt, policy);
  const refresh = tokenDeadline(response.refreshIssueTime, response.refreshExpirationTime, sentAt, policy);
  return {
    accessToken: response.accessToken,
    refreshToken: response.refreshToken,
    accessExpiresAt: access.expiresAt,
    accessRefreshAt: access.renewAt,
    refreshExpiresAt: refresh.expiresAt,
    refreshRenewBefore: refresh.renewAt,
  };
}

/**
 * A refresh renews the access token; a rotated refresh token in the answer replaces the one sent (which the
 * exchange has spent), with its deadlines; without one the refresh token and its deadlines are kept.
 */
export function tokensFromRefresh(current: SessionTokens, response: RefreshResponse, sentAt: number, policy: RenewalPolicy): SessionTokens {
  const access = tokenDeadline(response.accessIssueTime, response.accessExpirationTime, sentAt, policy);
  const renewed = { ...current, accessToken: response.accessToken, accessExpiresAt: access.expiresAt, accessRefreshAt: access.renewAt };
  if (response.refreshToken === '') return renewed;
  const refresh = tokenDeadline(response.refreshIssueTime, response.refreshExpirationTime, sentAt, policy);
  return { ...renewed, refreshToken: response.refreshToken, refreshExpiresAt: refresh.expiresAt, refreshRenewBefore: refresh.renewAt };
}
