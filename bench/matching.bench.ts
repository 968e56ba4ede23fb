/**
 * Bench "matching" (orders/s): one seeded mixed flow (limit inserts around a mid, ~30% of them marketable
 * and half of those immediate-or-cancel, ~20% of operations cancels of live orders; see order-flow.ts) pushed
 * through src/sim/matching's MatchingEngine and, as the baseline, through the npm package nodejs-order-book
 * 10.1.1 (limit() and cancel(), integer prices).
 * Both engines get the flow pregenerated (request objects built before timing), a warm-up run on a
 * different seed, then RUNS timed runs on fresh instances; the reported value is the median. The trade
 * counts of the two engines must agree (same price-time priority on the same flow), which checks the
 * comparison is like for like. Wall-clock is the reported value; operations per CPU-second and the load
 * average are extra fields because this machine is shared and wall time suffers when it is busy.
 */
import os from 'node:os';
import { OrderBook, Side as NobSide } from 'nodejs-order-book';
import type { LimitOrderOptions } from 'nodejs-order-book';
import { MatchingEngine } from '../src/sim/matching/index.ts';
import type { OrderRequest, OrderTerms } from '../src/sim/matching/index.ts';
import type { BenchResult } from './bench-result.ts';
import { makeFlow, OP_INSERT } from './order-flow.ts';
import type { OrderFlow } from './order-flow.ts';

const OPERATIONS = 1_200_000;
const WARMUP_OPERATIONS = 300_000;
const RUNS = 3;
const SEED = 20240601;
const ACCOUNTS = 64;

interface RunStats {
  seconds: number;
  /** Process CPU seconds (all threads, GC helpers included) during the run. */
  cpuSeconds: number;
  trades: number;
  failedCancels: number;
}

function engineInputs(flow: OrderFlow): Array<OrderRequest | undefined> {
  const reqs: Array<OrderRequest | undefined> = new Array(flow.length);
  for (let i = 0; i < flow.length; i++) {
    if (flow.kind[i] !== OP_INSERT) continue;
    reqs[i] = {
      symbol: 'EVT-BENCH',
      side: flow.isBuy[i] === 1 ? 'SIDE_BUY' : 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: flow.qty[i] as number,
      price: flow.price[i] as number,
      timeInForce: flow.ioc[i] === 1 ? 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' : 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      account: `firms/bench/accounts/a${i % ACCOUNTS}`,
      clordId: `c${i}`,
    };
  }
  return reqs;
}

function runEngine(flow: OrderFlow, reqs: Array<OrderRequest | undefined>): RunStats {
  let tick = 1_700_000_000_000;
  const engine = new MatchingEngine({ clock: { now: () => tick++ } });
  engine.addInstrument({ symbol: 'EVT-BENCH', tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 99, priceScale: 100 });
  // Like a client, keep the acknowledged order only while it may still be cancelled, then let it go.
  const placed: Array<OrderTerms | undefined> = new Array(flow.length);
  const kind = flow.kind;
  const target = flow.target;
  const keep = flow.cancelled;
  let trades = 0;
  let failedCancels = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < flow.length; i++) {
    if (kind[i] === OP_INSERT) {
      const res = engine.submit(reqs[i] as OrderRequest);
      if (keep[i] === 1) placed[i] = (res.executions[0] as { order: OrderTerms }).order;
      trades += res.trades.length;
    } else {
      const j = target[i] as number;
      const res = engine.cancel({ orderId: (placed[j] as OrderTerms).orderId });
      placed[j] = undefined;
      if (res.cancelRejects.length > 0) failedCancels++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, trades, failedCancels };
}

