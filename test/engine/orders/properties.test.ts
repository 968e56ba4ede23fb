// Property tests of the OrderTracker: for a random order life (random fills summing to at most the order
// quantity, then possibly a cancel), any shuffling and duplication of its executions, with the insert
// response anywhere among them, ends in the same state and filled quantity as the in-order sequence; the
// sum of the Fill events equals the filled quantity (no double counting), the order is never over-filled,
// its filled quantity never decreases and a terminal state never changes. With per-price levels on the
// executions the fill notional is exact too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/domain/decimal.ts';
import type { Execution, PriceQty } from '../../../src/domain/index.ts';
import type { TrackedState } from '../../../src/engine/orders/index.ts';
import { d, execution, recordedTracker, request } from './fixtures.ts';

interface Life {
  readonly unit: Decimal;
  readonly qty: Decimal;
  readonly fills: readonly { readonly qty: Decimal; readonly px: Decimal }[];
  readonly cancel: boolean;
  readonly withLevels: boolean;
}

const lifeArb: fc.Arbitrary<Life> = fc
  .record({
    unit: fc.constantFrom(d(1), d('0.01')),
    units: fc.integer({ min: 1, max: 40 }),
    raw: fc.array(fc.record({ q: fc.integer({ min: 1, max: 15 }), cents: fc.integer({ min: 1, max: 99 }) }), { maxLength: 8 }),
    cancel: fc.boolean(),
    withLevels: fc.boolean(),
  })
  .map(({ unit, units, raw, cancel, withLevels }) => {
    let remaining = units;
    const fills: { qty: Decimal; px: Decimal }[] = [];
    for (const { q, cents } of raw) {
      if (remaining === 0) break;
      const take = Math.min(q, remaining);
      remaining -= take;
      fills.push({ qty: unit.times(take), px: new Decimal(cents).div(100) });
    }
    return { unit, qty: unit.times(units), fills, cancel: cancel && remaining > 0, withLevels };
  });

/** The in-order executions of a life: NEW, one per fill, then CANCELED when cancelled. */
function executionsOf(life: Life): Execution[] {
  const base = { orderQty: life.qty, price: d('0.99') };
  const out: Execution[] = [execution('E0', {}, { ...base, leavesQty: life.qty })];
  let cum = ZERO;
  let notional = ZERO;
  const levels = new Map<string, PriceQty>();
  life.fills.forEach((fill, i) => {
    cum = cum.plus(fill.qty);
    notional = notional.plus(fill.qty.times(fill.px));
    const key = fill.px.toFixed();
    levels.set(key, { px: fill.px, qty: (levels.get(key)?.qty ?? ZERO).plus(fill.qty) });
    const full = cum.eq(life.qty);
    out.push(
      execution(
        `E${i + 1}`,
        {
          type: full ? 'EXECUTION_TYPE_FILL' : 'EXECUTION_TYPE_PARTIAL_FILL',
          lastPx: fill.px,
          lastShares: fill.qty,
          transactTime: 1000 + i,
        },
        {
          ...base,
          state: full ? 'ORDER_STATE_FILLED' : 'ORDER_STATE_PARTIALLY_FILLED',
          cumQty: cum,
          leavesQty: life.qty.minus(cum),
          // the wire rounds avg_px to the price scale (cents here)
          avgPx: notional.div(cum).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN),
          priceToQuantityFilled: life.withLevels ? [...levels.values()].sort((a, b) => a.px.comparedTo(b.px)) : [],
        },
      ),
    );
  });
  if (life.cancel) {
    const last = out.at(-1)?.order ?? execution('x').order;
    out.push(execution(`E${out.length}`, { type: 'EXECUTION_TYPE_CANCELED' }, { ...last, state: 'ORDER_STATE_CANCELED', leavesQty: ZERO }));
  }
  return out;
}

function expectedState(life: Life): TrackedState {
  const filled = life.fills.reduce((sum, f) => sum.plus(f.qty), ZERO);
  if (filled.eq(life.qty)) return 'FILLED';
  if (life.cancel) return 'CANCELED';
  return filled.gt(0) ? 'PARTIALLY_FILLED' : 'NEW';
}

