// Property tests: random sequences of submits, cancels, replaces and PREOPEN/OPEN switches, checked after
// every event against invariants and an independent model of the resting book:
//  - the book is never crossed while OPEN;
//  - quantity is conserved (cum + leaves = order_qty while working; filled + cancelled = ordered when done);
//  - price-time priority: every passive fill is the model's best-priced, earliest order on that side;
//  - no trade matches two orders of one account, or two orders sharing a self_match_prevention_id, when the
//    aggressor asked for prevention (orders carry random ids k1 / k2 / none across three accounts);
//  - cum_qty / cum_notional equal the sums over fills and avg_px is their VWAP exactly (to its decimals);
//  - the engine's depth and open orders equal the model's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from '../../../src/sim/matching/index.ts';
import type { EngineResult, Execution, OrderRequest, SelfMatchPrevention, TimeInForce, Trade } from '../../../src/sim/matching/index.ts';
import { eventContract, ManualClock, SYM } from './helpers.ts';

type Op =
  | { kind: 'submit'; req: OrderRequest }
  | { kind: 'cancel'; pick: number }
  | { kind: 'replace'; pick: number; price?: number; qty?: number }
  | { kind: 'state'; open: boolean };

const ACCOUNTS = ['a', 'b', 'c'];
const SMP: SelfMatchPrevention[] = [
  'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
  'SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR',
  'SELF_MATCH_PREVENTION_INSTRUCTION_CANCEL_RESTING',
  'SELF_MATCH_PREVENTION_INSTRUCTION_REMOVE_BOTH',
];
const TIFS: TimeInForce[] = [
  'TIME_IN_FORCE_DAY',
  'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  'TIME_IN_FORCE_DAY',
  'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  'TIME_IN_FORCE_FILL_OR_KILL',
];

const submitArb: fc.Arbitrary<Op> = fc
  .record({
    buy: fc.boolean(),
    price: fc.integer({ min: 45, max: 55 }),
    qty: fc.integer({ min: 1, max: 12 }),
    account: fc.constantFrom(...ACCOUNTS),
    tif: fc.constantFrom(...TIFS),
    smp: fc.option(fc.constantFrom(...SMP), { nil: undefined }),
    smpId: fc.constantFrom(undefined, undefined, 'k1', 'k2'),
    mtl: fc.constantFrom(false, false, false, false, false, false, true),
    flag: fc.constantFrom('none', 'none', 'none', 'pdi', 'minQty', 'aon'),
  })
  .map(({ buy, price, qty, account, tif, smp, smpId, mtl, flag }) => {
    const req: OrderRequest = {
      symbol: SYM,
      side: buy ? 'SIDE_BUY' : 'SIDE_SELL',
      type: mtl ? 'ORDER_TYPE_MARKET_TO_LIMIT' : 'ORDER_TYPE_LIMIT',
      orderQty: qty,
      account,
      timeInForce: tif,
    };
    if (!mtl) req.price = price;
    if (smp !== undefined) req.selfMatchPreventionInstruction = smp;
    if (smpId !== undefined) req.selfMatchPreventionId = smpId;
    if (flag === 'pdi' && !mtl) req.participateDontInitiate = true;
    if (flag === 'minQty') req.minQty = Math.max(1, Math.floor(qty / 2));
    if (flag === 'aon') req.allOrNone = true;
    return { kind: 'submit' as const, req };
  });

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: submitArb },
  { weight: 4, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'cancel' as const, pick })) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        pick: fc.nat(1000),
        price: fc.option(fc.integer({ min: 45, max: 55 }), { nil: undefined }),
        qty: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined }),
      })
      .map((r) => ({ kind: 'replace' as const, ...r })),
  },
  { weight: 1, arbitrary: fc.boolean().map((open) => ({ kind: 'state' as const, open })) },
);

interface Resting {
  id: string;
  isBuy: boolean;
  price: number;
  leaves: number;
  orderQty: number;
  priority: number;
}

interface Tally {
  qty: number;
  notional: bigint;
  orderQty: number;
  leaves: number;
}

/** An independent model of the resting book, driven only by the engine's executions. */
class Model {
  readonly resting = new Map<string, Resting>();
  readonly tallies = new Map<string, Tally>();
  readonly ids: string[] = [];
  private priority = 0;

