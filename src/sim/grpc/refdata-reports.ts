/**
 * RefDataAPI.ListInstruments and ReportAPI.SearchTrades in the simulator: instruments (optionally by
 * symbol; page size default 50, at most 1000) and the caller's trades with the gateway's search filters
 * and paging (opaque offset tokens, page size at most `maxPageSize`).
 */
import { INSTRUMENTS_PAGE_SIZE_DEFAULT, INSTRUMENTS_PAGE_SIZE_MAX } from '../../domain/limits.ts';
import { grpcCodecs } from '../../exchange/grpc/protocol/index.ts';
import { toDomainInstrument } from '../exchange/instruments.ts';
import { page, searchTradesPage } from '../gateway/lookup-routes.ts';
import type { UnaryHandler } from './calls.ts';
import { type ServiceContext, accountsFor } from './context.ts';

export function refDataHandlers(ctx: ServiceContext): Record<'ListInstruments', UnaryHandler> {
  const { core } = ctx;
  return {
    ListInstruments(raw) {
      const request = grpcCodecs.listInstrumentsRequest.decode(raw);
      const wanted = new Set(request.symbols);
      const instruments = core
        .instruments()
        .filter((i) => wanted.size === 0 || wanted.has(i.symbol))
        .map((i) => toDomainInstrument(i, core.instrumentState(i.symbol), core.currency));
      const size = request.pageSize <= 0 ? INSTRUMENTS_PAGE_SIZE_DEFAULT : request.pageSize;
      const { items, next } = page(instruments, size, request.pageToken, INSTRUMENTS_PAGE_SIZE_MAX);
      return grpcCodecs.listInstrumentsResponse.encode({ instruments: items, nextPageToken: next });
    },
  };
}

export function reportHandlers(ctx: ServiceContext): Record<'SearchTrades', UnaryHandler> {
  const { core, scales } = ctx;
  return {
    SearchTrades(raw, caller) {
      const request = grpcCodecs.searchTradesRequest.decode(raw);
      const { items, next } = searchTradesPage(core, caller, accountsFor(caller, request.accounts), request, ctx.maxPageSize);
      return grpcCodecs.searchTradesResponse.encode({ trades: items, nextPageToken: next }, scales);
    },
  };
}
