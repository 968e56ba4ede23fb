// Cancels the engine decides itself (reconciliation) pass through risk: approved, counted in the message rate.
import { describe, expect, it } from 'vitest';
import type { ExecutionAdapter } from '../../../src/engine/execution/adapter.ts';
import type { CancelIntent } from '../../../src/engine/intents.ts';
import { approvedOf, cancel, context, manager, place, refusedOf } from './helpers.ts';

/** Compile-time check (never called): an intent that skipped risk is not accepted by the execution adapter. */
export function _skippingRiskDoesNotCompile(adapter: ExecutionAdapter, intent: CancelIntent): void {
  // @ts-expect-error a plain CancelIntent is not an Approved<Intent>
  adapter.submit(intent);
}

describe('engine cancels', () => {
  it('approves an engine cancel and counts it in the message-rate window', () => {
    const risk = manager({ maxMessagesPerSecond: 2 });
    const approved = risk.approveEngineCancel(cancel('zombie-1', 1000));
    expect(approved).toMatchObject({ kind: 'cancel', clordId: 'zombie-1' });
    risk.approveEngineCancel(cancel('zombie-2', 1000));
    // two messages already in the window ending at 1000: a place there is throttled
    expect(refusedOf(risk.check(place('BUY', 1, '0.40', { time: 1000 }), context({ now: 1000 }))).code).toBe('RISK_ORDER_RATE');
    // a second later the window has room again
    expect(approvedOf(risk.check(place('BUY', 1, '0.40', { time: 2000 }), context({ now: 2000 })))).toHaveLength(1);
  });

  it('approves engine cancels even when the rate is used up (refusing a cancel keeps risk on the book)', () => {
    const risk = manager({ maxMessagesPerSecond: 1 });
    expect(approvedOf(risk.check(place('BUY', 1, '0.40', { time: 0 }), context()))).toHaveLength(1);
    expect(risk.approveEngineCancel(cancel('zombie-1', 0))).toMatchObject({ kind: 'cancel', clordId: 'zombie-1' });
  });
});
