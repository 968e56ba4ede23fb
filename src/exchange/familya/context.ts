/**
 * What the family A endpoint modules share: the caller (auth, headers, errors), the instrument resolver
 * (scales, loaded on demand), and small helpers to decode a response once the scales of every symbol it
 * names are known. Also the pager that walks `nextPageToken`.
 */
import type { ScaleSource, WireCodec } from '../../domain/index.ts';
import type { FamilyACaller } from './call.ts';
import { decodeBody } from './call.ts';
import { FamilyAError, FamilyAErrorCode } from './errors.ts';
import { collectSymbols } from './instruments.ts';
import type { InstrumentResolver } from './instruments.ts';

export interface ApiContext {
  readonly caller: FamilyACaller;
  readonly instruments: InstrumentResolver;
}

/** Decodes `body` after loading the scales of every symbol it names (when the catalog can learn). */
export async function decodeWithScales<T>(
  ctx: ApiContext,
  operation: string,
  codec: WireCodec<T>,
  body: unknown,
  scales?: ScaleSource,
): Promise<T> {
  if (scales === undefined) await ctx.instruments.ensure(collectSymbols(body));
  return decodeBody(operation, () => codec.decode(body, scales ?? ctx.instruments.scaleSource));
}

/** The response body as a plain object, or FAMILY_A_BAD_RESPONSE. */
export function objectBody(operation: string, body: unknown): Readonly<Record<string, unknown>> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Readonly<Record<string, unknown>>;
  throw new FamilyAError(FamilyAErrorCode.BadResponse, `${operation}: unexpected response from the exchange: expected a JSON object`, {
    details: { operation },
  });
}

/**
 * Every page of a paged call, following `nextPageToken` until it is empty. A token the server already
 * gave is a server bug that would loop forever: FAMILY_A_BAD_RESPONSE.
 */
export async function* pages<R extends { readonly nextPageToken: string }>(
  operation: string,
  firstToken: string,
  fetch: (pageToken: string) => Promise<R>,
): AsyncGenerator<R, void, undefined> {
  const seen = new Set<string>();
  let token = firstToken;
  for (;;) {
    const page = await fetch(token);
    yield page;
    if (page.nextPageToken === '') return;
    if (seen.has(page.nextPageToken) || page.nextPageToken === token) {
      throw new FamilyAError(
        FamilyAErrorCode.BadResponse,
        `${operation}: the exchange returned a page token it already gave; stopping to avoid a loop`,
        {
          details: { operation },
        },
      );
    }
    seen.add(token);
    token = page.nextPageToken;
  }
}
