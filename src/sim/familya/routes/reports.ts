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
import { page, searchTradesFor } from '../../gateway/lookup-routes.ts';
import { scaleLookup } from '../../gateway/wire.ts';
import { accountsFor } from '../guard.ts';
import { decodeA, type ApiRoutes } from '../api-routes.ts';
import { tradeStats } from '../trade-stats.ts';

export interface ReportSettings {
  maxPageSize: () => number;
}

export function domainOrderOf(core: ExchangeCore, record: OrderRecord): Order | undefined {
  const scales = core.instrument(record.latest.order.symbol)?.scales;
  return scales === undefined ? undefined : toDomainOrder(record.latest, scales, { fills: record.fills, lastTradeId: record.lastTradeId, lastTransactTime: record.lastTransactTime });
}

export function registerReportRoutes(routes: ApiRoutes, core: ExchangeCore, settings: ReportSettings): void {
  const scales = scaleLookup(core);

  routes.add('POST /v1/report/trades/search', 'optional', async (context, caller) => {
    const request = await decodeA(context, familyA.searchTradesRequest, core);
    if (request.states.includes('TRADE_STATE_UNDEFINED')) throw invalidArgument('states: TRADE_STATE_UNDEFINED is not a searchable state');
    const trades = searchTradesFor(core, accountsFor(caller, request.accounts), request);
    const { items, next } = page(trades, request.pageSize, request.pageToken, settings.maxPageSize());
    return { body: familyA.searchTradesResponse.encode({ trades: items, nextPageToken: next }, scales) };
  });

  routes.add('POST /v1/report/orders/search', 'optional', async (context, caller) => {
    const request = await decodeA(context, familyA.searchOrdersRequest, core);
    const accounts = accountsFor(caller, request.accounts);
    const matches: Order[] = [];
    for (const record of core.allOrders()) {
      const terms = record.latest.order;
      if (!accounts.includes(terms.account)) continue;
      if (request.symbol !== '' && terms.symbol !== request.symbol) continue;
      if (request.orderId !== '' && terms.orderId !== request.orderId) continue;
      if (request.clordId !== '' && terms.clordId !== request.clordId) continue;
      if (request.startTime !== undefined && terms.insertTime < request.startTime) continue;
      if (request.endTime !== undefined && terms.insertTime >= request.endTime) continue;
      if (request.states.length > 0 && !request.states.includes(record.latest.state)) continue;
      const order = domainOrderOf(core, record);
      if (order !== undefined) matches.push(order);
    }
    const { items, next } = page(matches, request.pageSize, request.pageToken, settings.maxPageSize());
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
