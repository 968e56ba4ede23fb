/**
 * Family A reference data: symbols, instruments (paged, page size at most 1000) and free-form metadata.
 * Every instrument listed is added to the client's catalog (when it can learn), so later calls can price
 * the symbols; `loadInstruments` fills the catalog with everything (or a set of symbols) in one go.
 */
import { INSTRUMENTS_PAGE_SIZE_MAX, familyA } from '../../domain/index.ts';
import type { Instrument, ListInstrumentsResponse } from '../../domain/index.ts';
import type { RequestOptions } from './call.ts';
import { decodeBody } from './call.ts';
import { objectBody, pages } from './context.ts';
import type { ApiContext } from './context.ts';
import { limitExceeded } from './errors.ts';
import { familyAExtra } from './extra-resources.ts';
import { listInstrumentsRequest } from './inputs.ts';
import type { ListInstrumentsInput } from './inputs.ts';

const opts = (options: RequestOptions | undefined) => (options === undefined ? {} : { options });

/** POST /v1/refdata/symbols -> every tradable symbol. */
export async function refdataSymbols(ctx: ApiContext, options?: RequestOptions): Promise<readonly string[]> {
  const answer = await ctx.caller.call('refdataSymbols', { body: {}, ...opts(options) });
  return decodeBody('refdataSymbols', () => familyA.listSymbolsResponse.decode(answer)).symbols;
}

/** POST /v1/refdata/instruments: one page (`pageSize` 1..1000, server default 50). */
export async function refdataInstruments(
  ctx: ApiContext,
  input: ListInstrumentsInput = {},
  options?: RequestOptions,
): Promise<ListInstrumentsResponse> {
  const request = listInstrumentsRequest(input);
  if (request.pageSize > INSTRUMENTS_PAGE_SIZE_MAX)
    throw limitExceeded('refdataInstruments', 'instruments per page', request.pageSize, INSTRUMENTS_PAGE_SIZE_MAX);
  const answer = await ctx.caller.call('refdataInstruments', { body: familyA.listInstrumentsRequest.encode(request), ...opts(options) });
  const page = decodeBody('refdataInstruments', () => familyA.listInstrumentsResponse.decode(answer));
  ctx.instruments.learn(page.instruments);
  return page;
}

/** Every page of an instrument listing. */
export function refdataInstrumentPages(
  ctx: ApiContext,
  input: ListInstrumentsInput = {},
  options?: RequestOptions,
): AsyncGenerator<ListInstrumentsResponse, void, undefined> {
  return pages('refdataInstruments', input.pageToken ?? '', (pageToken) => refdataInstruments(ctx, { ...input, pageToken }, options));
}

/** Every instrument (or those of `symbols`), in pages of 1000; all are added to the catalog. */
export async function loadInstruments(ctx: ApiContext, symbols: readonly string[] = [], options?: RequestOptions): Promise<Instrument[]> {
  const out: Instrument[] = [];
  for await (const page of refdataInstrumentPages(ctx, { symbols, pageSize: INSTRUMENTS_PAGE_SIZE_MAX }, options))
    out.push(...page.instruments);
  return out;
}

/** POST /v1/refdata/metadata `{symbols}` -> the metadata object as sent (its shape is not specified). */
export async function refdataMetadata(
  ctx: ApiContext,
  symbols: readonly string[] = [],
  options?: RequestOptions,
): Promise<Readonly<Record<string, unknown>>> {
  const answer = await ctx.caller.call('refdataMetadata', { body: familyAExtra.metadataRequest.encode({ symbols }), ...opts(options) });
  return objectBody('refdataMetadata', answer);
}
