/**
 * The Venue port over the family A client: order entry through `/v1/trading/*`, reconciliation through
 * `/v1/trading/open-orders`, `/v1/positions` and `/v1/positions/balances`, reference data from
 * `/v1/refdata/instruments`, single orders (orders closed while the order stream was down) through
 * `/v1/report/orders/search`. Family A has no REST streams, so market data and order updates come from the
 * exchange's gRPC streams (same event types as every other transport). `/v1` has no cross endpoint: a
 * cross intent is refused with a typed error (use the gateway venue for crosses).
 */
import type { Observable } from 'rxjs';
import type { FamilyAClient } from '../../exchange/familya/index.ts';
import { TradebotError } from '../../errors.ts';
import type { Instrument, Order } from '../../domain/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueOrderQuery,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../../engine/venue.ts';
import { lookupOrderBySearch } from './order-search-lookup.ts';
import { toOrderInput, toReplaceInput } from './order-input.ts';

export interface FamilyAVenueOptions {
  client: FamilyAClient;
  /** Streams from the gRPC client (or any transport with the shared event types). */
  marketData: (symbols: readonly string[]) => Observable<MarketDataEvent>;
  orderUpdates: (accounts: readonly string[]) => Observable<OrderStreamEvent>;
}

export class FamilyAVenue implements Venue {
  readonly name = 'familyA';
  /** /v1 has no cross endpoint: risk refuses crosses (RISK_CROSS_UNSUPPORTED) before anything is sent. */
  readonly canCross = false;

  constructor(private readonly options: FamilyAVenueOptions) {}

  async instruments(symbols: readonly string[]): Promise<readonly Instrument[]> {
    return this.options.client.loadInstruments(symbols);
  }

  marketData(symbols: readonly string[]): Observable<MarketDataEvent> {
    return this.options.marketData(symbols);
  }

  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent> {
    return this.options.orderUpdates(accounts);
  }

  /** `/v1` has no list insert: the orders go one by one, in order (each carries its clord_id). */
  async insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    const ids: string[] = [];
    for (const request of requests) ids.push((await this.options.client.insertOrder(toOrderInput(request))).orderId);
    return ids;
  }

  async cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    const inputs = requests.map((r) => ({ orderId: r.orderId, symbol: r.symbol, clordId: r.clordId }));
    if (inputs.length === 1 && inputs[0] !== undefined) await this.options.client.cancelOrder(inputs[0]);
    else await this.options.client.cancelOrderList(inputs);
  }

  async replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    const inputs = requests.map(toReplaceInput);
    if (inputs.length === 1 && inputs[0] !== undefined) await this.options.client.replaceOrder(inputs[0]);
    else await this.options.client.replaceOrderList(inputs);
  }

  async cross(): Promise<readonly string[]> {
    throw new TradebotError(
      'VENUE_CROSS_UNSUPPORTED',
      'the family A /v1 API has no cross endpoint; run crosses through the gateway venue',
      { kind: 'rejection' },
    );
  }

  async snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    const { client } = this.options;
    const openOrders = await client.openOrders({ accounts: [...accounts] });
    const positions = (await client.positions({ accounts: [...accounts] })).positions;
    const balances = await client.balances(accounts);
    return { openOrders, positions, balances };
  }

  /** One order, open or finished, by order id (else clordId): `/v1/report/orders/search`. */
  lookupOrder(query: VenueOrderQuery): Promise<Order | undefined> {
    return lookupOrderBySearch((filter) => this.options.client.searchOrders(filter), query);
  }

  async close(): Promise<void> {
    await this.options.client.close();
  }
}
