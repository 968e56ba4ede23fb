/**
 * The transport is a config choice: the gateway client (NDJSON) and the gRPC client emit the same market data
 * events, so the same book copy (the engine's BookStore, ./helpers/book-copy.ts) kept from either ends up with
 * the core's book after the same burst of orders, and goes stale/fresh the same way when the server drops its
 * streams: both servers drop every stream (gRPC: UNAVAILABLE; gateway: the NDJSON body ends), the book changes
 * while they are down, both copies mark both symbols stale, reconnect, and are fresh again with the core's book
 * from the new snapshot.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/exchange/gateway/index.ts';
import { record } from './gateway/helpers/events.ts';
import { BookCopy, type BookChange } from './helpers/book-copy.ts';
import { burst, expectSameAsCore } from './helpers/books.ts';
import { ALICE_PASSWORD, SYMBOL, SYMBOL2, type GrpcHarness, startGrpcHarness } from '../sim/grpc/helpers/harness.ts';

/** What a book copy needs from a transport: GatewayClient and GrpcExchangeClient both fit. */
type MarketDataSource = Pick<GatewayClient, 'marketData$'>;

describe('market copy over either transport', () => {
  let h: GrpcHarness;
  let gateway: GatewayClient;
  beforeEach(async () => {
    h = await startGrpcHarness({ gateway: true });
    gateway = new GatewayClient({
      gatewayUrl: h.gatewayUrl ?? '',
      credentials: { username: 'alice', password: ALICE_PASSWORD },
      instruments: h.catalog,
      now: h.clock.now,
      streams: { baseDelayMs: 5, maxDelayMs: 20 },
    });
  });
  afterEach(async () => {
    await gateway.close({ logout: false });
    await h.close();
  });

  it('gateway and gRPC copies equal the core after the same burst, go stale then fresh alike when the servers drop streams', async () => {
    const sources: Record<string, MarketDataSource> = { gateway, grpc: h.client() };
    const copies = Object.entries(sources).map(([name, source]) => {
      const market = new BookCopy();
      const changes = record(market.changes$);
      market.attach(source.marketData$({ symbols: [SYMBOL, SYMBOL2] }));
      return { name, market, changes };
    });
    const at = (symbol: string, sequence: number) => (c: BookChange) =>
      c.type === 'book' && c.book.symbol === symbol && c.book.sequence === sequence;
    for (const { changes } of copies) {
      await changes.waitFor(at(SYMBOL, 1));
      await changes.waitFor(at(SYMBOL2, 1));
    }
    const updates = burst(h.core, 300, 11);
    for (const { market, changes } of copies) {
      await changes.waitFor(at(SYMBOL, 1 + (updates.get(SYMBOL) ?? 0)), 15_000);
      await changes.waitFor(at(SYMBOL2, 1 + (updates.get(SYMBOL2) ?? 0)), 15_000);
      expectSameAsCore(h.core, market.book(SYMBOL));
      expectSameAsCore(h.core, market.book(SYMBOL2));
    }

    const mark = new Map(copies.map(({ name, changes }) => [name, changes.events.length]));
    const afterDrop = (name: string, events: readonly BookChange[], predicate: (c: BookChange) => boolean) => (c: BookChange) =>
      predicate(c) && events.indexOf(c) >= (mark.get(name) ?? 0);
    expect(h.gatewayStreamCount()).toBe(1);
    expect(h.server.openStreams()).toBe(1);
    h.server.dropAll();
    h.dropGatewayStreams();
    const whileDown = burst(h.core, 40, 12);
    expect((whileDown.get(SYMBOL) ?? 0) + (whileDown.get(SYMBOL2) ?? 0)).toBeGreaterThan(0);
    for (const { name, market, changes } of copies) {
      const stale = await changes.waitFor(afterDrop(name, changes.events, (c) => c.type === 'stale'));
      expect(stale.type === 'stale' && [...stale.symbols].sort(), name).toEqual([SYMBOL, SYMBOL2].sort());
      // the next update per symbol is the snapshot of the new connection
      for (const symbol of [SYMBOL, SYMBOL2]) {
        const fresh = await changes.waitFor(afterDrop(name, changes.events, (c) => c.type === 'book' && c.book.symbol === symbol));
        expect(fresh.type === 'book' && fresh.book.sequence, `${name} ${symbol}`).toBe(2 + (updates.get(symbol) ?? 0));
        expect(market.isFresh(symbol), `${name} ${symbol}`).toBe(true);
        expectSameAsCore(h.core, market.book(symbol));
      }
      const staleAt = changes.events.indexOf(stale);
      const firstFresh = changes.events.findIndex((c, i) => i > staleAt && c.type === 'book');
      expect(
        changes.events.slice(mark.get(name), staleAt).filter((c) => c.type === 'book'),
        `${name}: no update between the drop and stale`,
      ).toEqual([]);
      expect(firstFresh, name).toBeGreaterThan(staleAt);
    }
    for (const { market, changes } of copies) {
      changes.stop();
      market.close();
    }
  });
});
