/**
 * Authenticated trading calls (`/api/v1beta1/*`): each call carries the session's bare access token in
 * `Authorization` (no `Bearer ` prefix: the gateway refuses one). When the gateway answers 401, the token
 * provider renews the token once (refresh, or a new login) and the call is sent once more; a second 401 is
 * GATEWAY_AUTH_FAILED. Re-sending after a 401 is safe for every call: the gateway did not process it.
 */
import type { Transport } from '../transport/index.ts';
import { postGateway } from './call.ts';
import type { CallOptions } from './call.ts';
import { GatewayErrorCode, isGatewayError } from './errors.ts';

/** Where access tokens come from (GatewaySession; tests may pass a fixed token). */
export interface TokenProvider {
  accessToken(): Promise<string>;
  /** After a 401 with `rejectedToken`: the token to retry with (renewed unless someone already did). */
  recoverFromUnauthorized(rejectedToken: string | undefined): Promise<string>;
}

export class AuthedCaller {
  constructor(
    readonly transport: Transport,
    readonly tokens: TokenProvider,
  ) {}

  /** POSTs to `/api/v1beta1/<name>` with the access token; retries once after a 401. */
  async call(name: string, body: unknown, options: Omit<CallOptions, 'headers'>): Promise<unknown> {
    const token = await this.tokens.accessToken();
    try {
      return await postGateway(this.transport, 'api', name, body, { ...options, headers: { authorization: token } });
    } catch (error) {
      if (!isGatewayError(error, GatewayErrorCode.AuthFailed)) throw error;
      const renewed = await this.tokens.recoverFromUnauthorized(token);
      return postGateway(this.transport, 'api', name, body, { ...options, headers: { authorization: renewed } });
    }
  }
}
