/**
 * Bench "tick-to-order" (us): the engine's in-process latency from a book update arriving at the pipeline to
 * the venue call it causes leaving it, for the demo market maker (strategies/market-maker.ts) behind the
 * config/sim.yaml risk limits. The pipeline is the real one (BookStore, OrderTracker, Portfolio, risk,
 * StrategyRuntime, ExecutionAdapter) on a VirtualClock; the Venue is in memory: its market data is a Subject
 * the bench pushes BookEvents into, and its insert/replace/cancel calls record `process.hrtime.bigint()` when
 * called and answer like an exchange (order ids, then NEW / REPLACE / CANCELED executions on its order stream,
 * delivered between updates). Each update is stamped just before `next()`; the sample is the first venue call
 * it causes. The mid alternates by one tick every update, so the maker re-quotes (two replaces) every time;
 * virtual time moves 50 ms per update so the message-rate limit never refuses. No I/O anywhere.
 * value: p99 over UPDATES timed updates (after WARMUP untimed ones); p50, p90, p999, max and mean as extras,
 * and cpuUsPerUpdate: the process's CPU time per update over the timed loop (everything an update costs,
 * executions and acknowledgements included), which a busy machine disturbs much less than the percentiles;
 * p50FirstTenth / p50LastTenth show that an update costs the same at the end of the run as at its start.
 * Garbage collection during the timed loop (a PerformanceObserver on 'gc' entries): gcPauses (how many),
 * gcPauseMsTotal, gcPauseMsMax, gcByKind (minor = scavenges, major = mark-compact, ...), and
 * slowestWithGc: of the updates at or above p999, how many overlapped a GC pause (where the tail comes from).
 * No baseline: baseline, baselineValue and ratio are null.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';
import { Subject } from 'rxjs';
import type { BenchResult } from './bench-result.ts';
import { Decimal, ZERO } from '../src/domain/decimal.ts';
import type { Execution, Instrument, Order } from '../src/domain/index.ts';
import { silentLogger } from '../src/logging/logger.ts';
import { VirtualClock } from '../src/engine/clock.ts';
import { startPipeline } from '../src/engine/pipeline/index.ts';
import { Portfolio } from '../src/engine/portfolio/index.ts';
import { portfolioPort } from '../src/engine/portfolio-port.ts';
import { parseRiskConfig } from '../src/engine/risk/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../src/domain/stream-events.ts';
import type { Venue, VenueCancelRequest, VenueOrderRequest, VenueReplaceRequest, VenueSnapshot } from '../src/engine/venue.ts';
import type { BookEvent } from '../src/domain/stream-events.ts';
import { WIRE_SIDE } from '../src/bot/venues/order-input.ts';
import marketMaker from '../strategies/market-maker.ts';

const UPDATES = 100_000;
const WARMUP = 20_000;
const STEP_MS = 50;
const SYMBOL = 'RAIN-NYC-2026-12-01';
const ACCOUNT = 'firms/demo/accounts/alice-main';
const T0 = Date.UTC(2026, 0, 15, 14, 0, 0);

const d = (text: string | number) => new Decimal(text);

const INSTRUMENT: Instrument = {
  symbol: SYMBOL,
  description: 'bench',
  state: 'INSTRUMENT_STATE_OPEN',
  priceScale: 100,
  fractionalQtyScale: 1,
  tickSize: d('0.01'),
  lowPriceLimit: d('0.01'),
  highPriceLimit: d('0.99'),
  minimumTradeQty: d(1),
  currency: 'USD',
  eventId: 'WEATHER-2026-12-01',
  eventDescription: '',
  tradingStartTime: undefined,
  expirationTime: undefined,
  lastTradeDate: undefined,
  settlementTime: undefined,
};

/** Two books one tick apart (mid 0.42 and 0.43), five levels a side, built once. */
function book(bestBidCents: number): BookEvent {
  const level = (cents: number) => ({ px: d(cents).div(100), qty: d(20) });
  return {
    type: 'book',
    symbol: SYMBOL,
    bids: [0, 1, 2, 3, 4].map((i) => level(bestBidCents - i)),
    offers: [0, 1, 2, 3, 4].map((i) => level(bestBidCents + 2 + i)),
    state: 'INSTRUMENT_STATE_OPEN',
    stats: undefined,
    transactTime: undefined,
  };
}

