/**
 * The family A access tokens: RS256 JWTs signed with a key pair the simulator makes at start (tokens die
 * with the process). Claims: `iss` (token server base), `aud` (API base), `sub` and `client_id` (the
 * client), `scope` (space-separated), `participant`, `firm`, `jti`, `iat`, `exp`. Verification uses the
 * injected clock, so tests expire tokens by moving time instead of waiting. The public key is published
 * as a JWKS by the token server. The servers' addresses are known only once they listen, so the service
 * is created first and `bind(issuer, audience)` is called when both are up; until then nothing verifies.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, exportJWK, jwtVerify, errors as joseErrors, type JWK } from 'jose';
import type { SimApiClient } from './clients.ts';
import { rsaKeyPair } from './rsa-key-pair.ts';

export interface AccessTokenClaims {
  clientId: string;
  scopes: string[];
  participant: string;
  firm: string;
  jti: string;
  expiresAtMs: number;
}

export type AccessTokenFailure = 'expired' | 'invalid';

export interface IssuedAccessToken {
  token: string;
  expiresIn: number;
}

export class AccessTokenService {
  private issuer = '';
  private audience = '';

  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicKey: KeyObject,
    private readonly publicJwk: JWK,
    private readonly kid: string,
    private readonly clock: { now(): number },
  ) {}

  static async create(clock: { now(): number }): Promise<AccessTokenService> {
    // a pair whose keys share no lock with their generation job (see rsa-key-pair.ts), exported once
    const { privateKey, publicKey } = await rsaKeyPair();
    return new AccessTokenService(privateKey, publicKey, await exportJWK(publicKey), `sim-${randomUUID().slice(0, 8)}`, clock);
  }

  /** Sets `iss` (the token server base) and `aud` (the API base) once both servers listen. */
  bind(issuer: string, audience: string): void {
    this.issuer = issuer;
    this.audience = audience;
  }

  async issue(client: SimApiClient, ttlSeconds: number): Promise<IssuedAccessToken> {
    if (this.issuer === '') throw new Error('AccessTokenService.bind() was not called');
    const iat = Math.floor(this.clock.now() / 1000);
    const expiresIn = Math.max(1, Math.round(ttlSeconds));
    const token = await new SignJWT({
      scope: client.scopes.join(' '),
      client_id: client.clientId,
      participant: client.participant,
      firm: client.firm,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: this.kid })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(client.clientId)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresIn)
      .sign(this.privateKey);
    return { token, expiresIn };
  }

  async verify(token: string): Promise<AccessTokenClaims | AccessTokenFailure> {
    if (this.issuer === '') return 'invalid';
    try {
      const { payload } = await jwtVerify(token, this.publicKey, {
        algorithms: ['RS256'],
        issuer: this.issuer,
        audience: this.audience,
        currentDate: new Date(this.clock.now()),
        clockTolerance: 0,
        requiredClaims: ['sub', 'exp', 'jti'],
      });
      const scope = typeof payload['scope'] === 'string' ? payload['scope'] : '';
      const participant = payload['participant'];
      const firm = payload['firm'];
      if (
        typeof payload.sub !== 'string' ||
        typeof participant !== 'string' ||
        typeof firm !== 'string' ||
        typeof payload.exp !== 'number' ||
        typeof payload.jti !== 'string'
      )
        return 'invalid';
      return {
        clientId: payload.sub,
        scopes: scope.split(' ').filter((s) => s !== ''),
        participant,
        firm,
        jti: payload.jti,
        expiresAtMs: payload.exp * 1000,
      };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return 'expired';
      return 'invalid';
    }
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [{ ...this.publicJwk, kid: this.kid, alg: 'RS256', use: 'sig' }] };
  }
}
