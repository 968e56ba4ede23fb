/**
 * The transport is a config choice: the gateway client (NDJSON) and the gRPC client emit the same market
 * data events, so the same MarketCopy code kept from either ends up with the core's book after the same
 * burst of orders, and goes stale/fresh the same way when the server drops its streams.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/exchange/gateway/index.ts';
import { MarketCopy } from '../../../src/exchange/market/index.ts';
import type { MarketChange, MarketDataSource } from '../../../src/exchange/market/index.ts';
import { record } from '../gateway/helpers/events.ts';
import { burst, expectSameAsCore } from './helpers/books.ts';
import { ALICE_PASSWORD, SYMBOL, SYMBOL2, type GrpcHarness, startGrpcHarness } from '../../sim/grpc/helpers/harness.ts';

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

  it('gateway and gRPC copies both equal the core after the same burst', async () => {
    const sources: Record<string, MarketDataSource> = { gateway, grpc: h.client() };
    const copies = Object.entries(sources).map(([name, source]) => {
      const market = new MarketCopy();
      const changes = record(market.changes$);
      market.attachBooks(source.marketData$({ symbols: [SYMBOL, SYMBOL2] }));
      return { name, market, changes };
    });
    const at = (symbol: string, sequence: number) => (c: MarketChange) => c.type === 'book' && c.book.symbol === symbol && c.book.sequence === sequence;
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

    h.server.dropAll();
    for (const { market, changes } of copies.filter((c) => c.name === 'grpc')) {
      await changes.waitFor((c) => c.type === 'stale');
      await changes.waitFor(at(SYMBOL, 2 + (updates.get(SYMBOL) ?? 0)));
      expect(market.isFresh(SYMBOL)).toBe(true);
    }
    for (const { market, changes } of copies) {
      changes.stop();
      market.close();
    }
  });
});
