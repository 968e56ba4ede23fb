/**
 * Bounded memory: the tracker keeps every open order and only the `finishedHistory` most recent finished
 * ones, so a day-long run, a soak or a long backtest does not grow with the number of orders. A late
 * execution for a forgotten order is recognised (issue `lateExecution`) and ignored: it is neither adopted as
 * an unknown order nor counted as a fill again. Orders closed only locally while the exchange knew them (a
 * lookup that missed them) are not forgotten until the exchange has the last word, so a fill it reports later
 * still counts; they are bounded too (the oldest beyond the history size are forgotten).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { OrderTracker, type Fill, type OrderUpdate, type TrackerIssue } from '../../../src/engine/orders/index.ts';
import { T0, d, execution, fillExec, installDecimalEquality, request } from './fixtures.ts';

installDecimalEquality();

function tracker(finishedHistory: number, dedupeCapacity = 100_000) {
  const t = new OrderTracker({ clock: new VirtualClock(T0), finishedHistory, dedupeCapacity });
  const fills: Fill[] = [];
  const issues: TrackerIssue[] = [];
  const updates: OrderUpdate[] = [];
  t.fills$.subscribe((f) => fills.push(f));
  t.issues$.subscribe((i) => issues.push(i));
  t.updates$.subscribe((u) => updates.push(u));
  return { t, fills, issues, updates };
}

/** Order n: submitted, acknowledged as O<n>, then filled completely by execution F<n> (10 @ 0.50). */
function fillOrder(t: OrderTracker, n: number): void {
  t.submitted(request({ clordId: `c${n}` }));
  t.acknowledged(`c${n}`, `O${n}`);
  t.applyExecution(fillExec(`F${n}`, { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }, { id: `O${n}`, clordId: `c${n}` }));
}

describe('the finished-order history', () => {
  it('keeps tracked orders bounded after many orders: open ones and the most recent finished ones only', () => {
    const { t, fills } = tracker(100);
    for (let n = 1; n <= 5000; n++) fillOrder(t, n);
    t.submitted(request({ clordId: 'open-1' }));
    expect(fills).toHaveLength(5000);
    expect(t.size).toBe(101);
    expect(t.all()).toHaveLength(101);
    expect(t.get('c1')).toBeUndefined();
    expect(t.byOrderId('O1')).toBeUndefined();
    expect(t.get('c4901')?.state).toBe('FILLED');
    expect(t.get('c4900')).toBeUndefined();
    expect(t.open().map((o) => o.clordId)).toEqual(['open-1']);
    expect(t.counts().open).toBe(1);
  });

  it('answers a lookup made just before an order is forgotten, a replace or a new order with the table as it is now', () => {
    const { t } = tracker(1);
    fillOrder(t, 1);
    // the lookups are remembered: the next change of the table must drop that answer
    expect(t.get('c1')?.state).toBe('FILLED');
    fillOrder(t, 2);
    expect(t.get('c1')).toBeUndefined();
    expect(t.get('c2')?.state).toBe('FILLED');
    // a clordId asked for before it existed
    expect(t.get('r1')).toBeUndefined();
    t.submitted(request({ clordId: 'r1' }));
    expect(t.get('r1')?.state).toBe('PENDING_NEW');
    // a replace target asked for before the replace
    t.acknowledged('r1', 'OR1');
    expect(t.get('r2')).toBeUndefined();
    t.replaceRequested('r1', 'r2', d('0.40'));
    expect(t.get('r2')?.clordId).toBe('r1');
  });

  it('never forgets an open order, however old', () => {
    const { t } = tracker(10);
    t.submitted(request({ clordId: 'old-quote' }));
    t.acknowledged('old-quote', 'O-old');
    for (let n = 1; n <= 200; n++) fillOrder(t, n);
    expect(t.get('old-quote')?.state).toBe('NEW');
    expect(t.size).toBe(11);
  });

  it('ignores a late execution for a forgotten order (not adopted, no second fill), even once its id left the dedupe window', () => {
    const { t, fills, issues, updates } = tracker(10, 5);
    for (let n = 1; n <= 50; n++) fillOrder(t, n);
    const before = { fills: fills.length, updates: updates.length };
    // the exchange repeats order 1's fill (its execution id long forgotten by the dedupe window), then a stray cancel
    t.applyExecution(fillExec('F1', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }, { id: 'O1', clordId: 'c1' }));
    t.applyExecution(execution('X1', { type: 'EXECUTION_TYPE_CANCELED' }, { id: 'O2', clordId: 'c2', state: 'ORDER_STATE_CANCELED' }));
    expect(fills).toHaveLength(before.fills);
    expect(updates).toHaveLength(before.updates);
    expect(t.get('c1')).toBeUndefined();
    expect(issues.filter((i) => i.kind === 'lateExecution')).toEqual([
      { kind: 'lateExecution', orderId: 'O1', clordId: 'c1', executionId: 'F1' },
      { kind: 'lateExecution', orderId: 'O2', clordId: 'c2', executionId: 'X1' },
    ]);
    // an order the tracker never knew is still adopted
    t.applyExecution(execution('N1', { type: 'EXECUTION_TYPE_NEW' }, { id: 'O-manual', clordId: 'manual' }));
    expect(t.get('manual')).toMatchObject({ adopted: true, state: 'NEW' });
  });

  it('keeps an order closed only locally (a lookup missed it) until the exchange has the last word', () => {
    const { t, fills } = tracker(5);
    t.submitted(request({ clordId: 'missed' }));
    t.acknowledged('missed', 'O-missed');
    t.lookupResult('missed', undefined);
    expect(t.get('missed')?.state).toBe('CANCELED');
    for (let n = 1; n <= 50; n++) fillOrder(t, n);
    expect(t.get('missed')?.state).toBe('CANCELED');
    // the exchange had filled it after all: the fill counts
    t.applyExecution(
      fillExec('F-missed', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }, { id: 'O-missed', clordId: 'missed' }),
    );
    expect(t.get('missed')?.state).toBe('FILLED');
    expect(fills.at(-1)).toMatchObject({ clordId: 'missed', qty: d(10) });
    // now final: forgotten like any other once newer orders finish
    for (let n = 51; n <= 60; n++) fillOrder(t, n);
    expect(t.get('missed')).toBeUndefined();
    expect(t.size).toBe(5);
  });

  it('bounds the orders closed only locally too: beyond the history size the oldest is forgotten, its late evidence ignored', () => {
    const { t, fills, issues } = tracker(3);
    for (let n = 1; n <= 20; n++) {
      t.submitted(request({ clordId: `gone${n}` }));
      t.acknowledged(`gone${n}`, `OG${n}`);
      t.lookupResult(`gone${n}`, undefined);
    }
    expect(t.size).toBe(3);
    expect(t.all().map((o) => o.clordId)).toEqual(['gone18', 'gone19', 'gone20']);
    expect(t.get('gone20')?.state).toBe('CANCELED');
    // the newest still take late evidence; the forgotten ones are recognised as late, not adopted, no fill
    t.applyExecution(fillExec('F-g20', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }, { id: 'OG20', clordId: 'gone20' }));
    expect(t.get('gone20')?.state).toBe('FILLED');
    t.applyExecution(fillExec('F-g1', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }, { id: 'OG1', clordId: 'gone1' }));
    expect(t.get('gone1')).toBeUndefined();
    expect(fills.map((f) => f.clordId)).toEqual(['gone20']);
    expect(issues.filter((i) => i.kind === 'lateExecution')).toHaveLength(1);
    expect(t.size).toBeLessThanOrEqual(3);
  });
});