  apply(res: EngineResult, uncross: boolean): void {
    const tradeOf = new Map<Execution, Trade>();
    for (const t of res.trades) {
      tradeOf.set(t.passive, t);
      tradeOf.set(t.aggressor, t);
    }
    const touched: Execution[] = [];
    for (const e of res.executions) {
      const id = e.order.orderId;
      if (e.type === 'EXECUTION_TYPE_NEW' || e.type === 'EXECUTION_TYPE_REJECTED') this.ids.push(id);
      this.checkTally(e);
      const isFill = e.type === 'EXECUTION_TYPE_FILL' || e.type === 'EXECUTION_TYPE_PARTIAL_FILL';
      if (isFill && !e.aggressor) this.checkPriority(e, tradeOf.get(e), uncross);
      if (isFill && e.aggressor) this.checkNoSelfMatch(tradeOf.get(e));
      const r = this.resting.get(id);
      if (r !== undefined) {
        if (e.type === 'EXECUTION_TYPE_REPLACE') {
          const keep = e.order.price === r.price && e.order.orderQty <= r.orderQty && e.leavesQty > 0;
          if (keep) {
            r.leaves = e.leavesQty;
            r.orderQty = e.order.orderQty;
          } else this.resting.delete(id);
        } else if (e.leavesQty === 0) this.resting.delete(id);
        else r.leaves = e.leavesQty;
      }
      touched.push(e);
    }
    // Orders that are working after the event and not yet in the model have just come to rest.
    const last = new Map<string, Execution>();
    for (const e of touched) last.set(e.order.orderId, e);
    for (const [id, e] of last) {
      const live = e.state === 'ORDER_STATE_NEW' || e.state === 'ORDER_STATE_PARTIALLY_FILLED';
      if (live && !this.resting.has(id)) {
        this.resting.set(id, {
          id,
          isBuy: e.order.side === 'SIDE_BUY',
          price: e.order.price as number,
          leaves: e.leavesQty,
          orderQty: e.order.orderQty,
          priority: ++this.priority,
        });
      }
    }
  }

  private checkTally(e: Execution): void {
    const id = e.order.orderId;
    let t = this.tallies.get(id);
    if (t === undefined) this.tallies.set(id, (t = { qty: 0, notional: 0n, orderQty: e.order.orderQty, leaves: e.leavesQty }));
    const previousLeaves = t.leaves;
    if (e.type === 'EXECUTION_TYPE_FILL' || e.type === 'EXECUTION_TYPE_PARTIAL_FILL') {
      t.qty += e.lastQty;
      t.notional += BigInt(e.lastPx) * BigInt(e.lastQty);
    }
    // Sums over fills.
    expect(e.cumQty).toBe(t.qty);
    expect(BigInt(e.cumNotional)).toBe(t.notional);
    expectExactVwap(e.avgPx, t.notional, t.qty);
    // Conservation.
    switch (e.state) {
      case 'ORDER_STATE_NEW':
      case 'ORDER_STATE_PARTIALLY_FILLED':
        expect(e.cumQty + e.leavesQty).toBe(e.order.orderQty);
        expect(e.leavesQty).toBeGreaterThan(0);
        break;
      case 'ORDER_STATE_FILLED':
        expect([e.leavesQty, e.cumQty]).toEqual([0, e.order.orderQty]);
        break;
      case 'ORDER_STATE_CANCELED':
      case 'ORDER_STATE_EXPIRED':
        // Filled + cancelled (the leaves just before) = ordered.
        expect(e.leavesQty).toBe(0);
        expect(e.cumQty + previousLeaves).toBe(e.order.orderQty);
        break;
      case 'ORDER_STATE_REJECTED':
        expect([e.cumQty, e.leavesQty]).toEqual([0, 0]);
        break;
      default:
        throw new Error(`unexpected state ${e.state}`);
    }
    t.leaves = e.leavesQty;
    t.orderQty = e.order.orderQty;
  }

  /** The passive order of a fill must be the best-priced, earliest order on its side. */
  private checkPriority(e: Execution, trade: Trade | undefined, uncross: boolean): void {
    expect(trade).toBeDefined();
    const passive = this.resting.get(e.order.orderId);
    expect(passive).toBeDefined();
    const aggrRest = this.resting.get((trade as Trade).aggressor.order.orderId);
    let best: Resting | undefined;
    for (const r of this.resting.values()) {
      if (r.isBuy !== passive?.isBuy) continue;
      // In an opening uncross only earlier orders are on the book when an order's turn comes.
      if (uncross && aggrRest !== undefined && r.priority > aggrRest.priority) continue;
      if (
        best === undefined ||
        (r.isBuy ? r.price > best.price : r.price < best.price) ||
        (r.price === best.price && r.priority < best.priority)
      ) {
        best = r;
      }
    }
    expect(best?.id).toBe(passive?.id);
    expect(trade?.price).toBe(passive?.price);
  }

