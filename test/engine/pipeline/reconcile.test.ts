/**
 * The Reconciler on a scripted venue and a VirtualClock: the snapshot asked again while fills race it (at
 * most RECONCILE_ATTEMPTS times), the racing accounts keeping their local view, follow-ups 2 s later in
 * engine time and at most MAX_FOLLOW_UP_RECONCILIATIONS in a row; zombie orders cancelled; orders missing
 * from the stream's snapshot looked up (CONCURRENT_LOOKUPS at a time) before the positions; nothing applied
 * once the run stopped.
 */
import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Balance, Order, Position } from '../../../src/domain/index.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import type { VenueOrderQuery, VenueSnapshot } from '../../../src/engine/venue.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import {
  FOLLOW_UP_RECONCILE_MS,
  MAX_FOLLOW_UP_RECONCILIATIONS,
  RECONCILE_ATTEMPTS,
  Reconciler,
} from '../../../src/engine/pipeline/reconcile.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import { RunCounters } from '../../../src/engine/run-counters.ts';
import { SettlementWatch } from '../../../src/engine/settlements.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ACCOUNT, T0, d, execution, order, request } from '../orders/fixtures.ts';

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

interface Rig {
  readonly clock: VirtualClock;
  readonly tracker: OrderTracker;
  readonly counters: RunCounters;
  readonly reconciler: Reconciler;
  readonly cancels: string[];
  /** The positions and balances the portfolio was given, per reconciliation. */
  readonly applied: { positions: readonly Position[]; balances: readonly Balance[] }[];
  snapshots: number;
}

interface RigOptions {
  /** The exchange's answer to each snapshot call (called before it resolves). */
  snapshot?: (rig: Rig) => VenueSnapshot;
  lookupOrder?: (query: VenueOrderQuery) => Promise<Order | undefined>;
  stopped?: () => boolean;
}

const EMPTY: VenueSnapshot = { openOrders: [], positions: [], balances: [] };

function rig(options: RigOptions = {}): Rig {
  const clock = new VirtualClock(T0);
  const tracker = new OrderTracker({ clock });
  const port = portfolioPort(new Portfolio({ clock }));
  const applied: Rig['applied'] = [];
  const reconcile = port.reconcile.bind(port);
  port.reconcile = (positions, balances) => {
    applied.push({ positions, balances });
    return reconcile(positions, balances);
  };
  const counters = new RunCounters();
  const cancels: string[] = [];
  const state = { rig: undefined as Rig | undefined };
  const venue = {
    snapshot: async (): Promise<VenueSnapshot> => {
      const r = state.rig as Rig;
      r.snapshots += 1;
      return options.snapshot?.(r) ?? EMPTY;
    },
    ...(options.lookupOrder === undefined ? {} : { lookupOrder: options.lookupOrder }),
  };
  const reconciler = new Reconciler({
    venue,
    clock,
    log: silentLogger(),
    tracker,
    portfolio: port,
    settlements: new SettlementWatch(port, () => clock.now()),
    counters,
    accounts: [ACCOUNT],
    step: (work) => work(),
    cancel: (clordId) => cancels.push(clordId),
    stopped: options.stopped ?? (() => false),
    subscriptions: new Subscription(),
  });
  const r: Rig = { clock, tracker, counters, reconciler, cancels, applied, snapshots: 0 };
  state.rig = r;
  return r;
}

const balance = (cash: string): Balance => ({
  account: ACCOUNT,
  currency: 'USD',
  balance: d(cash),
  buyingPower: d(cash),
  openOrders: d(0),
  unsettledFunds: d(0),
  availableToWithdraw: d(cash),
  updateTime: undefined,
});

describe('Reconciler: fills racing the snapshot', () => {
  it('a quiet answer is taken at once: one snapshot call, the exchange wins', async () => {
    const r = rig({ snapshot: () => ({ ...EMPTY, balances: [balance('100')] }) });
    await r.reconciler.reconcile([]);
    expect(r.snapshots).toBe(1);
    expect(r.counters.reconciliations).toBe(1);
    expect(r.applied).toHaveLength(1);
    expect(r.applied[0]?.balances).toHaveLength(1);
  });

  it('asks again while a fill arrives during each call, at most RECONCILE_ATTEMPTS times; the account keeps its local view', async () => {
    const r = rig({
      snapshot: (x) => {
        x.reconciler.noteFill(ACCOUNT);
        return { ...EMPTY, balances: [balance('100')] };
      },
    });
    await r.reconciler.reconcile([]);
    expect(r.snapshots).toBe(RECONCILE_ATTEMPTS);
    expect(r.counters.reconciliations).toBe(1);
    expect(r.applied).toEqual([{ positions: [], balances: [] }]);
  });

  it('a fill racing only the first call: the second answer is taken', async () => {
    const r = rig({
      snapshot: (x) => {
        if (x.snapshots === 1) x.reconciler.noteFill(ACCOUNT);
        return { ...EMPTY, balances: [balance('100')] };
      },
    });
    await r.reconciler.reconcile([]);
    expect(r.snapshots).toBe(2);
    expect(r.applied[0]?.balances).toHaveLength(1);
  });

  it('follows up FOLLOW_UP_RECONCILE_MS later in engine time, at most MAX_FOLLOW_UP_RECONCILIATIONS times in a row', async () => {
    const r = rig({
      snapshot: (x) => {
        x.reconciler.noteFill(ACCOUNT);
        return EMPTY;
      },
    });
    await r.reconciler.reconcile([]);
    r.clock.advanceTo(T0 + FOLLOW_UP_RECONCILE_MS - 1);
    await settle();
    expect(r.counters.reconciliations).toBe(1);
    for (let i = 1; i <= MAX_FOLLOW_UP_RECONCILIATIONS + 3; i += 1) {
      r.clock.advanceTo(T0 + i * FOLLOW_UP_RECONCILE_MS);
      await settle();
    }
    expect(r.counters.reconciliations).toBe(1 + MAX_FOLLOW_UP_RECONCILIATIONS);
    expect(r.snapshots).toBe((1 + MAX_FOLLOW_UP_RECONCILIATIONS) * RECONCILE_ATTEMPTS);
    expect(r.clock.nextActionTime()).toBe(Number.POSITIVE_INFINITY);
  });

  it('no follow-up after a quiet answer', async () => {
    const r = rig();
    await r.reconciler.reconcile([]);
    expect(r.clock.nextActionTime()).toBe(Number.POSITIVE_INFINITY);
  });

  it('once the run stopped, an answer is not applied', async () => {
    const r = rig({ stopped: () => true, snapshot: () => ({ ...EMPTY, openOrders: [order({ id: 'O1' })] }) });
    await r.reconciler.reconcile([]);
    expect(r.snapshots).toBe(1);
    expect(r.counters.reconciliations).toBe(0);
    expect(r.applied).toEqual([]);
  });
});

