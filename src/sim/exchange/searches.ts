/**
 * Order and trade searches of every door (gateway, /v1 reports, gRPC), paged by position: a page token is
 * the position of the next match (an order's sequence number, a trade's position on the tape since the
 * start), not an offset into the list of matches. The exchange prunes its oldest finished orders and trims
 * its trade tape while a caller pages through a search; positions survive that, so no match is skipped or
 * repeated (an offset would shift by what was pruned). A token is opaque to callers; one this server did not
 * issue is INVALID_ARGUMENT.
 */
import { invalidArgument } from '../http/errors.ts';
import type { Trade } from '../matching/index.ts';
import { ownedBy, tradeLinkIdSeenBy } from './trade-view.ts';
import type { ExchangeCore, OrderRecord } from './exchange-core.ts';

/** The page size asked for (0: the default, 100 or the maximum if lower); INVALID_ARGUMENT above the maximum. */
export function pageSizeOf(pageSize: number, maxPageSize: number): number {
  const size = pageSize <= 0 ? Math.min(100, maxPageSize) : pageSize;
  if (size > maxPageSize) throw invalidArgument(`page_size ${pageSize} is above the maximum ${maxPageSize}`);
  return size;
}

function startOf(pageToken: string): number {
  if (pageToken === '') return 0;
  const start = Number(pageToken);
  if (!/^(0|[1-9][0-9]*)$/.test(pageToken) || !Number.isSafeInteger(start))
    throw invalidArgument('page_token is not a token this server issued');
  return start;
}

/**
 * One page of `matches` (position order, ascending) from the position `pageToken` names: up to a page of
 * items, and the token of the page after (the next match's position; '' when there is none).
 */
export function pageByPosition<T>(
  matches: Iterable<readonly [number, T]>,
  pageSize: number,
  pageToken: string,
  maxPageSize: number,
): { items: T[]; next: string } {
  const size = pageSizeOf(pageSize, maxPageSize);
  const start = startOf(pageToken);
  const items: T[] = [];
  for (const [position, item] of matches) {
    if (position < start) continue;
    if (items.length === size) return { items, next: String(position) };
    items.push(item);
  }
  return { items, next: '' };
}

export interface OrderFilter {
  readonly symbol: string;
  readonly orderId: string;
  readonly clordId: string;
  readonly startTime: number | undefined;
  readonly endTime: number | undefined;
  readonly states: readonly string[];
}

/** The orders of `accounts` the filter matches, with their sequence numbers, oldest first. */
export function* orderMatches(
  core: ExchangeCore,
  accounts: readonly string[],
  filter: OrderFilter,
): IterableIterator<readonly [number, OrderRecord]> {
  for (const record of core.allOrders()) {
    const terms = record.latest.order;
    if (!accounts.includes(terms.account)) continue;
    if (filter.symbol !== '' && terms.symbol !== filter.symbol) continue;
    if (filter.orderId !== '' && terms.orderId !== filter.orderId) continue;
    if (filter.clordId !== '' && terms.clordId !== filter.clordId) continue;
    if (filter.startTime !== undefined && terms.insertTime < filter.startTime) continue;
    if (filter.endTime !== undefined && terms.insertTime >= filter.endTime) continue;
    if (filter.states.length > 0 && !filter.states.includes(record.latest.state)) continue;
    yield [terms.orderSeq, record];
  }
}

export interface TradeFilter {
  readonly symbol: string;
  readonly orderId: string;
  readonly tradeId: string;
  readonly execId: string;
  readonly tradeLinkId?: string | undefined;
  readonly startTime: number | undefined;
  readonly endTime: number | undefined;
  readonly states: readonly string[];
}

/**
 * The trades of `accounts` (either side) the filter matches, with their tape positions, oldest first. The
 * order id, execution id and trade link filters match only the sides of the viewer's `firm` (what it sees
 * of a trade, trade-view.ts), so a filter cannot probe the other firm's ids.
 */
export function* tradeMatches(
  core: ExchangeCore,
  accounts: readonly string[],
  filter: TradeFilter,
  firm: string,
): IterableIterator<readonly [number, Trade]> {
  for (const [position, trade] of core.tradePositions()) {
    if (!accounts.includes(trade.aggressor.order.account) && !accounts.includes(trade.passive.order.account)) continue;
    if (filter.symbol !== '' && trade.symbol !== filter.symbol) continue;
    if (filter.tradeId !== '' && trade.id !== filter.tradeId) continue;
    const own = [trade.aggressor, trade.passive].filter((e) => ownedBy(e, firm));
    if (filter.orderId !== '' && !own.some((e) => e.order.orderId === filter.orderId)) continue;
    if (filter.execId !== '' && !own.some((e) => e.id === filter.execId)) continue;
    if (filter.tradeLinkId !== undefined && filter.tradeLinkId !== '' && tradeLinkIdSeenBy(trade, firm) !== filter.tradeLinkId) continue;
    if (filter.startTime !== undefined && trade.time < filter.startTime) continue;
    if (filter.endTime !== undefined && trade.time >= filter.endTime) continue;
    if (filter.states.length > 0 && !filter.states.includes(trade.state)) continue;
    yield [position, trade];
  }
}
