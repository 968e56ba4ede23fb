// Snapshot reconciliation and adoption: unknown orders adopted (their history is not a new fill), known
// orders updated (missed fills recovered), known working orders missing from the snapshot marked UNKNOWN,
// unacknowledged inserts left alone; executions of unknown orders; stream lifecycle; event ordering.
import { describe, expect, it } from 'vitest';
import { ackedTracker, d, execution, fillExec, installDecimalEquality, order, recordedTracker, request } from './fixtures.ts';

installDecimalEquality();

const lvl = (px: string, qty: number) => ({ px: d(px), qty: d(qty) });

describe('snapshot', () => {
  it('adopts orders it did not know, without counting their past fills as new', () => {
    const { tracker, fills, updates } = recordedTracker();
    tracker.onStreamEvent({
      type: 'snapshot',
      sessionId: 's1',
      orders: [
        order({
          id: 'O7',
          clordId: 'old-7',
          side: 'SIDE_SELL',
          state: 'ORDER_STATE_PARTIALLY_FILLED',
          cumQty: d(3),
          avgPx: d('0.61'),
          price: d('0.60'),
        }),
      ],
    });
    expect(tracker.get('old-7')).toMatchObject({
      orderId: 'O7',
      side: 'SELL',
      state: 'PARTIALLY_FILLED',
      filledQty: d(3),
      leavesQty: d(7),
      adopted: true,
      avgPx: d('0.61'),
    });
    expect(fills).toEqual([]);
    expect(updates[0]).toMatchObject({ previousState: undefined, cause: { kind: 'snapshot', sessionId: 's1', outcome: 'adopted' } });
  });

  it('updates known orders from it, recovering fills missed while disconnected', () => {
    const { tracker, fills } = ackedTracker();
    tracker.onStreamEvent({ type: 'disconnected', attempt: 1, reason: 'error', error: undefined, willReconnect: true, retryInMs: 100 });
    expect(tracker.stale).toBe(true);
    tracker.onStreamEvent({ type: 'connected', attempt: 2 });
    tracker.onStreamEvent({
      type: 'snapshot',
      sessionId: 's2',
      orders: [
        order({
          state: 'ORDER_STATE_PARTIALLY_FILLED',
          cumQty: d(5),
          avgPx: d('0.494'),
          priceToQuantityFilled: [lvl('0.49', 3), lvl('0.50', 2)],
        }),
      ],
    });
    expect(tracker.stale).toBe(false);
    expect(tracker.get('c1')).toMatchObject({ state: 'PARTIALLY_FILLED', filledQty: d(5) });
    expect(fills.map((f) => [f.fillId, f.qty.toFixed(), f.price.toFixed(), f.executionId, f.aggressor])).toEqual([
      ['snapshot:O1:5#1', '3', '0.49', undefined, undefined],
      ['snapshot:O1:5#2', '2', '0.5', undefined, undefined],
    ]);
    // the executions replayed after the snapshot are stale now
    tracker.applyExecution(fillExec('E2', { cum: 3, lastPx: '0.49', lastShares: 3, avgPx: '0.49' }));
    tracker.applyExecution(fillExec('E3', { cum: 5, lastPx: '0.50', lastShares: 2, avgPx: '0.494' }));
    expect(fills).toHaveLength(2);
  });

  it('marks known working orders missing from it UNKNOWN and leaves unacknowledged inserts alone', () => {
    const { tracker, updates } = ackedTracker();
    tracker.submitted(request({ clordId: 'c2' }));
    tracker.applySnapshot([], 's2');
    expect(tracker.get('c1')?.state).toBe('UNKNOWN');
    expect(tracker.get('c2')?.state).toBe('PENDING_NEW');
    expect(updates.at(-1)).toMatchObject({ previousState: 'NEW', cause: { kind: 'snapshot', outcome: 'missing' } });
    expect(tracker.needingLookup().map((o) => o.clordId)).toEqual(['c1']);
    expect(tracker.open()).toHaveLength(2);
  });

  it('an order missing from the snapshot comes back with its next execution', () => {
    const { tracker } = ackedTracker();
    tracker.applySnapshot([], 's2');
    tracker.applyExecution(execution('E5', { type: 'EXECUTION_TYPE_CANCELED' }, { state: 'ORDER_STATE_CANCELED', leavesQty: d(0) }));
    expect(tracker.get('c1')?.state).toBe('CANCELED');
  });

  it('an adopted order without a side is an issue, not a crash', () => {
    const { tracker, issues } = recordedTracker();
    tracker.applySnapshot([order({ id: 'O8', clordId: '', side: 'SIDE_UNDEFINED' })], 's1');
    expect(tracker.all()).toEqual([]);
    expect(issues).toEqual([{ kind: 'unusableOrder', orderId: 'O8', clordId: '', reason: 'side SIDE_UNDEFINED' }]);
  });
});

describe('executions of unknown orders', () => {
  it('are adopted, and the execution itself is a new fill', () => {
    const { tracker, fills } = recordedTracker();
    tracker.applyExecution(
      fillExec('E9', { cum: 6, lastPx: '0.40', lastShares: 2, avgPx: '0.45' }, { id: 'O9', clordId: '' }, { aggressor: true }),
    );
    expect(tracker.byOrderId('O9')).toMatchObject({ clordId: 'exchange:O9', filledQty: d(6), adopted: true, state: 'PARTIALLY_FILLED' });
    expect(fills).toEqual([expect.objectContaining({ fillId: 'E9', qty: d(2), price: d('0.40'), aggressor: true })]);
  });
});

describe('event ordering', () => {
  it('a subscriber that reacts by calling the tracker sees its events after the ones already queued', () => {
    const { tracker } = ackedTracker();
    const log: string[] = [];
    tracker.fills$.subscribe((f) => {
      log.push(`fill ${f.qty.toFixed()}`);
      tracker.cancelRequested('c1');
    });
    tracker.updates$.subscribe((u) => log.push(`update ${u.order.state}`));
    tracker.applyExecution(fillExec('E2', { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48' }));
    expect(log).toEqual(['fill 4', 'update PARTIALLY_FILLED', 'update PENDING_CANCEL']);
  });

  it('close() completes the observables', () => {
    const { tracker } = recordedTracker();
    let done = 0;
    tracker.updates$.subscribe({ complete: () => (done += 1) });
    tracker.fills$.subscribe({ complete: () => (done += 1) });
    tracker.close();
    expect(done).toBe(2);
  });
});
