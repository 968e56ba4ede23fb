// Fills derived from cum_qty increases: duplicates and stale executions add nothing, missed partial fills
// are recovered with exact prices from last_px or the per-price levels, or estimated from avg_px.
import { describe, expect, it } from 'vitest';
import { deriveFills } from '../../../src/engine/orders/index.ts';
import { ZERO } from '../../../src/domain/decimal.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { ackedTracker, d, execution, fillExec, installDecimalEquality, request } from './fixtures.ts';

installDecimalEquality();

const lvl = (px: string, qty: number) => ({ px: d(px), qty: d(qty) });

describe('deduplication and stale executions', () => {
  it('the same execution id twice is applied once', () => {
    const { tracker, fills, updates } = ackedTracker();
    const e = fillExec('E2', { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48' });
    tracker.applyExecution(e);
    const count = updates.length;
    tracker.applyExecution(e);
    tracker.onStreamEvent({ type: 'execution', execution: e, sessionId: 's2' });
    expect(fills).toHaveLength(1);
    expect(updates).toHaveLength(count);
    expect(tracker.get('c1')?.filledQty).toEqual(d(4));
  });

  it('an execution id forgotten by the bounded dedupe set is still not counted twice', () => {
    const tracker = new OrderTracker({ clock: new VirtualClock(0), dedupeCapacity: 1 });
    const fills: unknown[] = [];
    tracker.fills$.subscribe((f) => fills.push(f));
    tracker.submitted(request());
    const e2 = fillExec('E2', { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48' });
    tracker.applyExecution(e2);
    tracker.applyExecution(fillExec('E3', { cum: 6, lastPx: '0.49', lastShares: 2, avgPx: '0.4833' }));
    tracker.applyExecution(e2);
    expect(fills).toHaveLength(2);
    expect(tracker.get('c1')?.filledQty).toEqual(d(6));
  });

  it('without a dedupe set (capacity 0, a venue that never repeats) a repeated execution still counts once', () => {
    const tracker = new OrderTracker({ clock: new VirtualClock(0), dedupeCapacity: 0 });
    const fills: unknown[] = [];
    const updates: unknown[] = [];
    tracker.fills$.subscribe((f) => fills.push(f));
    tracker.updates$.subscribe((u) => updates.push(u));
    tracker.submitted(request());
    const e2 = fillExec('E2', { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48' });
    tracker.applyExecution(e2);
    const count = updates.length;
    tracker.applyExecution(e2);
    expect(fills).toHaveLength(1);
    expect(updates).toHaveLength(count);
    expect(tracker.get('c1')?.filledQty).toEqual(d(4));
  });

  it('refuses a negative or fractional dedupe capacity', () => {
    expect(() => new OrderTracker({ clock: new VirtualClock(0), dedupeCapacity: -1 })).toThrow(/whole number >= 0, got -1/);
    expect(() => new OrderTracker({ clock: new VirtualClock(0), dedupeCapacity: 1.5 })).toThrow(/whole number >= 0, got 1.5/);
  });

  it('a stale execution with a lower cum_qty changes nothing', () => {
    const { tracker, fills, updates } = ackedTracker();
    tracker.applyExecution(
      fillExec('E3', { cum: 8, lastPx: '0.50', lastShares: 4, avgPx: '0.49', levels: [lvl('0.48', 4), lvl('0.50', 4)] }),
    );
    const count = updates.length;
    tracker.applyExecution(fillExec('E2', { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48', levels: [lvl('0.48', 4)] }));
    expect(updates).toHaveLength(count);
    expect(tracker.get('c1')).toMatchObject({ filledQty: d(8), state: 'PARTIALLY_FILLED' });
    expect(fills.map((f) => [f.qty.toFixed(), f.price.toFixed()])).toEqual([
      ['4', '0.48'],
      ['4', '0.5'],
    ]);
  });

  it('a NEW after a FILL never moves the order back', () => {
    const { tracker } = ackedTracker();
    tracker.applyExecution(fillExec('E3', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }));
    tracker.applyExecution(execution('E1'));
    expect(tracker.get('c1')).toMatchObject({ state: 'FILLED', filledQty: d(10), leavesQty: d(0) });
  });

  it('a fill that arrives after the cancel still counts, and the order stays CANCELED', () => {
    const { tracker, fills } = ackedTracker();
    tracker.applyExecution(
      execution(
        'E3',
        { type: 'EXECUTION_TYPE_CANCELED' },
        { state: 'ORDER_STATE_CANCELED', cumQty: d(4), leavesQty: ZERO, avgPx: d('0.45'), priceToQuantityFilled: [lvl('0.45', 4)] },
      ),
    );
    tracker.applyExecution(fillExec('E2', { cum: 4, lastPx: '0.45', lastShares: 4, avgPx: '0.45', levels: [lvl('0.45', 4)] }));
    expect(tracker.get('c1')).toMatchObject({ state: 'CANCELED', filledQty: d(4) });
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({
      qty: d(4),
      price: d('0.45'),
      priceSource: 'levels',
      fillId: 'E3',
      aggressor: undefined,
      fee: undefined,
    });
  });
});

describe('missed executions', () => {
  it('a FILL after a missed PARTIAL_FILL yields both fills exactly from the levels', () => {
    const { tracker, fills } = ackedTracker();
    tracker.applyExecution(
      fillExec('E3', { cum: 10, lastPx: '0.50', lastShares: 4, avgPx: '0.46', levels: [lvl('0.43', 6), lvl('0.50', 4)] }),
    );
    expect(fills.map((f) => [f.fillId, f.qty.toFixed(), f.price.toFixed(), f.priceSource])).toEqual([
      ['E3#1', '6', '0.43', 'levels'],
      ['E3#2', '4', '0.5', 'levels'],
    ]);
    expect(tracker.get('c1')).toMatchObject({ state: 'FILLED', filledQty: d(10), avgPx: d('0.458') });
  });

  it('without levels, the execution part is exact and the missed part estimated from avg_px (flagged)', () => {
    const { tracker, fills, issues } = ackedTracker();
    tracker.applyExecution(fillExec('E3', { cum: 10, lastPx: '0.50', lastShares: 4, avgPx: '0.458' }));
    expect(fills.map((f) => [f.qty.toFixed(), f.price.toFixed(), f.priceSource])).toEqual([
      ['4', '0.5', 'lastPx'],
      ['6', '0.43', 'avgPx'],
    ]);
    expect(issues).toEqual([expect.objectContaining({ kind: 'estimatedFillPrice', qty: d(6), price: d('0.43') })]);
  });

  it('an estimated buy price never exceeds the limit', () => {
    const fills = deriveFills(
      { filledQty: ZERO, notional: ZERO, levels: [] },
      { cumQty: d(10), avgPx: d('0.60'), levels: [], last: undefined, limit: d('0.50'), isBuy: true },
    );
    expect(fills).toEqual([{ qty: d(10), price: d('0.50'), source: 'avgPx' }]);
  });

  it('levels inconsistent with the increase fall back to avg_px', () => {
    const fills = deriveFills(
      { filledQty: d(2), notional: d('0.8'), levels: undefined },
      { cumQty: d(5), avgPx: d('0.42'), levels: [lvl('0.40', 2), lvl('0.43', 3)], last: undefined, limit: undefined, isBuy: true },
    );
    expect(fills).toEqual([{ qty: d(3), price: d('0.4333333333333333333333333333333333333333'), source: 'avgPx' }]);
  });
});