const RANK: Record<TrackedState, number> = {
  PENDING_NEW: 0,
  NEW: 1,
  PARTIALLY_FILLED: 2,
  PENDING_CANCEL: 1,
  PENDING_REPLACE: 1,
  UNKNOWN: 1,
  FILLED: 3,
  CANCELED: 3,
  REJECTED: 3,
  EXPIRED: 3,
};

type Step = { readonly kind: 'ack' } | { readonly kind: 'exec'; readonly exec: Execution };

function run(life: Life, steps: readonly Step[]) {
  const rec = recordedTracker();
  rec.tracker.submitted(request({ qty: life.qty, price: d('0.99') }));
  for (const step of steps) {
    if (step.kind === 'ack') rec.tracker.acknowledged('c1', 'O1');
    else rec.tracker.applyExecution(step.exec);
  }
  const view = rec.tracker.get('c1');
  if (view === undefined) throw new Error('order lost');
  const fillQty = rec.fills.reduce((sum, f) => sum.plus(f.qty), ZERO);
  const fillNotional = rec.fills.reduce((sum, f) => sum.plus(f.qty.times(f.price)), ZERO);
  return { ...rec, view, fillQty, fillNotional };
}

/** A life plus a shuffled, duplicated delivery of its steps. */
const scenarioArb = lifeArb.chain((life) => {
  const execs = executionsOf(life);
  const steps: Step[] = [{ kind: 'ack' }, ...execs.map((exec): Step => ({ kind: 'exec', exec }))];
  return fc
    .array(fc.nat({ max: execs.length - 1 }), { maxLength: 10 })
    .chain((dups) => {
      const all = [...steps, ...dups.map((i): Step => ({ kind: 'exec', exec: execs[i] ?? execs[0]! }))];
      return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
    })
    .map((delivery) => ({ life, inOrder: steps, delivery }));
});

describe('OrderTracker properties', () => {
  it('any shuffling and duplication of an order life ends like the in-order sequence', () => {
    fc.assert(
      fc.property(scenarioArb, ({ life, inOrder, delivery }) => {
        const ref = run(life, inOrder);
        const got = run(life, delivery);
        const filled = life.fills.reduce((sum, f) => sum.plus(f.qty), ZERO);

        expect(ref.view.state).toBe(expectedState(life));
        expect(got.view.state).toBe(ref.view.state);
        expect(got.view.filledQty.eq(ref.view.filledQty)).toBe(true);
        expect(ref.view.filledQty.eq(filled)).toBe(true);
        // the fills add up to the filled quantity: nothing missed, nothing counted twice
        expect(got.fillQty.eq(filled)).toBe(true);
        expect(ref.fillQty.eq(filled)).toBe(true);
        expect(new Set(got.fills.map((f) => f.fillId)).size).toBe(got.fills.length);
        // in order, every fill is exactly its execution
        expect(ref.fills.every((f) => f.priceSource === 'lastPx')).toBe(true);
        const exact = life.fills.reduce((sum, f) => sum.plus(f.qty.times(f.px)), ZERO);
        expect(ref.fillNotional.eq(exact)).toBe(true);
        if (life.withLevels) expect(got.fillNotional.eq(exact)).toBe(true);
        // never over-filled, never backwards
        let lastFilled = ZERO;
        let lastRank = 0;
        for (const update of got.updates) {
          expect(update.order.filledQty.lte(life.qty)).toBe(true);
          expect(update.order.filledQty.gte(lastFilled)).toBe(true);
          expect(RANK[update.order.state]).toBeGreaterThanOrEqual(lastRank);
          lastFilled = update.order.filledQty;
          lastRank = RANK[update.order.state];
        }
        expect(got.issues.filter((i) => i.kind === 'overfill')).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('delivering the whole sequence twice adds nothing the second time', () => {
    fc.assert(
      fc.property(lifeArb, (life) => {
        const steps: Step[] = [{ kind: 'ack' }, ...executionsOf(life).map((exec): Step => ({ kind: 'exec', exec }))];
        const once = run(life, steps);
        const twice = run(life, [...steps, ...steps]);
        expect(twice.fills).toEqual(once.fills);
        expect(twice.updates.length).toBe(once.updates.length);
      }),
      { numRuns: 100 },
    );
  });
});
