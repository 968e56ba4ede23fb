/**
 * The simulator's gateway tokens: access, refresh and registration JWTs (HS256, signed with the sim's
 * secret), each with `sub` (username), `typ`, `jti`, `iat` and `exp`; the tokens of one login session also
 * carry its `sid`. Revocation is by `jti` (one token) or by `sid` (every token of a session: logout, or a
 * spent refresh token presented again). Refresh tokens are single-use (`redeemRefresh`): a refresh spends the
 * token it presents, and presenting a spent one revokes its whole session (a stolen copy in use). A revoked,
 * expired, wrongly typed or malformed token fails verification with a reason. Time comes from the injected
 * clock, so tests can make tokens expire without waiting.
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
  /** The login session the token belongs to ('' for a token issued outside one). */
  sid: string;
}

export type TokenFailure = 'malformed' | 'expired' | 'revoked' | 'wrong-type' | 'bad-signature';

export class TokenService {
  private readonly key: Uint8Array;
  private readonly revoked = new Map<string, number>();
  /** Sessions revoked whole, until the end of their refresh token's life. */
  private readonly revokedSessions = new Map<string, number>();
  /** Refresh tokens already redeemed: jti -> their session and expiry. */
  private readonly spent = new Map<string, { sid: string; until: number }>();

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
      const sid = typeof payload['sid'] === 'string' ? payload['sid'] : '';
      if (this.revoked.has(payload.jti) || (sid !== '' && this.revokedSessions.has(sid))) return 'revoked';
      return { username: payload.sub, jti: payload.jti, expiresAt: new Date(payload.exp * 1000), sid };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return 'expired';
      if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'bad-signature';
      return 'malformed';
    }
  }

  /**
   * Verifies a refresh token and spends it: the first redemption returns the token; a later one of the same
   * token returns 'reused' after revoking its whole session (the holder of a copy and the legitimate client
   * both lose it and log in again).
   */
  async redeemRefresh(token: string): Promise<VerifiedToken | TokenFailure | 'reused'> {
    const verified = await this.verify(token, 'refresh');
    if (typeof verified === 'string') return verified;
    const spent = this.spent.get(verified.jti);
    if (spent !== undefined) {
      if (spent.sid !== '') this.revokeSession(spent.sid, new Date(spent.until));
      this.revoke(verified.jti, verified.expiresAt);
      return 'reused';
    }
    this.spent.set(verified.jti, { sid: verified.sid, until: verified.expiresAt.getTime() });
    this.prune();
    return verified;
  }

  revoke(jti: string, expiresAt: Date): void {
    this.revoked.set(jti, expiresAt.getTime());
    this.prune();
  }

  /** Revokes every token of a login session (kept until `until`, past which its tokens have expired anyway). */
  revokeSession(sid: string, until: Date): void {
    const kept = this.revokedSessions.get(sid) ?? 0;
    this.revokedSessions.set(sid, Math.max(kept, until.getTime()));
    this.prune();
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [jti, until] of this.revoked) if (until < now) this.revoked.delete(jti);
    for (const [sid, until] of this.revokedSessions) if (until < now) this.revokedSessions.delete(sid);
    for (const [jti, entry] of this.spent) if (entry.until < now) this.spent.delete(jti);
  }
}
