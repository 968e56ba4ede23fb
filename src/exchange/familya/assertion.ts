/**
 * The family A client assertion: a JWT signed with the client's RSA private key (RS256) that the token
 * endpoint exchanges for an access token. Claims, as the spec requires:
 *   iss = sub = client id; aud = the token endpoint URL `{auth_url}/oauth/token` (not the API address);
 *   iat = now (Unix seconds); exp = iat + lifetime, at most 300 s; jti = a fresh random UUID every time
 *   (a reused jti is refused as a replay).
 * The assertion is a credential: callers send it and drop it, never log it.
 */
import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { ASSERTION_MAX_LIFETIME_S } from '../../domain/index.ts';

export const TOKEN_PATH = '/oauth/token';

export interface AssertionInput {
  readonly clientId: string;
  /** `{auth_url}/oauth/token` */
  readonly audience: string;
  readonly privateKey: KeyObject;
  /** Issue time, ms since the epoch (the injected clock). */
  readonly nowMs: number;
  /** Seconds until exp; clamped to 1..300. Default 300. */
  readonly lifetimeSeconds?: number;
}

/** The token endpoint URL for an auth base URL (a trailing slash or path prefix is kept). */
export function tokenEndpointUrl(authUrl: string): string {
  return `${authUrl.replace(/\/+$/, '')}${TOKEN_PATH}`;
}

/** Signs a new client assertion (fresh jti). */
export async function buildClientAssertion(input: AssertionInput): Promise<string> {
  const iat = Math.floor(input.nowMs / 1000);
  const lifetime = Math.min(ASSERTION_MAX_LIFETIME_S, Math.max(1, Math.floor(input.lifetimeSeconds ?? ASSERTION_MAX_LIFETIME_S)));
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(input.clientId)
    .setSubject(input.clientId)
    .setAudience(input.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetime)
    .setJti(randomUUID())
    .sign(input.privateKey);
}