  private checkNoSelfMatch(trade: Trade | undefined): void {
    const t = trade as Trade;
    const instr = t.aggressor.order.selfMatchPreventionInstruction;
    if (instr !== undefined && instr !== 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED') {
      // the same account never, whatever the ids; a shared id groups different accounts too
      expect(t.passive.order.account).not.toBe(t.aggressor.order.account);
      const id = t.aggressor.order.selfMatchPreventionId;
      if (id !== undefined) expect(t.passive.order.selfMatchPreventionId).not.toBe(id);
    }
  }

  depth(isBuy: boolean): Array<{ price: number; qty: number }> {
    const by = new Map<number, number>();
    for (const r of this.resting.values()) if (r.isBuy === isBuy) by.set(r.price, (by.get(r.price) ?? 0) + r.leaves);
    return [...by.entries()].sort((a, b) => (isBuy ? b[0] - a[0] : a[0] - b[0])).map(([price, qty]) => ({ price, qty }));
  }
}

/** avgPx (6 decimals, half up) equals notional / qty: |avg * qty - notional| <= qty / 2 in 1e-6 units. */
function expectExactVwap(avgPx: string, notional: bigint, qty: number): void {
  if (qty === 0) {
    expect(avgPx).toBe('0');
    return;
  }
  const [ip, fp = ''] = avgPx.split('.');
  expect(fp).toHaveLength(6);
  const scaled = BigInt(ip as string) * 1_000_000n + BigInt(fp);
  const diff = 2n * scaled * BigInt(qty) - 2_000_000n * notional;
  expect(diff <= BigInt(qty) && diff > -BigInt(qty)).toBe(true);
}

function run(ops: Op[]): void {
  const clock = new ManualClock();
  const engine = new MatchingEngine({ clock });
  engine.addInstrument(eventContract());
  const model = new Model();
  let open = true;
  for (const op of ops) {
    clock.advance(1);
    let res: EngineResult;
    let uncross = false;
    switch (op.kind) {
      case 'submit':
        res = engine.submit(op.req);
        break;
      case 'cancel': {
        const id = model.ids[op.pick % Math.max(1, model.ids.length)];
        res = engine.cancel({ orderId: id ?? 'none' });
        break;
      }
      case 'replace': {
        const id = model.ids[op.pick % Math.max(1, model.ids.length)];
        const r: Parameters<typeof engine.replace>[0] = { orderId: id ?? 'none' };
        if (op.price !== undefined) r.price = op.price;
        if (op.qty !== undefined) r.orderQty = op.qty;
        res = engine.replace(r);
        break;
      }
      case 'state':
        uncross = op.open && !open;
        open = op.open;
        res = engine.setInstrumentState(SYM, op.open ? 'INSTRUMENT_STATE_OPEN' : 'INSTRUMENT_STATE_PREOPEN');
        break;
    }
    model.apply(res, uncross);
    if (open) expect(engine.book(SYM).isCrossed()).toBe(false);
    const depth = engine.depth(SYM, 100);
    expect(depth.bids).toEqual(model.depth(true));
    expect(depth.offers).toEqual(model.depth(false));
    const open_ = engine.openOrders();
    expect(open_.length).toBe(model.resting.size);
    for (const o of open_) expect(o.leavesQty).toBe(model.resting.get(o.orderId)?.leaves);
  }
}

describe('matching properties', () => {
  it('hold over random sequences of submits, cancels, replaces and state switches', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 50, maxLength: 300 }), (ops) => run(ops)),
      { numRuns: 300 },
    );
  });

  it('hold when every order asks for self-match prevention', () => {
    const smpOps = fc.array(
      fc.oneof(
        {
          weight: 5,
          arbitrary: fc
            .tuple(submitArb, fc.constantFrom(...SMP.slice(1)))
            .map(([op, smp]) => (op.kind === 'submit' ? { ...op, req: { ...op.req, selfMatchPreventionInstruction: smp } } : op)),
        },
        { weight: 1, arbitrary: fc.nat(1000).map((pick) => ({ kind: 'cancel' as const, pick })) },
      ),
      { minLength: 50, maxLength: 300 },
    );
    fc.assert(
      fc.property(smpOps, (ops) => run(ops)),
      { numRuns: 150 },
    );
  });
});
