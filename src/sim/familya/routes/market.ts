/**
 * Family A market data: `GET /v1/orderbook/{symbol}` (aggregated levels up to `depth`, default 3, max 10,
 * with state and session stats) and `GET /v1/orderbook/{symbol}/bbo` (best bid and offer; an empty side is
 * omitted). An unknown symbol is 404 NOT_FOUND; a depth outside 1..10 is 400.
 */
import { Decimal } from '../../../domain/decimal.ts';
import { familyA } from '../../../domain/wire/families.ts';
import { ORDERBOOK_DEPTH_DEFAULT, ORDERBOOK_DEPTH_MAX } from '../../../domain/limits.ts';
import { invalidArgument, notFound } from '../../http/errors.ts';
import type { ExchangeCore } from '../../exchange/exchange-core.ts';
import { marketSnapshot } from '../../exchange/market-view.ts';
import { queryInt, type ApiRoutes } from '../api-routes.ts';

export function registerMarketRoutes(routes: ApiRoutes, core: ExchangeCore): void {
  const instrumentOf = (symbol: string) => {
    const instrument = core.instrument(symbol);
    if (instrument === undefined) throw notFound(`unknown symbol ${symbol}`);
    return instrument;
  };

  routes.add('GET /v1/orderbook/:symbol', 'ignored', (context) => {
    const symbol = context.params['symbol'] ?? '';
    const instrument = instrumentOf(symbol);
    const depth = queryInt(context.query, 'depth', ORDERBOOK_DEPTH_DEFAULT);
    if (depth > ORDERBOOK_DEPTH_MAX) throw invalidArgument(`depth ${depth} is above the maximum ${ORDERBOOK_DEPTH_MAX}`);
    const book = marketSnapshot(core, symbol, depth === 0 ? ORDERBOOK_DEPTH_DEFAULT : depth);
    if (book === undefined) throw notFound(`unknown symbol ${symbol}`);
    return { body: familyA.orderBook.encode(book, instrument.scales) };
  });

  routes.add('GET /v1/orderbook/:symbol/bbo', 'ignored', (context) => {
    const symbol = context.params['symbol'] ?? '';
    const instrument = instrumentOf(symbol);
    const { priceScale, qtyScale } = instrument.scales;
    const bbo = core.engine.bbo(symbol);
    const level = (l: { price: number; qty: number } | undefined) =>
      l === undefined ? undefined : { px: new Decimal(l.price).div(priceScale), qty: new Decimal(l.qty).div(qtyScale) };
    const body = familyA.bestBidOffer.encode(
      { symbol, bid: level(bbo.bid), offer: level(bbo.offer), state: core.instrumentState(symbol), transactTime: core.clock.now() },
      instrument.scales,
    );
    return { body };
  });
}
