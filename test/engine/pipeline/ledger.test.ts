/**
 * The execution adapter's ledger over the OrderTracker: what the adapter records lands in the tracker, what it
 * asks is read from there, and answers for orders the tracker no longer knows are ignored (never thrown).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { trackerLedger } from '../../../src/engine/pipeline/ledger.ts';
import { SYMBOL, T0, d, request } from '../orders/fixtures.ts';

describe('trackerLedger', () => {
  it('records submissions, acknowledgements and cancels in the tracker and reads them back', () => {
    const tracker = new OrderTracker({ clock: new VirtualClock(T0) });
    const ledger = trackerLedger(tracker);
    ledger.submitted(request(), { intentId: 'i1' });
    expect(ledger.stateOf('c1')).toBe('PENDING_NEW');
    ledger.acknowledged('c1', 'O1');
    expect([ledger.orderIdOf('c1'), ledger.symbolOf('c1'), ledger.stateOf('c1')]).toEqual(['O1', SYMBOL, 'NEW']);
    expect(ledger.openClordIds(SYMBOL)).toEqual(['c1']);
    expect(ledger.openClordIds('OTHER')).toEqual([]);
    ledger.cancelRequested('c1');
    expect(ledger.stateOf('c1')).toBe('PENDING_CANCEL');
    ledger.requestFailed?.('c1', 'cancel', new Error('refused'));
    expect(ledger.stateOf('c1')).toBe('NEW');
  });

  it('a replace in flight: the order still goes by its current id', () => {
    const tracker = new OrderTracker({ clock: new VirtualClock(T0) });
    const ledger = trackerLedger(tracker);
    ledger.submitted(request(), {});
    ledger.acknowledged('c1', 'O1');
    const replace = { kind: 'replace', intentId: 'i2', strategy: 't', time: T0, clordId: 'c1', newClordId: 'c2' } as const;
    ledger.replaceRequested({ ...replace, price: d('0.51'), qty: undefined });
    expect(ledger.stateOf('c2')).toBe('PENDING_REPLACE');
    expect(ledger.currentClordIdOf?.('c2')).toBe('c1');
  });

  it('answers for orders the tracker does not know are ignored', () => {
    const ledger = trackerLedger(new OrderTracker({ clock: new VirtualClock(T0) }));
    expect(() => ledger.acknowledged('gone', 'O9')).not.toThrow();
    expect(() => ledger.sendFailed('gone', new Error('x'))).not.toThrow();
    expect(() => ledger.requestFailed?.('gone', 'replace', new Error('x'))).not.toThrow();
    expect([ledger.stateOf('gone'), ledger.orderIdOf('gone'), ledger.symbolOf('gone')]).toEqual([undefined, undefined, undefined]);
  });
});
