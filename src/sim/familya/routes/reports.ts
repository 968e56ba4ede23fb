/**
 * Family A reports: `POST /v1/report/trades/search` and `POST /v1/report/orders/search` (paged, over the
 * accounts the caller may see: the firm's, or one participant's with `x-participant-id`), and
 * `POST /v1/report/trades/stats` (market-wide statistics of one symbol with `bars`). The same searches as
 * the gateway's, over the same exchange.
 */
import { familyA } from '../../../domain/wire/families.ts';
import type { Order } from '../../../domain/types/order.ts';
import { invalidArgument } from '../../http/errors.ts';
import type { ExchangeCore, OrderRecord } from '../../exchange/exchange-core.ts';
import { toDomainOrder } from '../../exchange/to-domain.ts';
import { searchTradesPage } from '../../gateway/lookup-routes.ts';
import { orderMatches, pageByPosition } from '../../exchange/searches.ts';
import { scaleLookup } from '../../gateway/wire.ts';
import { accountsFor } from '../guard.ts';
import { decodeA, type ApiRoutes } from '../api-routes.ts';
import { tradeStats } from '../trade-stats.ts';

export interface ReportSettings {
  maxPageSize: () => number;
}

export function domainOrderOf(core: ExchangeCore, record: OrderRecord): Order | undefined {
  const scales = core.instrument(record.latest.order.symbol)?.scales;
  return scales === undefined
    ? undefined
    : toDomainOrder(record.latest, scales, {
        fills: record.fills,
        lastTradeId: record.lastTradeId,
        lastTransactTime: record.lastTransactTime,
      });
}

export function registerReportRoutes(routes: ApiRoutes, core: ExchangeCore, settings: ReportSettings): void {
  const scales = scaleLookup(core);

  routes.add('POST /v1/report/trades/search', 'optional', async (context, caller) => {
    const request = await decodeA(context, familyA.searchTradesRequest, core);
    const { items, next } = searchTradesPage(core, caller.trading, accountsFor(caller, request.accounts), request, settings.maxPageSize());
    return { body: familyA.searchTradesResponse.encode({ trades: items, nextPageToken: next }, scales) };
  });

  routes.add('POST /v1/report/orders/search', 'optional', async (context, caller) => {
    const request = await decodeA(context, familyA.searchOrdersRequest, core);
    const accounts = accountsFor(caller, request.accounts);
    const { items: records, next } = pageByPosition(
      orderMatches(core, accounts, request),
      request.pageSize,
      request.pageToken,
      settings.maxPageSize(),
    );
    const items = records.flatMap((record) => domainOrderOf(core, record) ?? []);
    return { body: familyA.searchOrdersResponse.encode({ orders: items, nextPageToken: next }, scales) };
  });

  routes.add('POST /v1/report/trades/stats', 'ignored', async (context) => {
    const request = await decodeA(context, familyA.tradeStatsRequest, core);
    if (request.symbol === '') throw invalidArgument('symbol is required');
    const instrument = core.instrument(request.symbol);
    if (instrument === undefined) throw invalidArgument(`unknown symbol ${request.symbol}`);
    const result = tradeStats(core.trades(), request, instrument.scales, core.clock.now());
    return { body: familyA.tradeStatsResult.encode(result, instrument.scales) };
  });
}
