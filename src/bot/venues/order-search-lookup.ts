/**
 * A single order looked up through an exchange's order search (the gateway's search_orders, family A's
 * `/v1/report/orders/search`; both take the same filter): by order id when the bot has one, else by clordId,
 * in the order's account and symbol. Open or finished, the exchange's current view of it; undefined when the
 * search has no such order.
 */
import type { Order } from '../../domain/index.ts';
import type { VenueOrderQuery } from '../../engine/venue.ts';

/** The part of an order search both clients share. */
export type OrderSearch = (filter: {
  accounts: string[];
  symbol: string;
  orderId?: string;
  clordId?: string;
  pageSize: number;
}) => Promise<{ readonly orders: readonly Order[] }>;

export async function lookupOrderBySearch(search: OrderSearch, query: VenueOrderQuery): Promise<Order | undefined> {
  const byId = query.orderId !== undefined && query.orderId !== '';
  const page = await search({
    accounts: [query.account],
    symbol: query.symbol,
    ...(byId ? { orderId: query.orderId } : { clordId: query.clordId }),
    pageSize: 10,
  });
  return page.orders.find((o) => (byId ? o.id === query.orderId : o.clordId === query.clordId));
}
