/**
 * One family A call: the composed transport (rate limit + retry) below, the endpoint table's rules above.
 * Every call but health carries `Authorization: Bearer <token>`; trading calls also carry
 * `x-participant-id`. When the API answers 401, the token is invalidated and the call is sent once more with
 * a fresh token (safe for every call: the server did not process it); a second 401 is FAMILY_A_AUTH_FAILED.
 * Failures are mapped to family A errors (errors.ts); `decodeBody` turns decode failures of a 2xx body into
 * FAMILY_A_BAD_RESPONSE naming the field.
 */
import type { HttpRequest, QueryValue, Transport } from '../transport/index.ts';
import { ENDPOINTS, endpointPath } from './endpoints.ts';
import type { EndpointName } from './endpoints.ts';
import { FamilyAError, FamilyAErrorCode, authFailed, badResponse, isUnauthorized, toFamilyAError } from './errors.ts';

/** Where access tokens come from (the TokenManager; tests may pass a fixed token). */
export interface TokenSource {
  getToken(): Promise<string>;
  /** Drops `rejected` (when still current) so the next getToken() fetches a fresh token. */
  invalidate(rejected?: string): void;
}

/** Per-call options a caller of the client may pass. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Overrides the per-call deadline (default 15 s). */
  readonly timeoutMs?: number;
}

export interface CallInput {
  /** Values for the path's `{placeholders}`. */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
  /** Overrides the endpoint's idempotency (an insert with a fixed clord_id is safe to repeat). */
  readonly idempotent?: boolean;
  readonly options?: RequestOptions;
}

export const PARTICIPANT_HEADER = 'x-participant-id';

export class FamilyACaller {
  constructor(
    private readonly transport: Transport,
    private readonly tokens: TokenSource,
    /** `firms/<firm>/users/<user>`; required for trading calls only. */
    private readonly participant: string | undefined,
  ) {}

  /** Sends the call and returns the parsed JSON body ({} for an empty one). */
  async call(name: EndpointName, input: CallInput = {}): Promise<unknown> {
    const endpoint = ENDPOINTS[name];
    if (endpoint.trading && (this.participant === undefined || this.participant === '')) {
      throw new FamilyAError(FamilyAErrorCode.InvalidOptions, `${name}: trading calls need the participant (exchange.familyA.participant)`);
    }
    const request: HttpRequest = {
      method: endpoint.method,
      path: endpointPath(endpoint, input.params),
      idempotent: input.idempotent ?? endpoint.idempotent,
      ...(input.query === undefined ? {} : { query: input.query }),
      ...(input.body === undefined ? {} : { body: input.body }),
      ...(input.options?.signal === undefined ? {} : { signal: input.options.signal }),
      ...(input.options?.timeoutMs === undefined ? {} : { timeoutMs: input.options.timeoutMs }),
    };
    if (!endpoint.authenticated) return this.send(name, request, endpoint.scope);
    const headers = (token: string): Record<string, string> => ({
      authorization: `Bearer ${token}`,
      ...(endpoint.trading ? { [PARTICIPANT_HEADER]: this.participant as string } : {}),
    });
    const token = await this.tokens.getToken();
    try {
      return await this.transport.request({ ...request, headers: headers(token) }).then((r) => r.body ?? {});
    } catch (error) {
      if (!isUnauthorized(error)) throw toFamilyAError(error, name, endpoint.scope);
      this.tokens.invalidate(token);
    }
    const fresh = await this.tokens.getToken();
    try {
      return await this.transport.request({ ...request, headers: headers(fresh) }).then((r) => r.body ?? {});
    } catch (error) {
      if (isUnauthorized(error)) {
        this.tokens.invalidate(fresh);
        throw authFailed(name, error);
      }
      throw toFamilyAError(error, name, endpoint.scope);
    }
  }

  private async send(name: EndpointName, request: HttpRequest, scope: string | undefined): Promise<unknown> {
    try {
      return (await this.transport.request(request)).body ?? {};
    } catch (error) {
      throw toFamilyAError(error, name, scope);
    }
  }
}

/** Runs a decoder over a response body; a failure becomes FAMILY_A_BAD_RESPONSE for `operation`. */
export function decodeBody<T>(operation: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    throw badResponse(operation, error);
  }
}
