/**
 * The gRPC client's market data into a local copy kept by the engine's BookStore (../helpers/book-copy.ts),
 * against the simulator's server over loopback: the copy equals the core's book after a burst of orders; a
 * stream dropped by the server marks the books stale until the new snapshot, which brings what changed
 * meanwhile; snapshot-only; a refused request (more than 1000 symbols) ends the Observable instead of
 * reconnecting forever.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BookCopy, type BookChange } from '../helpers/book-copy.ts';
import { burst, expectSameAsCore } from '../helpers/books.ts';
import { record } from '../gateway/helpers/events.ts';
import { ALICE_MAIN, SYMBOL, SYMBOL2, type GrpcHarness, place, startGrpcHarness } from '../../sim/grpc/helpers/harness.ts';

const isBook =
  (symbol: string, sequence?: number) =>
  (c: BookChange): boolean =>
    c.type === 'book' && c.book.symbol === symbol && (sequence === undefined || c.book.sequence === sequence);

describe('gRPC market data into the local copy', () => {
  let h: GrpcHarness;
  let market: BookCopy;

  beforeEach(async () => {
    h = await startGrpcHarness();
    market = new BookCopy();
  });
  afterEach(async () => {
    market.close();
    await h.close();
  });

  it('equals the core book (levels, state, stats) after a burst of orders', async () => {
    const changes = record(market.changes$);
    market.attach(h.client().marketData$({ symbols: [SYMBOL, SYMBOL2] }));
    await changes.waitFor(isBook(SYMBOL, 1));
    await changes.waitFor(isBook(SYMBOL2, 1));
    const updates = burst(h.core, 600, 7);
    expect(updates.get(SYMBOL)).toBeGreaterThan(300);
    await changes.waitFor(isBook(SYMBOL, 1 + (updates.get(SYMBOL) ?? 0)), 15_000);
    await changes.waitFor(isBook(SYMBOL2, 1 + (updates.get(SYMBOL2) ?? 0)), 15_000);
    expectSameAsCore(h.core, market.book(SYMBOL));
    expectSameAsCore(h.core, market.book(SYMBOL2));
    expect(h.core.trades().length).toBeGreaterThan(0);
    expect(market.isFresh(SYMBOL)).toBe(true);
    changes.stop();
  });

  it('marks books stale while the stream is down and fresh again with the new snapshot', async () => {
    const changes = record(market.changes$);
    market.attach(h.client().marketData$({ symbols: [SYMBOL] }));
    const spy = record(h.client().marketData$({ symbols: [SYMBOL] }));
    await changes.waitFor(isBook(SYMBOL, 1));
    await spy.waitFor((e) => e.type === 'book');
    place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 40, qty: 2 });
    await changes.waitFor(isBook(SYMBOL, 2));
    const before = market.book(SYMBOL);

    h.server.dropAll();
    place(h.core, { account: ALICE_MAIN, side: 'SIDE_SELL', price: 70, qty: 3 });
    await changes.waitFor((c) => c.type === 'stale' && c.symbols.includes(SYMBOL));
    expect(market.isFresh(SYMBOL)).toBe(false);
    expect(market.book(SYMBOL)?.bids).toBe(before?.bids);

    const fresh = (await changes.waitFor(isBook(SYMBOL, 3))) as Extract<BookChange, { type: 'book' }>;
    expect(fresh.book.stale).toBe(false);
    expectSameAsCore(h.core, market.book(SYMBOL));
    expect(market.isFresh(SYMBOL)).toBe(true);
    await spy.waitFor((e) => e.type === 'connected' && e.attempt === 2);
    spy.stop();
    expect(spy.events.map((e) => e.type).filter((t) => t !== 'book')).toEqual(['connected', 'disconnected', 'connected']);
    changes.stop();
  });

  it('reconnects a silent stream (watchdog, heartbeats here are 60 s apart) and resnapshots', async () => {
    const client = h.client('alice', { streams: { silenceTimeoutMs: 100, baseDelayMs: 1, maxDelayMs: 1 } });
    const events = record(client.marketData$({ symbols: [SYMBOL] }));
    const dropped = await events.waitFor((e) => e.type === 'disconnected');
    expect(dropped).toMatchObject({ reason: 'silence', willReconnect: true });
    await events.waitFor((e) => e.type === 'connected' && e.attempt === 2);
    expect(events.events.filter((e) => e.type === 'book')).toHaveLength(2);
    events.stop();
  });

  it('close() ends the open streams with GRPC_CLOSED, without reconnecting', async () => {
    const client = h.client();
    const events = record(client.marketData$({ symbols: [SYMBOL] }));
    await events.waitFor((e) => e.type === 'connected');
    client.close();
    expect(((await events.failed) as { code?: string }).code).toBe('GRPC_CLOSED');
    expect(events.events.at(-1)).toMatchObject({ type: 'disconnected', willReconnect: false });
    await expect(client.getOpenOrders()).rejects.toMatchObject({ code: 'GRPC_CLOSED' });
  });

  it('marketDataSnapshot returns the current books and ends (snapshot_only)', async () => {
    place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 33, qty: 4 });
    const books = await h.client().marketDataSnapshot({ symbols: [SYMBOL, SYMBOL2], depth: 1 });
    expect([...books.keys()].sort()).toEqual([SYMBOL2, SYMBOL].sort());
    expect(books.get(SYMBOL)?.bids.map((l) => l.px.toString())).toEqual(['0.33']);
    expect(books.get(SYMBOL2)?.bids).toEqual([]);
  });

  it('ends with GRPC_INVALID_ARGUMENT for more than 1000 symbols (no reconnect loop)', async () => {
    const symbols = Array.from({ length: 1001 }, (_, i) => `S-${i}`);
    const events = record(h.client().marketData$({ symbols }));
    const error = (await events.failed) as { code?: string };
    expect(error.code).toBe('GRPC_INVALID_ARGUMENT');
    expect(events.events).toEqual([expect.objectContaining({ type: 'disconnected', willReconnect: false, reason: 'error' })]);
  });
});