function baselineInputs(flow: OrderFlow): { opts: Array<LimitOrderOptions | undefined>; ids: string[] } {
  const opts: Array<LimitOrderOptions | undefined> = new Array(flow.length);
  const ids: string[] = new Array(flow.length);
  for (let i = 0; i < flow.length; i++) {
    if (flow.kind[i] !== OP_INSERT) continue;
    ids[i] = `o${i}`;
    opts[i] = {
      id: `o${i}`,
      side: flow.isBuy[i] === 1 ? NobSide.BUY : NobSide.SELL,
      size: flow.qty[i] as number,
      price: flow.price[i] as number,
      timeInForce: (flow.ioc[i] === 1 ? 'IOC' : 'GTC') as LimitOrderOptions['timeInForce'],
    };
  }
  return { opts, ids };
}

function runBaseline(flow: OrderFlow, inputs: { opts: Array<LimitOrderOptions | undefined>; ids: string[] }): RunStats {
  const ob = new OrderBook();
  const { opts, ids } = inputs;
  const kind = flow.kind;
  const target = flow.target;
  let trades = 0;
  let failedCancels = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < flow.length; i++) {
    if (kind[i] === OP_INSERT) {
      const o = opts[i] as LimitOrderOptions;
      const res = ob.limit(o);
      // Makers touched = filled makers in `done` plus a partially filled maker (the taker may be in either).
      const done = res.done;
      for (let k = 0; k < done.length; k++) if ((done[k] as { id: string }).id !== o.id) trades++;
      if (res.partial !== null && res.partial.id !== o.id) trades++;
    } else {
      if (ob.cancel(ids[target[i] as number] as string) === undefined) failedCancels++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, trades, failedCancels };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export default async function matchingBench(): Promise<BenchResult> {
  const warm = makeFlow({ seed: SEED + 1, operations: WARMUP_OPERATIONS });
  const flow = makeFlow({ seed: SEED, operations: OPERATIONS });

  runEngine(warm, engineInputs(warm));
  const reqs = engineInputs(flow);
  const engineRuns: RunStats[] = [];
  for (let r = 0; r < RUNS; r++) engineRuns.push(runEngine(flow, reqs));

  runBaseline(warm, baselineInputs(warm));
  const inputs = baselineInputs(flow);
  const baseRuns: RunStats[] = [];
  for (let r = 0; r < RUNS; r++) baseRuns.push(runBaseline(flow, inputs));

  const value = Math.round(flow.length / median(engineRuns.map((s) => s.seconds)));
  const baselineValue = Math.round(flow.length / median(baseRuns.map((s) => s.seconds)));
  const mine = engineRuns[0] as RunStats;
  const theirs = baseRuns[0] as RunStats;
  if (mine.trades !== theirs.trades || mine.failedCancels !== theirs.failedCancels) {
    throw new Error(
      `the engines disagree on the flow (trades ${mine.trades} vs ${theirs.trades}, ` +
        `failed cancels ${mine.failedCancels} vs ${theirs.failedCancels}): the comparison is not like for like`,
    );
  }
  return {
    bench: 'matching',
    unit: 'orders/s',
    value,
    baseline: 'nodejs-order-book 10.1.1',
    baselineValue,
    ratio: Math.round((value / baselineValue) * 100) / 100,
    operations: flow.length,
    inserts: flow.inserts,
    cancels: flow.cancels,
    marketableInserts: flow.marketable,
    trades: mine.trades,
    baselineTrades: theirs.trades,
    failedCancels: mine.failedCancels,
    baselineFailedCancels: theirs.failedCancels,
    runs: RUNS,
    runValues: engineRuns.map((s) => Math.round(flow.length / s.seconds)),
    baselineRunValues: baseRuns.map((s) => Math.round(flow.length / s.seconds)),
    // Operations per CPU-second: steadier than wall time when the machine is shared.
    cpuValue: Math.round(flow.length / median(engineRuns.map((s) => s.cpuSeconds))),
    baselineCpuValue: Math.round(flow.length / median(baseRuns.map((s) => s.cpuSeconds))),
    loadAverage1m: Math.round(os.loadavg()[0] ?? 0),
  };
}