function exchangeOrder(o: {
  id: string;
  clordId: string;
  side: Order['side'];
  price: Decimal;
  qty: Decimal;
  state: Order['state'];
}): Order {
  return {
    id: o.id,
    clordId: o.clordId,
    crossId: '',
    hostCrossId: '',
    parentOrderId: '',
    lastTradeId: '',
    account: ACCOUNT,
    clientAccountId: '',
    clientParticipantId: '',
    participant: '',
    submittingParticipant: '',
    symbol: SYMBOL,
    symbolSubType: '',
    collateralMemo: '',
    side: o.side,
    type: 'ORDER_TYPE_LIMIT',
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    state: o.state,
    triggerMethod: 'CONDITION_TRIGGER_METHOD_UNDEFINED',
    manualOrderIndicator: 'MANUAL_ORDER_INDICATOR_UNDEFINED',
    orderCapacity: 'ORDER_CAPACITY_UNDEFINED',
    selfMatchPreventionInstruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
    orderQty: o.qty,
    cashOrderQty: ZERO,
    minQty: ZERO,
    cumQty: ZERO,
    leavesQty: o.state === 'ORDER_STATE_CANCELED' ? ZERO : o.qty,
    price: o.price,
    stopPrice: ZERO,
    avgPx: ZERO,
    priorityWeight: '',
    commissionsBasisPoints: ZERO,
    makerCommissionsBasisPoints: ZERO,
    commissionNotionalTotalCollected: ZERO,
    priceToQuantityFilled: [],
    allOrNone: false,
    bestLimit: false,
    blockTradeIndicator: false,
    ignorePriceValidityChecks: false,
    immediatelyExecutableLimit: false,
    participateDontInitiate: true,
    strictLimit: false,
    createTime: undefined,
    insertTime: undefined,
    goodTillTime: undefined,
    lastTransactTime: undefined,
    riskCheckTime: undefined,
    transactionBookedTime: undefined,
    context: undefined,
  };
}

function execution(id: string, type: Execution['type'], order: Order): Execution {
  return {
    id,
    tradeId: '',
    traceId: '',
    text: '',
    order,
    lastPx: ZERO,
    lastShares: ZERO,
    commissionNotionalCollected: ZERO,
    commissionSpreadPx: ZERO,
    aggressor: false,
    type,
    orderRejectReason: 'ORD_REJECT_REASON_EXCHANGE_OPTION',
    unsolicitedCancelReason: 'UNSOLICITED_CXL_REASON_UNDEFINED',
    transactTime: undefined,
    transactTradeDate: undefined,
    legPrices: [],
  };
}

interface Resting {
  id: string;
  clordId: string;
  side: Order['side'];
  price: Decimal;
  qty: Decimal;
}

/** An in-memory exchange for one account: answers calls at once, queues the executions until `deliver()`. */
class InMemoryVenue implements Venue {
  readonly name = 'in-memory';
  readonly market = new Subject<MarketDataEvent>();
  readonly orders = new Subject<OrderStreamEvent>();
  /** Set by the bench just before pushing an update; the first venue call after it takes the sample. */
  stampedAt: bigint | undefined;
  lastSample: bigint | undefined;
  calls = 0;
  private readonly resting = new Map<string, Resting>();
  private queued: Execution[] = [];
  private seq = 0;

  private stamp(): void {
    const now = process.hrtime.bigint();
    this.calls += 1;
    if (this.stampedAt !== undefined) {
      this.lastSample = now - this.stampedAt;
      this.stampedAt = undefined;
    }
  }

  async instruments(): Promise<readonly Instrument[]> {
    return [INSTRUMENT];
  }

  marketData(): Subject<MarketDataEvent> {
    return this.market;
  }

