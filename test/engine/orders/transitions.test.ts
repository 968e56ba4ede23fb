// OrderTracker state transitions, one behaviour per test: submission, acknowledgement, executions of each
// type, cancel requests and their rejects, insert failures, lookups; asserted on the emitted updates.
import { describe, expect, it } from 'vitest';
import { TradebotError } from '../../../src/errors.ts';
import { OrderTrackerErrorCode } from '../../../src/engine/orders/index.ts';
import {
  T0,
  ackedTracker,
  cancelReject,
  d,
  execution,
  fillExec,
  installDecimalEquality,
  order,
  recordedTracker,
  request,
} from './fixtures.ts';

installDecimalEquality();

describe('submission and acknowledgement', () => {
  it('a submitted order is PENDING_NEW with the request terms and intent', () => {
    const { tracker, updates } = recordedTracker();
    const view = tracker.submitted(request(), { intentId: 'i1', label: 'quote' });
    expect(view).toMatchObject({ clordId: 'c1', orderId: undefined, state: 'PENDING_NEW', side: 'BUY', qty: d(10), price: d('0.50') });
    expect(view).toMatchObject({ filledQty: d(0), leavesQty: d(10), intentId: 'i1', label: 'quote', createdAt: T0, adopted: false });
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ previousState: undefined, cause: { kind: 'submitted' } });
    expect(tracker.open().map((o) => o.clordId)).toEqual(['c1']);
  });

  it('the insert response makes it NEW and indexes the exchange order id', () => {
    const { tracker, updates, clock } = recordedTracker();
    tracker.submitted(request());
    clock.advanceTo(T0 + 5);
    tracker.acknowledged('c1', 'O1');
    expect(tracker.byOrderId('O1')).toMatchObject({ clordId: 'c1', state: 'NEW', updatedAt: T0 + 5, createdAt: T0 });
    expect(updates[1]).toMatchObject({ previousState: 'PENDING_NEW', cause: { kind: 'acknowledged' } });
  });

  it('a NEW execution before the insert response also acknowledges and names the order id', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request());
    tracker.applyExecution(execution('E1'));
    expect(tracker.get('c1')).toMatchObject({ state: 'NEW', orderId: 'O1' });
    tracker.acknowledged('c1', 'O1');
    expect(tracker.get('c1')?.state).toBe('NEW');
  });

  it('a different order id in the insert response is reported and the first one kept', () => {
    const { tracker, issues } = ackedTracker();
    tracker.acknowledged('c1', 'O9');
    expect(tracker.get('c1')?.orderId).toBe('O1');
    expect(issues).toEqual([{ kind: 'orderIdConflict', clordId: 'c1', known: 'O1', received: 'O9' }]);
  });
});

