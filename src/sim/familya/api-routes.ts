/**
 * Registers /v1 handlers behind the guard: a route is named by its key in the scope table
 * (`'GET /v1/orderbook/:symbol'`), so every endpoint gets exactly its scope, and the handler receives the
 * authorized caller. Also the shared helpers of the route modules: body decoding with the family A
 * (camelCase) codecs and query parameter parsing, both failing with 400.
 */
import type { Reply, RequestContext, Router } from '../http/router.ts';
import { invalidArgument } from '../http/errors.ts';
import type { WireCodec } from '../../domain/wire/families.ts';
import { isTradebotError } from '../../errors.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import { scaleLookup } from '../gateway/wire.ts';
import { authorize, type ApiCaller, type GuardDeps, type ParticipantRule } from './guard.ts';
import { ENDPOINT_SCOPES, type Endpoint } from './scopes.ts';

export type ApiHandler = (context: RequestContext, caller: ApiCaller) => Reply | Promise<Reply>;

export class ApiRoutes {
  constructor(
    private readonly router: Router,
    private readonly guard: GuardDeps,
  ) {}

  add(endpoint: Endpoint, participant: ParticipantRule, handler: ApiHandler): this {
    const [method = '', path = ''] = endpoint.split(' ');
    const scope = ENDPOINT_SCOPES[endpoint];
    this.router.add(method, path, async (context) => handler(context, await authorize(context, this.guard, scope, participant)));
    return this;
  }
}

/**
 * Decodes a camelCase body with a family A codec (scales from the core's instruments); `prepare` may
 * complete the raw body first (e.g. a replace's symbol from its order). Failures are 400 naming the field.
 */
export async function decodeA<T>(
  context: RequestContext,
  codec: WireCodec<T>,
  core: ExchangeCore,
  prepare?: (body: Record<string, unknown>) => unknown,
): Promise<T> {
  const body = await context.body();
  try {
    return codec.decode(prepare === undefined ? body : prepare(body), scaleLookup(core));
  } catch (error) {
    if (isTradebotError(error))
      throw invalidArgument(error.code === 'SCALE_UNKNOWN_SYMBOL' ? `unknown symbol: ${error.message}` : error.message);
    throw error;
  }
}

/** Every value of a repeated query parameter, under any of `names` (`symbols=A&symbols=B`, `symbol=A`). */
export function queryList(query: URLSearchParams, ...names: string[]): string[] {
  return names
    .flatMap((name) => query.getAll(name))
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function queryString(query: URLSearchParams, name: string): string {
  return query.get(name)?.trim() ?? '';
}

/** An optional non-negative integer query parameter; `fallback` when absent. */
export function queryInt(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null || text.trim() === '') return fallback;
  if (!/^\d{1,9}$/.test(text.trim())) throw invalidArgument(`${name} must be a non-negative whole number, got ${JSON.stringify(text)}`);
  return Number(text.trim());
}
