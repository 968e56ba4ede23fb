/**
 * The stream wrappers of the fault injector, message by message, on fake sinks of both transports: which
 * streams garble what (order streams their execution updates, market data streams their book updates,
 * nothing else), duplicates, swaps of adjacent updates, a held update sent alone after HOLD_MS (fake
 * timers) or before a heartbeat or the end, the counters, and `clear()`. Then on the gateway wire: a
 * market data stream garbled from the API and from `sim.faults.marketData`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { seededRandom } from '../../../src/sim/activity/random.ts';
import { StreamFaults, garbledKindOf } from '../../../src/sim/faults/stream-faults.ts';
import { HOLD_MS, isBookUpdate, isExecutionUpdate } from '../../../src/sim/faults/index.ts';
import { emptyFaultStats } from '../../../src/sim/faults/stats.ts';
import type { NdjsonSink } from '../../../src/sim/http/router.ts';
import type { StreamSink } from '../../../src/sim/grpc/calls.ts';
import type { GrpcCaller } from '../../../src/sim/grpc/auth.ts';
import { ALICE, ALICE_MAIN, SYMBOL, limitOrder, resultOf, startHarness, type Harness, type Json } from '../gateway/helpers/harness.ts';

const MD_PATH = '/api/v1beta1/create_market_data_subscription';
const ORDERS_PATH = '/api/v1beta1/create_order_subscription';

/** A gateway NDJSON line of a book update with a marker price. */
const ndjsonBook = (n: number): Json => ({
  result: { update: { symbol: SYMBOL, bids: [{ px: String(n), qty: '1' }], transact_time: String(n) } },
});
const ndjsonHeartbeat = (): Json => ({ result: { heartbeat: {} } });
/** A gRPC book update with a marker price. */
const grpcBook = (n: number): Json => ({ update: { symbol: SYMBOL, bids: [{ px: String(n), qty: '1' }] } });
const marker = (message: unknown): number =>
  Number(((((message as Json)['result'] ?? message) as Json)['update'] as { bids: { px: string }[] }).bids[0]?.px);

class FakeNdjson implements NdjsonSink {
  readonly written: unknown[] = [];
  closed = false;
  private listeners: (() => void)[] = [];
  send(message: unknown): void {
    this.written.push(message);
  }
  end(): void {
    this.closed = true;
    for (const l of this.listeners.splice(0)) l();
  }
  onClose(listener: () => void): void {
    this.listeners.push(listener);
  }
}

class FakeGrpc implements StreamSink {
  readonly written: Json[] = [];
  readonly caller = {} as GrpcCaller;
  closed = false;
  private listeners: (() => void)[] = [];
  send(message: Json): boolean {
    this.written.push(message);
    return true;
  }
  end(): void {
    this.closed = true;
    for (const l of this.listeners.splice(0)) l();
  }
  fail(): void {
    this.end();
  }
  onClose(listener: () => void): void {
    this.listeners.push(listener);
  }
  every(): void {}
}

function faults(): StreamFaults {
  return new StreamFaults(seededRandom(1), emptyFaultStats());
}

afterEach(() => {
  vi.useRealTimers();
});