describe('executions', () => {
  it('a partial fill makes it PARTIALLY_FILLED and emits the fill before the update', () => {
    const { tracker, updates, fills } = ackedTracker();
    const seen: string[] = [];
    tracker.fills$.subscribe(() => seen.push('fill'));
    tracker.updates$.subscribe(() => seen.push('update'));
    tracker.applyExecution(
      fillExec(
        'E2',
        { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48' },
        {},
        { aggressor: true, commissionNotionalCollected: d('0.01') },
      ),
    );
    expect(tracker.get('c1')).toMatchObject({ state: 'PARTIALLY_FILLED', filledQty: d(4), leavesQty: d(6), avgPx: d('0.48') });
    expect(fills).toEqual([
      expect.objectContaining({
        fillId: 'E2',
        executionId: 'E2',
        qty: d(4),
        price: d('0.48'),
        aggressor: true,
        fee: d('0.01'),
        priceSource: 'lastPx',
        intentId: 'i1',
        account: 'firms/f1/accounts/a1',
        side: 'BUY',
      }),
    ]);
    expect(updates.at(-1)).toMatchObject({
      previousState: 'NEW',
      cause: { kind: 'execution', executionId: 'E2', executionType: 'EXECUTION_TYPE_PARTIAL_FILL' },
    });
    expect(seen).toEqual(['fill', 'update']);
  });

  it('a fill completes it: FILLED, no leaves, no longer open', () => {
    const { tracker } = ackedTracker();
    tracker.applyExecution(fillExec('E2', { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48' }));
    tracker.applyExecution(fillExec('E3', { cum: 10, lastPx: '0.50', lastShares: 6, avgPx: '0.492' }));
    expect(tracker.get('c1')).toMatchObject({ state: 'FILLED', filledQty: d(10), leavesQty: d(0), avgPx: d('0.492') });
    expect(tracker.open()).toEqual([]);
  });

  it('an exchange rejection is REJECTED with the reason text in the cause', () => {
    const { tracker, updates } = recordedTracker();
    tracker.submitted(request());
    tracker.applyExecution(
      execution('E1', { type: 'EXECUTION_TYPE_REJECTED', text: 'price out of bounds' }, { id: '', state: 'ORDER_STATE_REJECTED' }),
    );
    expect(tracker.get('c1')?.state).toBe('REJECTED');
    expect(updates.at(-1)?.cause).toEqual({
      kind: 'execution',
      executionId: 'E1',
      executionType: 'EXECUTION_TYPE_REJECTED',
      text: 'price out of bounds',
    });
  });

  it.each([
    ['EXECUTION_TYPE_EXPIRED', 'ORDER_STATE_EXPIRED'],
    ['EXECUTION_TYPE_DONE_FOR_DAY', 'ORDER_STATE_NEW'],
  ] as const)('%s makes it EXPIRED', (type, state) => {
    const { tracker } = ackedTracker();
    tracker.applyExecution(execution('E2', { type }, { state, leavesQty: d(0) }));
    expect(tracker.get('c1')).toMatchObject({ state: 'EXPIRED', leavesQty: d(0) });
  });

  it('an unsolicited cancel makes it CANCELED without a cancel request', () => {
    const { tracker } = ackedTracker();
    tracker.applyExecution(execution('E2', { type: 'EXECUTION_TYPE_CANCELED' }, { state: 'ORDER_STATE_CANCELED', leavesQty: d(0) }));
    expect(tracker.get('c1')?.state).toBe('CANCELED');
  });
});

describe('cancel', () => {
  it('a cancel request is PENDING_CANCEL, the cancel execution CANCELED', () => {
    const { tracker, updates } = ackedTracker();
    tracker.cancelRequested('c1');
    expect(tracker.get('c1')?.state).toBe('PENDING_CANCEL');
    expect(tracker.open()).toHaveLength(1);
    tracker.applyExecution(execution('E2', { type: 'EXECUTION_TYPE_CANCELED' }, { state: 'ORDER_STATE_CANCELED', leavesQty: d(0) }));
    expect(updates.map((u) => u.order.state)).toEqual(['PENDING_NEW', 'NEW', 'PENDING_CANCEL', 'CANCELED']);
  });

  it('a cancel reject goes back to the base state, which may have advanced meanwhile', () => {
    const { tracker, updates } = ackedTracker();
    tracker.cancelRequested('c1');
    tracker.applyExecution(fillExec('E2', { cum: 3, lastPx: '0.50', lastShares: 3, avgPx: '0.50' }));
    expect(tracker.get('c1')?.state).toBe('PENDING_CANCEL');
    tracker.applyCancelReject(cancelReject({ rejectReason: 'CXL_REJ_REASON_OTHER' }));
    expect(tracker.get('c1')?.state).toBe('PARTIALLY_FILLED');
    expect(updates.at(-1)).toMatchObject({
      previousState: 'PENDING_CANCEL',
      cause: { kind: 'cancelReject', isReplace: false, reason: 'CXL_REJ_REASON_OTHER' },
    });
  });

  it('a too-late cancel reject makes a still-working order UNKNOWN until its execution arrives', () => {
    const { tracker } = ackedTracker();
    tracker.cancelRequested('c1');
    tracker.applyCancelReject(cancelReject({ rejectReason: 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL' }));
    expect(tracker.get('c1')?.state).toBe('UNKNOWN');
    expect(tracker.needingLookup().map((o) => o.clordId)).toEqual(['c1']);
    tracker.applyExecution(fillExec('E2', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }));
    expect(tracker.get('c1')?.state).toBe('FILLED');
  });

  it('a cancel reject after the order filled leaves it FILLED', () => {
    const { tracker } = ackedTracker();
    tracker.cancelRequested('c1');
    tracker.applyExecution(fillExec('E2', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }));
    tracker.applyCancelReject(cancelReject({ rejectReason: 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL' }));
    expect(tracker.get('c1')?.state).toBe('FILLED');
  });

  it('a cancel request on a terminal order changes nothing', () => {
    const { tracker, updates } = ackedTracker();
    tracker.applyExecution(fillExec('E2', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }));
    const count = updates.length;
    expect(tracker.cancelRequested('c1').state).toBe('FILLED');
    expect(updates).toHaveLength(count);
  });

  it('a cancel reject no order matches is an issue', () => {
    const { tracker, issues } = ackedTracker();
    tracker.applyCancelReject(cancelReject({ clordId: 'zz', orderId: 'O99' }));
    expect(issues).toEqual([{ kind: 'unmatchedCancelReject', clordId: 'zz', orderId: 'O99' }]);
  });
});

describe('insert failures and lookups', () => {
  it('an insert refused by the exchange is REJECTED', () => {
    const { tracker, updates } = recordedTracker();
    tracker.submitted(request());
    const error = new TradebotError('GATEWAY_REJECTED', 'bad price', { kind: 'rejection' });
    expect(tracker.sendFailed('c1', error).state).toBe('REJECTED');
    expect(updates.at(-1)?.cause).toEqual({ kind: 'sendFailed', error });
  });

  it('an insert lost to connectivity is UNKNOWN; a lookup that finds it resumes tracking', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request());
    tracker.sendFailed('c1', new TradebotError('TRANSPORT_TIMEOUT', 'timed out', { kind: 'connectivity' }));
    expect(tracker.get('c1')?.state).toBe('UNKNOWN');
    tracker.lookupResult('c1', order({ state: 'ORDER_STATE_NEW' }));
    expect(tracker.get('c1')).toMatchObject({ state: 'NEW', orderId: 'O1' });
  });

  it('a lookup that does not find a never-acknowledged order closes it as REJECTED', () => {
    const { tracker, updates } = recordedTracker();
    tracker.submitted(request());
    tracker.sendFailed('c1', new Error('socket hang up'));
    tracker.lookupResult('c1', undefined);
    expect(tracker.get('c1')?.state).toBe('REJECTED');
    expect(updates.at(-1)?.cause).toEqual({ kind: 'lookup', found: false });
  });

  it('a lookup that does not find an acknowledged order closes it as CANCELED', () => {
    const { tracker } = ackedTracker();
    tracker.lookupResult('c1', undefined);
    expect(tracker.get('c1')?.state).toBe('CANCELED');
  });

  it('exchange evidence overrides a locally set rejection', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request());
    tracker.sendFailed('c1', new TradebotError('X', 'refused', { kind: 'rejection' }));
    tracker.applyExecution(fillExec('E2', { cum: 10, lastPx: '0.50', lastShares: 10, avgPx: '0.50' }));
    expect(tracker.get('c1')).toMatchObject({ state: 'FILLED', filledQty: d(10) });
  });
});

describe('misuse', () => {
  it('submitting a clordId twice throws DUPLICATE_CLORD_ID', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request());
    expect(() => tracker.submitted(request())).toThrow(expect.objectContaining({ code: OrderTrackerErrorCode.DUPLICATE_CLORD_ID }));
  });

  it('naming an unknown clordId throws UNKNOWN_ORDER', () => {
    const { tracker } = recordedTracker();
    expect(() => tracker.cancelRequested('nope')).toThrow(expect.objectContaining({ code: 'ORDER_TRACKER_UNKNOWN_ORDER' }));
    expect(() => tracker.acknowledged('nope', 'O1')).toThrow(expect.objectContaining({ code: 'ORDER_TRACKER_UNKNOWN_ORDER' }));
  });

  it('a submission without a usable side or quantity throws INVALID_SUBMISSION', () => {
    const { tracker } = recordedTracker();
    expect(() => tracker.submitted(request({ qty: d(0) }))).toThrow(expect.objectContaining({ code: 'ORDER_TRACKER_INVALID_SUBMISSION' }));
  });
});

describe('queries', () => {
  it('open(symbol) filters by symbol and counts() tallies states', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request({ clordId: 'a' }));
    tracker.submitted(request({ clordId: 'b', symbol: 'EVT-B' }));
    tracker.submitted(request({ clordId: 'c' }));
    tracker.sendFailed('c', new TradebotError('X', 'no', { kind: 'validation' }));
    expect(tracker.open('EVT-B').map((o) => o.clordId)).toEqual(['b']);
    expect(tracker.open().map((o) => o.clordId)).toEqual(['a', 'b']);
    const counts = tracker.counts();
    expect(counts).toMatchObject({ total: 3, open: 2 });
    expect(counts.byState.PENDING_NEW).toBe(2);
    expect(counts.byState.REJECTED).toBe(1);
  });

  it('views are frozen snapshots', () => {
    const { tracker } = ackedTracker();
    const view = tracker.get('c1');
    tracker.cancelRequested('c1');
    expect(view?.state).toBe('NEW');
    expect(Object.isFrozen(view)).toBe(true);
  });
});
