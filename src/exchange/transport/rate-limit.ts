/**
 * Rate-limit wrapper: a Transport whose calls first take a token from a TokenBucket (queued FIFO, never
 * refused while the queue has room). Put it inside the retry wrapper, `withRetry(withRateLimit(http))`,
 * so every retry attempt also takes a token. Pass a shared TokenBucket to limit several transports together.
 */
import { TokenBucket } from './token-bucket.ts';
import type { TokenBucketOptions } from './token-bucket.ts';
import type { HttpRequest, HttpResponse, Transport } from './http-types.ts';

/** Wraps `transport` so each call waits for a token; `close()` rejects queued calls and closes the transport. */
export function withRateLimit(transport: Transport, limiter: TokenBucket | TokenBucketOptions = {}): Transport {
  const bucket = limiter instanceof TokenBucket ? limiter : new TokenBucket(limiter);
  const ownsBucket = !(limiter instanceof TokenBucket);
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      await bucket.acquire(req.signal);
      return transport.request(req);
    },
    async close(): Promise<void> {
      if (ownsBucket) bucket.close();
      await transport.close();
    },
  };
}
