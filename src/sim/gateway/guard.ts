/**
 * Authentication and rate limiting for the simulator's gateway trading endpoints. The `Authorization`
 * header carries the bare access token (a `Bearer ` prefix is refused, as the real gateway does); expired,
 * revoked or malformed tokens are 401. Each firm gets a token bucket (default 100 requests/s); beyond it
 * the answer is 429 RESOURCE_EXHAUSTED.
 */
import type { RequestContext } from '../http/router.ts';
import { SimHttpError, unauthenticated } from '../http/errors.ts';
import type { TokenService } from './token-service.ts';
import type { SimUser, UserStore } from './user-store.ts';

export async function authenticateGateway(context: RequestContext, tokens: TokenService, users: UserStore): Promise<SimUser> {
  const header = context.headers.authorization;
  if (header === undefined || header === '') throw unauthenticated('missing Authorization header: send the access token from login');
  if (/^bearer\s/i.test(header))
    throw unauthenticated('the gateway takes the bare access token in Authorization, without a "Bearer " prefix');
  const verified = await tokens.verify(header, 'access');
  if (typeof verified === 'string') throw unauthenticated(`access token is ${verified}`);
  const user = users.get(verified.username);
  if (user === undefined) throw unauthenticated('access token names no user');
  return user;
}

/** Fixed-window-free token bucket per key (firm), refilled continuously from the injected clock. */
export class FirmRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly clock: { now(): number },
    private readonly perSecond: () => number,
  ) {}

  take(key: string): void {
    const rate = this.perSecond();
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) * rate) / 1000);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      const waitMs = Math.ceil(((1 - bucket.tokens) * 1000) / rate);
      throw new SimHttpError(
        'RESOURCE_EXHAUSTED',
        `rate limit of ${rate} requests per second for firm ${key} exceeded; retry after ${waitMs} ms`,
        {
          'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
        },
      );
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
  }
}
