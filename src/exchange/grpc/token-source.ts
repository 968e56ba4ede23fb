/**
 * Adapts a family A token manager (src/exchange/familya TokenManager: a cached token renewed before expiry,
 * `invalidate(rejected)` after a 401) to the gRPC client's `getToken(forceRefresh?)`: a forced refresh
 * drops the token the server refused (unless a concurrent caller already replaced it) and gets a new one.
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
  return async (forceRefresh = false) => {
    if (forceRefresh) manager.invalidate(last);
    last = await manager.getToken();
    return last;
  };
}
