/**
 * Family A reference data: `POST /v1/refdata/symbols` -> `{symbols}`, `POST /v1/refdata/instruments`
 * `{symbols?, pageSize?, pageToken?}` (pageSize default 50, max 1000) -> `{instruments, nextPageToken}`,
 * and `POST /v1/refdata/metadata` `{symbols?}` -> `{metadata: [{symbol, description, eventId,
 * eventDescription, currency, state, expirationTime?, settlementTime?}]}` (our shape: the spec shows none).
 * Naming an unknown symbol is 400.
 */
import { z } from 'zod';
import { familyA } from '../../../domain/wire/families.ts';
import { INSTRUMENTS_PAGE_SIZE_DEFAULT, INSTRUMENTS_PAGE_SIZE_MAX } from '../../../domain/limits.ts';
import { formatTimestamp } from '../../../domain/time.ts';
import { invalidArgument } from '../../http/errors.ts';
import type { ExchangeCore } from '../../exchange/exchange-core.ts';
import { toDomainInstrument, type SimInstrument } from '../../exchange/instruments.ts';
import { page } from '../../gateway/lookup-routes.ts';
import { decodeA, type ApiRoutes } from '../api-routes.ts';
import { parseBody } from '../body.ts';

const metadataRequest = z.object({
  symbols: z.array(z.string({ error: 'symbols must be strings' }), { error: 'symbols must be a list' }).default([]),
});

export function registerRefdataRoutes(routes: ApiRoutes, core: ExchangeCore): void {
  const select = (symbols: readonly string[]): SimInstrument[] => {
    if (symbols.length === 0) return core.instruments();
    return symbols.map((symbol) => {
      const instrument = core.instrument(symbol);
      if (instrument === undefined) throw invalidArgument(`unknown symbol ${symbol}`);
      return instrument;
    });
  };
  const domain = (instrument: SimInstrument) => toDomainInstrument(instrument, core.instrumentState(instrument.symbol), core.currency);

  routes.add('POST /v1/refdata/symbols', 'ignored', () => ({
    body: familyA.listSymbolsResponse.encode({ symbols: core.instruments().map((i) => i.symbol) }),
  }));

  routes.add('POST /v1/refdata/instruments', 'ignored', async (context) => {
    const request = await decodeA(context, familyA.listInstrumentsRequest, core);
    const pageSize = request.pageSize <= 0 ? INSTRUMENTS_PAGE_SIZE_DEFAULT : request.pageSize;
    const { items, next } = page(select(request.symbols), pageSize, request.pageToken, INSTRUMENTS_PAGE_SIZE_MAX);
    return { body: familyA.listInstrumentsResponse.encode({ instruments: items.map(domain), nextPageToken: next }) };
  });

  routes.add('POST /v1/refdata/metadata', 'ignored', async (context) => {
    const request = await parseBody(context, metadataRequest);
    const metadata = select(request.symbols).map((instrument) => {
      const i = domain(instrument);
      return {
        symbol: i.symbol,
        description: i.description,
        eventId: i.eventId,
        eventDescription: i.eventDescription,
        currency: i.currency,
        state: i.state,
        ...(i.expirationTime === undefined ? {} : { expirationTime: formatTimestamp(i.expirationTime) }),
        ...(i.settlementTime === undefined ? {} : { settlementTime: formatTimestamp(i.settlementTime) }),
      };
    });
    return { body: { metadata } };
  });
}
