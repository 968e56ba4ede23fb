// Cancel-replace: PENDING_REPLACE, the new clordId (old ones stay aliases), terms only from evidence at
// least as new, replace rejects, and a replace down to the filled quantity finishing the order.
import { describe, expect, it } from 'vitest';
import { OrderTrackerErrorCode } from '../../../src/engine/orders/index.ts';
import { ackedTracker, cancelReject, d, execution, fillExec, installDecimalEquality } from './fixtures.ts';

installDecimalEquality();

const replaced = (id: string, clordId: string, price: string, qty: number, extra: object = {}) =>
  execution(id, { type: 'EXECUTION_TYPE_REPLACE' }, { clordId, price: d(price), orderQty: d(qty), leavesQty: d(qty), ...extra });

describe('replace', () => {
  it('a replace request is PENDING_REPLACE and the new clordId already finds the order', () => {
    const { tracker, updates } = ackedTracker();
    tracker.replaceRequested('c1', 'c2', d('0.52'), d(12));
    expect(tracker.get('c2')).toMatchObject({
      clordId: 'c1',
      state: 'PENDING_REPLACE',
      price: d('0.50'),
      pendingReplace: { clordId: 'c2', price: d('0.52'), qty: d(12) },
    });
    expect(updates.at(-1)).toMatchObject({ previousState: 'NEW', cause: { kind: 'replaceRequested', newClordId: 'c2' } });
  });

  it('the REPLACE execution gives the new clordId and terms; the old clordId stays an alias', () => {
    const { tracker } = ackedTracker();
    tracker.replaceRequested('c1', 'c2', d('0.52'), d(12));
    tracker.applyExecution(replaced('E2', 'c2', '0.52', 12));
    const view = tracker.get('c1');
    expect(view).toMatchObject({
      clordId: 'c2',
      clordIds: ['c1', 'c2'],
      state: 'NEW',
      price: d('0.52'),
      qty: d(12),
      leavesQty: d(12),
      pendingReplace: undefined,
    });
    expect(tracker.byOrderId('O1')?.clordId).toBe('c2');
  });

  it('a stale execution from before the replace does not bring back the old terms', () => {
    const { tracker } = ackedTracker();
    tracker.replaceRequested('c1', 'c2', d('0.52'), undefined);
    tracker.applyExecution(replaced('E3', 'c2', '0.52', 10));
    tracker.applyExecution(fillExec('E2', { cum: 2, lastPx: '0.50', lastShares: 2, avgPx: '0.50' }, { clordId: 'c1', price: d('0.50') }));
    expect(tracker.get('c2')).toMatchObject({ clordId: 'c2', price: d('0.52'), filledQty: d(2), state: 'PARTIALLY_FILLED' });
  });

  it('a fill carrying the new clordId confirms the replace even if the REPLACE execution is late', () => {
    const { tracker } = ackedTracker();
    tracker.replaceRequested('c1', 'c2', d('0.52'), undefined);
    tracker.applyExecution(fillExec('E3', { cum: 2, lastPx: '0.52', lastShares: 2, avgPx: '0.52' }, { clordId: 'c2', price: d('0.52') }));
    expect(tracker.get('c1')).toMatchObject({ clordId: 'c2', state: 'PARTIALLY_FILLED', price: d('0.52'), pendingReplace: undefined });
    tracker.applyExecution(replaced('E2', 'c2', '0.52', 10, { cumQty: d(0) }));
    expect(tracker.get('c1')).toMatchObject({ state: 'PARTIALLY_FILLED', filledQty: d(2) });
  });

  it('a replace reject goes back and forgets the new clordId', () => {
    const { tracker } = ackedTracker();
    tracker.replaceRequested('c1', 'c2', d('0.52'), undefined);
    tracker.applyCancelReject(cancelReject({ isReplace: true, rejectReason: 'CXL_REJ_REASON_DUPLICATE_CLORD_ID' }));
    expect(tracker.get('c1')).toMatchObject({ state: 'NEW', clordId: 'c1', pendingReplace: undefined, price: d('0.50') });
    expect(tracker.get('c2')).toBeUndefined();
    expect(tracker.replaceRequested('c1', 'c2', d('0.53'), undefined).state).toBe('PENDING_REPLACE');
  });

  it('a replace down to the filled quantity finishes the order as FILLED', () => {
    const { tracker } = ackedTracker();
    tracker.applyExecution(fillExec('E2', { cum: 4, lastPx: '0.50', lastShares: 4, avgPx: '0.50' }));
    tracker.replaceRequested('c1', 'c2', undefined, d(4));
    tracker.applyExecution(
      replaced('E3', 'c2', '0.50', 4, { state: 'ORDER_STATE_FILLED', cumQty: d(4), avgPx: d('0.50'), leavesQty: d(0) }),
    );
    expect(tracker.get('c2')).toMatchObject({ state: 'FILLED', qty: d(4), filledQty: d(4), leavesQty: d(0) });
  });

  it('a replace to a clordId already in use throws DUPLICATE_CLORD_ID', () => {
    const { tracker } = ackedTracker();
    expect(() => tracker.replaceRequested('c1', 'c1')).toThrow(expect.objectContaining({ code: OrderTrackerErrorCode.DUPLICATE_CLORD_ID }));
  });
});