  orderUpdates(): Subject<OrderStreamEvent> {
    return this.orders;
  }

  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    this.stamp();
    const ids = requests.map((r) => {
      const order: Resting = { id: `O${++this.seq}`, clordId: r.clordId, side: WIRE_SIDE[r.side], price: r.price ?? ZERO, qty: r.qty };
      this.resting.set(order.id, order);
      this.queue('EXECUTION_TYPE_NEW', order, 'ORDER_STATE_NEW');
      return order.id;
    });
    return Promise.resolve(ids);
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    this.stamp();
    for (const r of requests) {
      const order = this.resting.get(r.orderId);
      if (order === undefined) continue;
      order.clordId = r.clordId;
      if (r.price !== undefined) order.price = r.price;
      if (r.qty !== undefined) order.qty = r.qty;
      this.queue('EXECUTION_TYPE_REPLACE', order, 'ORDER_STATE_NEW');
    }
    return Promise.resolve();
  }

  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    this.stamp();
    for (const r of requests) {
      const order = this.resting.get(r.orderId);
      if (order === undefined) continue;
      this.resting.delete(r.orderId);
      this.queue('EXECUTION_TYPE_CANCELED', order, 'ORDER_STATE_CANCELED');
    }
    return Promise.resolve();
  }

  cross(): Promise<readonly string[]> {
    return Promise.reject(new Error('the bench sends no crosses'));
  }

  async snapshot(): Promise<VenueSnapshot> {
    return { openOrders: [], positions: [], balances: [] };
  }

  async close(): Promise<void> {
    this.market.complete();
    this.orders.complete();
  }

  /** Sends the queued executions on the order stream (between updates, like a network would). */
  deliver(): void {
    const executions = this.queued;
    this.queued = [];
    for (const e of executions) this.orders.next({ type: 'execution', execution: e, sessionId: 'bench' });
  }

  get working(): number {
    return this.resting.size;
  }

  private queue(type: Execution['type'], o: Resting, state: Order['state']): void {
    this.queued.push(execution(`E${++this.seq}`, type, exchangeOrder({ ...o, state })));
  }
}

