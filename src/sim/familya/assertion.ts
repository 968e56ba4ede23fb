/**
 * Verifies a family A client assertion (RFC 7523 private-key JWT) the way the exchange's token endpoint
 * does: RS256 only (`none`, HS256 and every other alg refused before any key is used, which also stops
 * alg confusion), the signature checked with the client's onboarded RSA public key(s), then the claims:
 * `iss` = `sub` = client id, `aud` = the token endpoint URL, `exp` in the future and at most 300 s after
 * `iat`, `iat` (and `nbf`) not in the future beyond a small skew, and a `jti` never accepted before.
 * A signature that does not verify is `invalid_client`; everything else is `invalid_client_assertion`,
 * with a description naming the rule. Times come from the injected sim clock.
 */
import { compactVerify, decodeProtectedHeader, errors as joseErrors } from 'jose';
import { ASSERTION_MAX_LIFETIME_S } from '../../domain/limits.ts';
import { OAuthError } from './errors.ts';
import type { SimApiClient } from './clients.ts';
import type { ReplayCache } from './replay-cache.ts';

export interface AssertionContext {
  /** `{auth}/oauth/token`: the only accepted `aud`. */
  tokenEndpoint: string;
  nowMs: number;
  skewSeconds: number;
  replay: ReplayCache;
}

export interface VerifiedAssertion {
  jti: string;
  expiresAtMs: number;
}

const bad = (description: string) => new OAuthError('invalid_client_assertion', description);

async function verifySignature(assertion: string, client: SimApiClient): Promise<Uint8Array> {
  let lastError: unknown;
  for (const key of client.publicKeys) {
    try {
      return (await compactVerify(assertion, key, { algorithms: ['RS256'] })).payload;
    } catch (error) {
      lastError = error;
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed)) break;
    }
  }
  if (lastError instanceof joseErrors.JWSSignatureVerificationFailed) {
    throw new OAuthError(
      'invalid_client',
      `the client_assertion signature does not verify with the public key onboarded for client ${client.clientId}; ` +
        'sign with the matching private key',
    );
  }
  throw bad(`the client_assertion could not be verified: ${lastError instanceof Error ? lastError.message : 'malformed JWS'}`);
}

function parseClaims(payload: Uint8Array): Record<string, unknown> {
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw bad('the client_assertion payload is not JSON');
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims))
    throw bad('the client_assertion payload is not a JSON object of claims');
  return claims as Record<string, unknown>;
}

function numericDate(claims: Record<string, unknown>, name: 'iat' | 'exp' | 'nbf', required: boolean): number | undefined {
  const value = claims[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw bad(`claim ${name} is ${value === undefined ? 'missing' : 'not a number'}: expected Unix seconds`);
  return value;
}

function checkClaims(claims: Record<string, unknown>, client: SimApiClient, context: AssertionContext): VerifiedAssertion {
  const id = client.clientId;
  if (claims['iss'] !== id) throw bad(`claim iss must be the client id ${id}`);
  if (claims['sub'] !== id) throw bad(`claim sub must be the client id ${id}`);
  const aud = claims['aud'];
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(context.tokenEndpoint))
    throw bad(`claim aud must be the token endpoint URL ${context.tokenEndpoint} (not the API address)`);
  const iat = numericDate(claims, 'iat', true) as number;
  const exp = numericDate(claims, 'exp', true) as number;
  const nbf = numericDate(claims, 'nbf', false);
  const now = context.nowMs / 1000;
  if (exp <= now) throw bad(`the assertion expired: exp ${exp} is not after the current time ${Math.floor(now)}`);
  if (exp - iat > ASSERTION_MAX_LIFETIME_S)
    throw bad(`exp is ${exp - iat} s after iat; an assertion may live at most ${ASSERTION_MAX_LIFETIME_S} s`);
  if (exp <= iat) throw bad('exp must be after iat');
  if (iat > now + context.skewSeconds) throw bad(`iat ${iat} is in the future (current time ${Math.floor(now)})`);
  if (nbf !== undefined && nbf > now + context.skewSeconds) throw bad(`nbf ${nbf} is in the future (current time ${Math.floor(now)})`);
  const jti = claims['jti'];
  if (typeof jti !== 'string' || jti === '') throw bad('claim jti is missing: give every assertion a fresh unique id (e.g. a UUID)');
  if (context.replay.has(id, jti)) throw bad('claim jti was already used: an assertion may be used once; make a new one with a fresh jti');
  return { jti, expiresAtMs: exp * 1000 };
}

/** Verifies an assertion for `client`; throws OAuthError. Records the jti only when everything passes. */
export async function verifyClientAssertion(
  assertion: string,
  client: SimApiClient,
  context: AssertionContext,
): Promise<VerifiedAssertion> {
  if (assertion.split('.').length !== 3) throw bad('client_assertion is not a compact JWS (header.payload.signature)');
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(assertion).alg;
  } catch {
    throw bad('client_assertion has a malformed JOSE header');
  }
  if (alg !== 'RS256') throw bad(`alg ${JSON.stringify(alg ?? null)} is not accepted: sign the assertion with RS256`);
  const claims = parseClaims(await verifySignature(assertion, client));
  const verified = checkClaims(claims, client, context);
  context.replay.remember(client.clientId, verified.jti, verified.expiresAtMs);
  return verified;
}
