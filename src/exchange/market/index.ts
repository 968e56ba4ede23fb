/**
 * The local market copy and the transport-neutral stream event types.
 *
 * Modules:
 * - market-copy.ts  MarketCopy: books and positions kept from the streams, read-only views, changes$
 * - local-book.ts   LocalBook (levels, state, stats, sequence, stale) and top-of-book helpers
 * - stream-types.ts the gRPC-only stream events, the source interfaces, and the port's events (re-exported)
 */
export { MarketCopy } from './market-copy.ts';
export type { MarketChange } from './market-copy.ts';
export { bestBid, bestOffer, midPrice, spread } from './local-book.ts';
export type { LocalBook } from './local-book.ts';
export type * from './stream-types.ts';
