/**
 * The requests in flight kept on the tracker's records (src/engine/orders/in-flight.ts): a cancel or replace
 * of an order not acknowledged yet waits on the order (found by any id it has had), is released once the
 * acknowledgement names the order id, and is dropped when the order ends first; a cancel call on the wire is
 * known by every id of the order; and the worst terms risk counts while a replace is in flight (worst-terms.ts).
 */
import { describe, expect, it } from 'vitest';
import { atWorstTerms, standingOf, worstTerms } from '../../../src/engine/orders/index.ts';
import { ackedTracker, d, execution, recordedTracker, request } from './fixtures.ts';

describe('requests waiting for an acknowledgement', () => {
  it('a deferred cancel is released by the acknowledgement, under the order current id', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request(), {});
    tracker.cancelRequested('c1');
    tracker.requests.deferCancel('c1');
    expect(tracker.requests.hasWaiting).toBe(true);
    expect(tracker.requests.takeReleased()).toEqual([]); // no order id yet: still waiting
    tracker.acknowledged('c1', 'O1');
    expect(tracker.requests.takeReleased()).toEqual([{ clordId: 'c1', cancel: true, replaceOf: undefined }]);
    expect(tracker.requests.hasWaiting).toBe(false);
    expect(tracker.requests.takeReleased()).toEqual([]);
  });

  it('a deferred replace keeps the id it was asked with; its terms are the pending replace of the record', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request(), {});
    tracker.replaceRequested('c1', 'c2', d('0.55'), undefined);
    tracker.requests.deferReplace('c2', 'c1'); // found by the pending replace's id too
    expect(tracker.requests.waitingReplaceOf('c1')).toBe('c1');
    expect(tracker.requests.waitingReplaceOf('c2')).toBe('c1');
    expect(tracker.get('c1')?.pendingReplace).toMatchObject({ clordId: 'c2', qty: undefined });
    expect(tracker.get('c1')?.pendingReplace?.price?.toString()).toBe('0.55');
    expect(tracker.requests.takeAcknowledged('c1')).toEqual({ clordId: 'c1', cancel: false, replaceOf: 'c1' });
    expect(tracker.requests.takeAcknowledged('c1')).toBeUndefined();
  });

  it('what waits for an order that ends without an acknowledgement is dropped, not released', () => {
    const { tracker } = recordedTracker();
    tracker.submitted(request(), {});
    tracker.cancelRequested('c1');
    tracker.requests.deferCancel('c1');
    tracker.sendFailed('c1', Object.assign(new Error('refused'), { kind: 'rejection' }));
    tracker.onStreamEvent({
      type: 'execution',
      sessionId: 's1',
      execution: execution('E1', { type: 'EXECUTION_TYPE_REJECTED' }, { id: '', state: 'ORDER_STATE_REJECTED', leavesQty: d(0) }),
    });
    expect(tracker.get('c1')?.state).toBe('REJECTED');
    expect(tracker.requests.takeReleased()).toEqual([]);
    expect(tracker.requests.hasWaiting).toBe(false);
  });

  it('deferring for an order that is not tracked changes nothing', () => {
    const { tracker } = recordedTracker();
    tracker.requests.deferCancel('nope');
    tracker.requests.deferReplace('nope', 'nope');
    expect(tracker.requests.hasWaiting).toBe(false);
  });
});

describe('cancel calls on the wire', () => {
  it('are known by every id of the order until answered', () => {
    const { tracker } = ackedTracker();
    tracker.replaceRequested('c1', 'c2', d('0.55'), undefined);
    expect(tracker.requests.isCancelInFlight('c1')).toBe(false);
    tracker.requests.cancelSent('c1');
    expect([tracker.requests.isCancelInFlight('c1'), tracker.requests.isCancelInFlight('c2')]).toEqual([true, true]);
    tracker.requests.cancelAnswered('c2');
    expect(tracker.requests.isCancelInFlight('c1')).toBe(false);
    expect(tracker.requests.isCancelInFlight('unknown')).toBe(false);
  });
});

describe('standing of an order something waits for', () => {
  it('finished, cancelling or working by its tracked state', () => {
    expect(['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED', undefined].map((s) => standingOf(s as never))).toEqual(Array(5).fill('finished'));
    expect([standingOf('PENDING_CANCEL'), standingOf('UNKNOWN')]).toEqual(['cancelling', 'cancelling']);
    expect(['PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'PENDING_REPLACE'].map((s) => standingOf(s as never))).toEqual(
      Array(4).fill('working'),
    );
  });
});

describe('worst terms while a replace is in flight', () => {
  it('the larger of the old and the new leaves; the order itself when the replace does not raise them', () => {
    const { tracker } = ackedTracker(); // 10 @ 0.50
    tracker.replaceRequested('c1', 'c2', undefined, d(15));
    const raised = worstTerms(tracker.get('c1')!);
    expect([raised.leavesQty.toString(), raised.clordId, raised.pendingReplace?.clordId]).toEqual(['15', 'c1', 'c2']);
    const other = ackedTracker();
    other.tracker.replaceRequested('c1', 'c2', undefined, d(4));
    const lowered = other.tracker.get('c1')!;
    expect(worstTerms(lowered)).toBe(lowered);
  });

  it('the open orders as they are (same array) when no replace changes a quantity', () => {
    const { tracker } = ackedTracker();
    tracker.replaceRequested('c1', 'c2', d('0.45'), undefined);
    const open = tracker.open();
    expect(atWorstTerms(open)).toBe(open);
    tracker.replaceRequested('c2', 'c3', undefined, d(12));
    expect(atWorstTerms(tracker.open()).map((o) => o.leavesQty.toString())).toEqual(['12']);
  });
});
