/**
 * The order side: stream events into the tracker (a snapshot asks for a reconciliation); a fill counted,
 * noted for the Reconciler, applied to the portfolio, then delivered with the order's view; an update
 * journaled, an ended order forgotten by the intent gate, the adapter told while it waits, an adopted order
 * counted and cancelled under `unknownOrders: 'cancel'` (kept under 'adopt'), then delivered.
 */
import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { OrderFlow } from '../../../src/engine/pipeline/on-orders.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import { RunCounters } from '../../../src/engine/run-counters.ts';
import type { StrategyRuntime } from '../../../src/engine/strategy/runtime.ts';
import type { OrderUpdateView } from '../../../src/engine/strategy/views.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ACCOUNT, SYMBOL, T0, execution, fillExec, order, request } from '../orders/fixtures.ts';

function flow(unknownOrders?: 'adopt' | 'cancel', waiting = false) {
  const clock = new VirtualClock(T0);
  const tracker = new OrderTracker({ clock });
  const port = portfolioPort(new Portfolio({ clock }));
  const log: string[] = [];
  const applyFill = port.applyFill.bind(port);
  port.applyFill = (fill) => {
    log.push(`portfolio ${fill.qty.toString()}`);
    applyFill(fill);
  };
  const runtime = {
    orderUpdate: (u: OrderUpdateView) => log.push(u.type === 'fill' ? `strategy fill ${u.order?.clordId ?? '-'}` : `strategy ${u.type}`),
  } as unknown as StrategyRuntime;
  const counters = new RunCounters();
  const flow = new OrderFlow({
    tracker,
    portfolio: port,
    counters,
    log: silentLogger(),
    strategy: { runtime },
    recorder: undefined,
    unknownOrders,
    gate: { finished: (clordIds) => log.push(`gate finished ${clordIds.join(',')}`) },
    adapter: { hasWaiting: waiting, onOrderChanged: () => log.push('adapter told') },
    reconciler: { noteFill: (account) => log.push(`noted ${account}`), reconcileNow: () => log.push('reconcile') },
    cancel: (clordId) => log.push(`cancel ${clordId}`),
  });
  const subscriptions = new Subscription();
  flow.subscribe(subscriptions);
  return { tracker, counters, flow, log, subscriptions, port };
}

describe('OrderFlow', () => {
  it('a fill: counted, noted for the Reconciler, applied to the portfolio, then delivered with its order', () => {
    const f = flow();
    f.tracker.submitted(request());
    f.tracker.acknowledged('c1', 'O1');
    f.log.length = 0;
    const fill = fillExec('E2', { cum: 4, lastPx: '0.50', lastShares: 4, avgPx: '0.50' });
    f.flow.onStreamEvent({ type: 'execution', execution: fill, sessionId: 's1' });
    expect(f.log).toEqual([`noted ${ACCOUNT}`, 'portfolio 4', 'strategy fill c1', 'strategy order']);
    expect(f.counters.fills).toBe(1);
    expect(f.port.position(SYMBOL, ACCOUNT).toString()).toBe('4');
  });

  it('an ended order is forgotten by the intent gate; the adapter is told only while it waits', () => {
    const quiet = flow();
    quiet.tracker.submitted(request());
    quiet.tracker.acknowledged('c1', 'O1');
    quiet.log.length = 0;
    quiet.tracker.applyExecution(execution('E9', { type: 'EXECUTION_TYPE_CANCELED' }, { state: 'ORDER_STATE_CANCELED' }));
    expect(quiet.log).toEqual(['gate finished c1', 'strategy order']);
    const waiting = flow(undefined, true);
    waiting.tracker.submitted(request());
    expect(waiting.log).toEqual(['adapter told', 'strategy order']);
  });

  it('a snapshot goes into the tracker, then asks for a reconciliation; connects are counted', () => {
    const f = flow();
    f.flow.onStreamEvent({ type: 'connected', attempt: 1 });
    f.flow.onStreamEvent({ type: 'snapshot', orders: [], sessionId: 's1' });
    expect(f.counters.orderStreamConnects).toBe(1);
    expect(f.log).toEqual(['reconcile']);
  });

  it("an order first seen on the exchange is adopted: kept by default, cancelled under unknownOrders 'cancel'", () => {
    for (const policy of [undefined, 'adopt', 'cancel'] as const) {
      const f = flow(policy);
      f.flow.onStreamEvent({ type: 'snapshot', orders: [order({ id: 'O9', clordId: 'x9' })], sessionId: 's1' });
      expect(f.counters.adopted).toBe(1);
      const adopted = f.tracker.byOrderId('O9');
      expect(adopted?.adopted).toBe(true);
      const cancels = f.log.filter((line) => line.startsWith('cancel'));
      expect(cancels).toEqual(policy === 'cancel' ? [`cancel ${adopted?.clordId ?? ''}`] : []);
    }
  });

  it('after unsubscribing, the tracker reaches nothing', () => {
    const f = flow();
    f.subscriptions.unsubscribe();
    f.tracker.submitted(request());
    expect(f.log).toEqual([]);
  });
});
