/**
 * Adapts a family A token manager (src/exchange/familya TokenManager: a cached token renewed before expiry,
 * `invalidate(rejected)` after a 401) to the gRPC client's `getToken(forceRefresh?, rejected?)`: a forced
 * refresh drops the token the server refused (the caller's `rejected`, else the last one handed out) unless
 * a concurrent caller already replaced it, and gets the current one. So several streams refused with the
 * same expired token renew it once, and a late refusal never throws away the token another stream renewed.
 *
 *   new GrpcExchangeClient({ address, getToken: tokenSourceOf(stack.tokens), instruments });
 */
import type { TokenSource } from './stream-runner.ts';

export interface TokenManagerLike {
  getToken(): Promise<string>;
  invalidate(rejected?: string): void;
}

export function tokenSourceOf(manager: TokenManagerLike): TokenSource {
  let last: string | undefined;
  return async (forceRefresh = false, rejected?: string) => {
    if (forceRefresh) manager.invalidate(rejected ?? last);
    last = await manager.getToken();
    return last;
  };
}