function percentile(sorted: Float64Array, p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

const round = (us: number) => Math.round(us * 100) / 100;

export default async function tickToOrderBench(): Promise<BenchResult> {
  const clock = new VirtualClock(T0);
  const venue = new InMemoryVenue();
  const risk = parseRiskConfig({
    maxOrderQty: '50',
    maxOrderNotional: '50',
    maxPosition: '60',
    maxEventPosition: '100',
    maxOpenOrders: 20,
    maxMessagesPerSecond: 50,
    priceBand: { reference: 'mid', ticks: 10 },
    maxDailyLoss: '500',
  });
  const params = marketMaker.params.parse({
    symbols: [SYMBOL],
    halfSpread: '0.02',
    quoteQty: '5',
    maxInventory: '40',
    skewPerContract: '0.002',
  });
  const pipeline = await startPipeline({
    venue,
    clock,
    log: silentLogger(),
    strategy: marketMaker,
    params,
    risk,
    portfolio: portfolioPort(new Portfolio({ clock })),
    account: ACCOUNT,
    accounts: [ACCOUNT],
    symbols: [SYMBOL],
    // virtual time stands still after the loop: no stop grace to wait out on it (the quotes are cancelled at once)
    stopGraceMs: 0,
  });
  venue.orders.next({ type: 'connected', attempt: 1 });
  venue.orders.next({ type: 'snapshot', orders: [], sessionId: 'bench' });
  venue.market.next({ type: 'connected', attempt: 1 });

  const books = [book(40), book(41)];
  const samples = new Float64Array(UPDATES);
  /** performance.now() when each timed update was stamped, to place it against the GC pauses. */
  const startedAt = new Float64Array(UPDATES);
  const gcPauses: PerformanceEntry[] = [];
  const gcObserver = new PerformanceObserver((list) => gcPauses.push(...list.getEntries()));
  let timed = 0;
  let missed = 0;
  let now = T0;
  const total = WARMUP + UPDATES;
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  for (let i = 0; i < total; i++) {
    if (i === WARMUP) {
      cpuAtStart = process.cpuUsage();
      gcObserver.observe({ entryTypes: ['gc'] });
    }
    now += STEP_MS;
    clock.advanceTo(now);
    const update = books[i % 2] as BookEvent;
    venue.lastSample = undefined;
    if (i >= WARMUP) startedAt[timed] = performance.now();
    venue.stampedAt = process.hrtime.bigint();
    venue.market.next(update);
    venue.stampedAt = undefined;
    if (i >= WARMUP) {
      if (venue.lastSample === undefined) missed += 1;
      else samples[timed++] = Number(venue.lastSample) / 1000;
    }
    // answers to the calls (promise continuations), then the exchange's executions
    await Promise.resolve();
    venue.deliver();
    await Promise.resolve();
  }
  const cpu = process.cpuUsage(cpuAtStart);
  // the observer's entries are delivered on a timer turn of the event loop (not by setImmediate)
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
  gcObserver.disconnect();
  const gc = gcSummary(gcPauses, samples.subarray(0, timed), startedAt.subarray(0, timed));
  const refusals = pipeline.counters.refusalCount;
  const working = venue.working;
  await pipeline.stop();
  // the first and last tenth apart: per-update cost must not grow with the run (e.g. with a quote's clordId chain)
  const tenth = Math.floor(timed / 10);
  const p50First = percentile(samples.slice(0, tenth).sort(), 50);
  const p50Last = percentile(samples.slice(timed - tenth, timed).sort(), 50);
  const sorted = samples.slice(0, timed).sort();
  if (timed < UPDATES * 0.99)
    throw new Error(
      `only ${timed} of ${UPDATES} updates caused a venue call (refusals ${refusals}): the bench no longer measures what it says`,
    );
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, timed);
  return {
    bench: 'tick-to-order',
    unit: 'us',
    value: round(percentile(sorted, 99)),
    baseline: null,
    baselineValue: null,
    ratio: null,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p999: round(percentile(sorted, 99.9)),
    max: round(sorted[sorted.length - 1] ?? 0),
    mean: round(mean),
    p50FirstTenth: round(p50First),
    p50LastTenth: round(p50Last),
    cpuUsPerUpdate: round((cpu.user + cpu.system) / UPDATES),
    updates: UPDATES,
    warmup: WARMUP,
    timed,
    withoutCall: missed,
    venueCalls: venue.calls,
    refusals,
    workingAtEnd: working,
    ...gc,
    strategy: 'market-maker',
  };
}

/** GC pauses seen during the timed loop, and how many of the slowest updates (>= p999) overlapped one. */
function gcSummary(pauses: readonly PerformanceEntry[], samplesUs: Float64Array, startedAt: Float64Array): Record<string, unknown> {
  const byKind: Record<string, number> = {};
  for (const p of pauses) {
    const kind = gcKind((p as unknown as { detail?: { kind?: number } }).detail?.kind);
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  const threshold = percentile(Float64Array.from(samplesUs).sort(), 99.9);
  let slowest = 0;
  let slowestWithGc = 0;
  for (let i = 0; i < samplesUs.length; i++) {
    const us = samplesUs[i] as number;
    if (us < threshold) continue;
    slowest += 1;
    const start = startedAt[i] as number;
    const end = start + us / 1000;
    if (pauses.some((p) => p.startTime < end && p.startTime + p.duration > start)) slowestWithGc += 1;
  }
  const durations = pauses.map((p) => p.duration);
  return {
    gcPauses: pauses.length,
    gcPauseMsTotal: round(durations.reduce((a, b) => a + b, 0)),
    gcPauseMsMax: round(durations.reduce((a, b) => Math.max(a, b), 0)),
    gcByKind: byKind,
    slowest,
    slowestWithGc,
  };
}

function gcKind(kind: number | undefined): string {
  // perf_hooks.constants: NODE_PERFORMANCE_GC_MAJOR 4, MINOR 1, INCREMENTAL 8, WEAKCB 16
  return kind === 1 ? 'minor' : kind === 4 ? 'major' : kind === 8 ? 'incremental' : kind === 16 ? 'weakcb' : `kind${String(kind)}`;
}