describe('stream faults, message by message', () => {
  it('tells the garbled streams apart by gateway path and gRPC method', () => {
    expect(garbledKindOf(ORDERS_PATH)).toBe('orders');
    expect(garbledKindOf('CreateOrderSubscription')).toBe('orders');
    expect(garbledKindOf(MD_PATH)).toBe('marketData');
    expect(garbledKindOf('CreateMarketDataSubscription')).toBe('marketData');
    expect(garbledKindOf('/api/v1beta1/create_instrument_state_change_subscription')).toBeUndefined();
    expect(garbledKindOf('CreatePositionSubscription')).toBeUndefined();
    expect(isBookUpdate(ndjsonBook(1))).toBe(true);
    expect(isBookUpdate(grpcBook(1))).toBe(true);
    expect(isBookUpdate(ndjsonHeartbeat())).toBe(false);
    expect(isBookUpdate({ result: { update: { executions: [{ id: 'e' }] } } })).toBe(false);
    expect(isExecutionUpdate(ndjsonBook(1))).toBe(false);
  });

  it('market data duplication sends every book update twice, heartbeats once, and leaves order streams alone', () => {
    const f = faults();
    f.garbling = { marketData: { duplicateProbability: 1, reorderProbability: 0 } };
    const md = new FakeNdjson();
    const orders = new FakeNdjson();
    const wrappedMd = f.wrapNdjson(MD_PATH, md);
    const wrappedOrders = f.wrapNdjson(ORDERS_PATH, orders);
    wrappedMd.send(ndjsonBook(1));
    wrappedMd.send(ndjsonHeartbeat());
    wrappedMd.send(ndjsonBook(2));
    const execution = { result: { update: { executions: [{ id: 'x-1' }] } } };
    wrappedOrders.send(execution);
    expect(md.written.map((m) => (isBookUpdate(m) ? marker(m) : 'hb'))).toEqual([1, 1, 'hb', 2, 2]);
    expect(orders.written).toEqual([execution]);
    expect(f.stats).toMatchObject({ marketDataDuplicated: 2, marketDataReordered: 0, duplicated: 0, reordered: 0 });
  });

  it('market data reordering swaps adjacent book updates; a heartbeat or the end sends a held one first', () => {
    const f = faults();
    f.garbling = { marketData: { duplicateProbability: 0, reorderProbability: 1 } };
    const md = new FakeNdjson();
    const wrapped = f.wrapNdjson(MD_PATH, md);
    for (const n of [1, 2, 3, 4]) wrapped.send(ndjsonBook(n));
    expect(md.written.map(marker)).toEqual([2, 1, 4, 3]);
    wrapped.send(ndjsonBook(5)); // held
    wrapped.send(ndjsonHeartbeat()); // sends the held one first
    wrapped.send(ndjsonBook(6)); // held
    wrapped.end();
    expect(md.written.map((m) => (isBookUpdate(m) ? marker(m) : 'hb'))).toEqual([2, 1, 4, 3, 5, 'hb', 6]);
    expect(f.stats.marketDataReordered).toBe(2);
    expect(f.count).toBe(0);
  });

  it('a held book update with nothing after it goes out alone after HOLD_MS', () => {
    vi.useFakeTimers();
    const f = faults();
    f.garbling = { marketData: { duplicateProbability: 0, reorderProbability: 1 } };
    const sink = new FakeGrpc();
    const wrapped = f.wrapGrpc('CreateMarketDataSubscription', sink);
    wrapped.send(grpcBook(7));
    expect(sink.written).toEqual([]);
    vi.advanceTimersByTime(HOLD_MS - 1);
    expect(sink.written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sink.written.map(marker)).toEqual([7]);
    expect(f.stats.marketDataReordered).toBe(0);
  });

  it('gRPC market data streams are garbled the same way; other gRPC streams are not', () => {
    const f = faults();
    f.garbling = { marketData: { duplicateProbability: 1, reorderProbability: 0 } };
    const md = new FakeGrpc();
    const positions = new FakeGrpc();
    f.wrapGrpc('CreateMarketDataSubscription', md).send(grpcBook(3));
    f.wrapGrpc('CreatePositionSubscription', positions).send(grpcBook(3));
    expect(md.written.map(marker)).toEqual([3, 3]);
    expect(positions.written.map(marker)).toEqual([3]);
  });

  it('a stalled stream drops what it holds and writes nothing more', () => {
    const f = faults();
    f.garbling = { marketData: { duplicateProbability: 0, reorderProbability: 1 } };
    const md = new FakeNdjson();
    const wrapped = f.wrapNdjson(MD_PATH, md);
    wrapped.send(ndjsonBook(1)); // held
    expect(f.stallAll()).toBe(1);
    wrapped.send(ndjsonBook(2));
    wrapped.end();
    expect(md.written).toEqual([]);
  });
});

describe('market data garbling on the gateway wire', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** Book updates of the stream, as the best bid price of each (0: no bid). */
  const bestBids = (lines: readonly Json[]): number[] =>
    lines
      .filter(isBookUpdate)
      .map((line) => Number((((resultOf(line) as Json)['update'] as Json)['bids'] as { px: string }[] | undefined)?.[0]?.px ?? 0));

  it('garbleMarketData duplicates and swaps book updates; clear() restores the order', async () => {
    h = await startHarness();
    const token = await h.login(ALICE);
    h.sim.faults.garbleMarketData({ duplicateProbability: 1, reorderProbability: 0 });
    const dup = await h.stream('create_market_data_subscription', token, { symbols: [SYMBOL] });
    await dup.until(isBookUpdate); // the snapshot (and its copy)
    await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'));
    await dup.until(() => bestBids(dup.lines).filter((px) => px === 40).length >= 2);
    expect(bestBids(dup.lines)).toEqual([0, 0, 40, 40]);

    h.sim.faults.garbleMarketData({ duplicateProbability: 0, reorderProbability: 1 });
    const swapped = await h.stream('create_market_data_subscription', token, { symbols: [SYMBOL] });
    await swapped.until(isBookUpdate); // the snapshot: held, then sent alone after HOLD_MS
    // one request, two book changes in the same tick: the first is held and swapped with the second
    const both = await h.api('insert_order_list', token, {
      requests: ['41', '42'].map((price) => limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', price)),
    });
    expect(both.status).toBe(200);
    await swapped.until(() => bestBids(swapped.lines).length >= 3);
    expect(bestBids(swapped.lines)).toEqual([40, 42, 41]);
    expect(h.sim.faults.stats.marketDataReordered).toBeGreaterThanOrEqual(1);

    h.sim.faults.clear();
    await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '43'));
    await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '44'));
    await swapped.until(() => bestBids(swapped.lines).length >= 5);
    expect(bestBids(swapped.lines).slice(3)).toEqual([43, 44]);
  });

  it('sim.faults.marketData drives the same garbling from config', async () => {
    h = await startHarness({
      tweak: (config) => ({
        ...config,
        faults: { ...config.faults, marketData: { duplicateProbability: new Decimal(1), reorderProbability: new Decimal(0) } },
      }),
    });
    const token = await h.login(ALICE);
    const stream = await h.stream('create_market_data_subscription', token, { symbols: [SYMBOL] });
    await stream.until(() => stream.lines.filter(isBookUpdate).length >= 2);
    expect(bestBids(stream.lines)).toEqual([0, 0]);
    expect(h.sim.faults.stats.marketDataDuplicated).toBe(1);
  });
});
