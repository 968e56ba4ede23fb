/**
 * The simulator's gateway tokens: access, refresh and registration JWTs (HS256, signed with the sim's
 * secret), each with `sub` (username), `typ`, `jti`, `iat` and `exp`. Logout revokes by `jti`; a revoked,
 * expired, wrongly typed or malformed token fails verification with a reason. Time comes from the
 * injected clock, so tests can make tokens expire without waiting.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export type TokenType = 'access' | 'refresh' | 'registration';

export interface SimClock {
  now(): number;
}

export interface IssuedToken {
  token: string;
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
}

export interface VerifiedToken {
  username: string;
  jti: string;
  expiresAt: Date;
}

export type TokenFailure = 'malformed' | 'expired' | 'revoked' | 'wrong-type' | 'bad-signature';

export class TokenService {
  private readonly key: Uint8Array;
  private readonly revoked = new Map<string, number>();

  constructor(
    private readonly clock: SimClock,
    secret?: string,
    private readonly issuer = 'tradebot-sim-gateway',
  ) {
    this.key = secret === undefined ? randomBytes(32) : new TextEncoder().encode(secret);
  }

  async issue(type: TokenType, username: string, ttlSeconds: number, extra: Record<string, string> = {}): Promise<IssuedToken> {
    const nowMs = this.clock.now();
    const iat = Math.floor(nowMs / 1000);
    const exp = iat + Math.max(1, Math.round(ttlSeconds));
    const jti = randomUUID();
    const token = await new SignJWT({ ...extra, typ: type })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(username)
      .setIssuer(this.issuer)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, jti, issuedAt: new Date(iat * 1000), expiresAt: new Date(exp * 1000) };
  }

  async verify(token: string, type: TokenType): Promise<VerifiedToken | TokenFailure> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        currentDate: new Date(this.clock.now()),
        clockTolerance: 0,
      });
      if (payload['typ'] !== type) return 'wrong-type';
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return 'malformed';
      if (this.revoked.has(payload.jti)) return 'revoked';
      return { username: payload.sub, jti: payload.jti, expiresAt: new Date(payload.exp * 1000) };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return 'expired';
      if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'bad-signature';
      return 'malformed';
    }
  }

  revoke(jti: string, expiresAt: Date): void {
    this.revoked.set(jti, expiresAt.getTime());
    this.prune();
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [jti, until] of this.revoked) if (until < now) this.revoked.delete(jti);
  }
}