describe('Reconciler: zombie orders', () => {
  it('cancels an order the exchange still works that the bot holds for finished', async () => {
    const r = rig({ snapshot: () => ({ ...EMPTY, openOrders: [order({ id: 'O1', clordId: 'c1' })] }) });
    r.tracker.submitted(request());
    r.tracker.acknowledged('c1', 'O1');
    r.tracker.applyExecution(execution('E9', { type: 'EXECUTION_TYPE_CANCELED' }, { state: 'ORDER_STATE_CANCELED', leavesQty: d(0) }));
    expect(r.tracker.get('c1')?.state).toBe('CANCELED');
    await r.reconciler.reconcile([]);
    expect(r.cancels).toEqual(['c1']);
    expect(r.counters.zombiesCancelled).toBe(1);
  });

  it('leaves working orders, unknown orders and orders without an id alone', async () => {
    const openOrders = [order({ id: 'O1' }), order({ id: 'O7', clordId: 'x7' }), order({ id: '', clordId: 'c1' })];
    const r = rig({ snapshot: () => ({ ...EMPTY, openOrders }) });
    r.tracker.submitted(request());
    r.tracker.acknowledged('c1', 'O1');
    await r.reconciler.reconcile([]);
    expect(r.cancels).toEqual([]);
    expect(r.counters.zombiesCancelled).toBe(0);
  });
});

describe('Reconciler: orders missing from the stream snapshot', () => {
  /** c1 acknowledged as O1, then missing from a reconnect's snapshot: UNKNOWN. */
  function unknownOrder(r: Rig, clordId = 'c1', orderId = 'O1'): void {
    r.tracker.submitted(request({ clordId }));
    r.tracker.acknowledged(clordId, orderId);
  }

  it('looks each one up: its real end and its fills, before the positions are fetched', async () => {
    const fillsAtSnapshot: number[] = [];
    const r = rig({
      lookupOrder: async (query) =>
        order({ id: query.orderId ?? '', state: 'ORDER_STATE_FILLED', cumQty: d(10), leavesQty: d(0), avgPx: d('0.5') }),
      snapshot: (x) => {
        fillsAtSnapshot.push(x.tracker.get('c1')?.filledQty.toNumber() ?? -1);
        return EMPTY;
      },
    });
    unknownOrder(r);
    r.tracker.applySnapshot([], 's2');
    expect(r.tracker.get('c1')?.state).toBe('UNKNOWN');
    await r.reconciler.reconcile(r.tracker.needingLookup().map((o) => o.clordId));
    expect(r.tracker.get('c1')?.state).toBe('FILLED');
    expect(fillsAtSnapshot).toEqual([10]);
    expect(r.counters.gapLookups).toBe(1);
  });

  it('not found by the lookup: settled against the open orders (listed: working again)', async () => {
    const r = rig({ lookupOrder: async () => undefined, snapshot: () => ({ ...EMPTY, openOrders: [order({ id: 'O1' })] }) });
    unknownOrder(r);
    r.tracker.applySnapshot([], 's2');
    await r.reconciler.reconcile(['c1']);
    expect(r.counters.gapLookups).toBe(0);
    expect(r.tracker.get('c1')?.state).toBe('NEW');
  });

  it('a failed lookup leaves the order to the open-orders check (not listed: finished)', async () => {
    const r = rig({ lookupOrder: () => Promise.reject(new Error('down')) });
    unknownOrder(r);
    r.tracker.applySnapshot([], 's2');
    await r.reconciler.reconcile(['c1']);
    expect(r.counters.gapLookups).toBe(0);
    expect(r.counters.reconciliations).toBe(1);
    expect(r.tracker.get('c1')?.state).not.toBe('UNKNOWN');
    expect(r.tracker.open()).toEqual([]);
  });

  it('at most four lookups in flight at once', async () => {
    let inFlight = 0;
    let most = 0;
    const r = rig({
      lookupOrder: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await settle();
        inFlight -= 1;
        return undefined;
      },
    });
    for (let i = 1; i <= 9; i += 1) unknownOrder(r, `c${i}`, `O${i}`);
    r.tracker.applySnapshot([], 's2');
    expect(r.tracker.needingLookup()).toHaveLength(9);
    await r.reconciler.reconcile(r.tracker.needingLookup().map((o) => o.clordId));
    expect(most).toBe(4);
  });
});
