/**
 * The Venue port over the trading gateway client (family B): order entry through the gateway's REST
 * commands, order updates and market data through its NDJSON streams (or, per config, through another
 * transport's streams with the same event types), reconciliation through one lookup of open orders,
 * positions and balances, and single orders found with search_orders (journal recovery). Instruments come
 * from the catalog the client was built with. Requests become the client's inputs in order-input.ts.
 */
import type { Observable } from 'rxjs';
import type { Instrument, Order, Position, Balance } from '../../domain/index.ts';
import type { GatewayClient } from '../../exchange/gateway/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderRequest,
  VenueOrderQuery,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../../engine/venue.ts';
import { lookupOrderBySearch } from './order-search-lookup.ts';
import { toOrderInput, toReplaceInput } from './order-input.ts';
import { crossTypeOf } from './cross-type.ts';

export interface GatewayVenueOptions {
  client: GatewayClient;
  /** Reference data for the traded symbols (the gateway has no refdata endpoint; it comes from config or family A). */
  instruments: readonly Instrument[];
  /** Streams from another transport (e.g. gRPC) with the same event types; default: the gateway's NDJSON. */
  marketData?: (symbols: readonly string[]) => Observable<MarketDataEvent>;
  orderUpdates?: (accounts: readonly string[]) => Observable<OrderStreamEvent>;
  depth?: number;
}

export class GatewayVenue implements Venue {
  readonly name = 'gateway';

  constructor(private readonly options: GatewayVenueOptions) {}

  async instruments(symbols: readonly string[]): Promise<readonly Instrument[]> {
    return this.options.instruments.filter((i) => symbols.includes(i.symbol));
  }

  marketData(symbols: readonly string[]): Observable<MarketDataEvent> {
    if (this.options.marketData) return this.options.marketData(symbols);
    return this.options.client.marketData$({ symbols: [...symbols], depth: this.options.depth ?? 10 });
  }

  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent> {
    if (this.options.orderUpdates) return this.options.orderUpdates(accounts);
    return this.options.client.orderUpdates$({ accounts: [...accounts] });
  }

  async insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    const { client } = this.options;
    if (requests.length === 1 && requests[0] !== undefined) {
      const result = await client.insertOrder(toOrderInput(requests[0]));
      return [result.orderId];
    }
    const result = await client.insertOrderList(requests.map(toOrderInput));
    return result.responses.map((r) => r.orderId);
  }

  async cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    const { client } = this.options;
    if (requests.length === 1 && requests[0] !== undefined)
      return client.cancelOrder({ orderId: requests[0].orderId, symbol: requests[0].symbol });
    return client.cancelOrderList(requests.map((r) => ({ orderId: r.orderId, symbol: r.symbol })));
  }

  async replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    const inputs = requests.map(toReplaceInput);
    if (inputs.length === 1 && inputs[0] !== undefined) await this.options.client.cancelReplaceOrder(inputs[0]);
    else await this.options.client.cancelReplaceOrderList(inputs);
  }

  async cross(request: VenueCrossRequest): Promise<readonly string[]> {
    const result = await this.options.client.insertOrderCross({
      crossId: request.crossId,
      crossType: crossTypeOf(request),
      requests: [toOrderInput(request.buy), toOrderInput(request.sell)],
    });
    return result.responses.map((r) => r.orderId);
  }

  async snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    const { client } = this.options;
    const openOrders = await client.getOpenOrders({ accounts: [...accounts] });
    const positions: Position[] = [];
    const balances: Balance[] = [];
    for (const account of accounts) {
      positions.push(...(await client.listAccountPositions({ name: account })).positions);
      balances.push(await client.getAccountBalance({ name: account }));
    }
    return { openOrders, positions, balances };
  }

  lookupOrder(query: VenueOrderQuery): Promise<Order | undefined> {
    return lookupOrderBySearch((filter) => this.options.client.searchOrders(filter), query);
  }

  async close(): Promise<void> {
    await this.options.client.close();
  }
}
