/**
 * The message throttle in the pipeline (scripted venue, virtual clock): intents over risk.maxMessagesPerSecond
 * wait in the send queue and leave at the budget's rate instead of being refused; the strategy hears `pending`,
 * then `sent` or `superseded`; cancels go first; a newer replace of an order supersedes a queued one (one
 * replace with both changes is sent); RISK_ORDER_RATE only past risk.maxQueuedMessages or risk.maxQueueAgeMs;
 * with maxQueuedMessages 0 the old refusal stays.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VirtualClock } from '../../src/engine/clock.ts';
import type { RiskConfigInput } from '../../src/engine/risk/index.ts';
import { defineStrategy, type StrategyContext } from '../../src/engine/strategy/define-strategy.ts';
import type { OrderUpdateView, RefusedView, ThrottledView } from '../../src/engine/strategy/views.ts';
import type { VenueCancelRequest, VenueOrderRequest, VenueReplaceRequest } from '../../src/engine/venue.ts';
import { FakeVenue, startOnVenue } from './helpers/fake-venue.ts';
import { testInstrument } from './helpers/instrument.ts';

const SYMBOL = 'EVT-A';
const ACCOUNT = 'firms/f/accounts/main';
const T0 = Date.UTC(2026, 0, 15, 14);

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

interface Rig {
  readonly clock: VirtualClock;
  readonly venue: FakeVenue;
  readonly updates: OrderUpdateView[];
  readonly sent: (kind: 'insert' | 'cancel' | 'replace') => number;
}

async function rig(
  risk: RiskConfigInput,
  onStart: (ctx: StrategyContext<unknown>) => void,
  onTimer?: (ctx: StrategyContext<unknown>, name: string) => void,
) {
  const clock = new VirtualClock(T0);
  const venue = new FakeVenue([testInstrument(SYMBOL)]);
  const updates: OrderUpdateView[] = [];
  const strategy = defineStrategy({
    name: 'burst',
    params: z.object({}),
    onStart,
    ...(onTimer === undefined ? {} : { onTimer }),
    onOrderUpdate: (_ctx, update) => void updates.push(update),
  });
  const pipeline = await startOnVenue({ venue, clock, strategy, account: ACCOUNT, symbol: SYMBOL, risk });
  const sent = (kind: 'insert' | 'cancel' | 'replace') => venue.callsOf(kind).reduce((n, call) => n + call.requests.length, 0);
  const r: Rig = { clock, venue, updates, sent };
  return { ...r, pipeline };
}

const throttled = (updates: readonly OrderUpdateView[], status: ThrottledView['status']) =>
  updates.filter((u): u is ThrottledView => u.type === 'throttled' && u.status === status);
const refusals = (updates: readonly OrderUpdateView[]) => updates.filter((u): u is RefusedView => u.type === 'refused');

describe('the send queue under risk.maxMessagesPerSecond', () => {
  it('sends a burst over the budget at the budget rate, refusing nothing; the strategy hears pending then sent', async () => {
    const ids: string[] = [];
    const { clock, updates, sent, pipeline } = await rig({ maxMessagesPerSecond: 100 }, (ctx) => {
      for (let i = 0; i < 250; i++) ids.push(ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '1', price: '0.40' }));
    });
    expect(sent('insert')).toBe(100);
    expect(throttled(updates, 'pending').map((u) => u.id)).toEqual(ids.slice(100));
    expect(pipeline.tracker.open()).toHaveLength(250); // waiting orders show as PENDING_NEW
    clock.advanceTo(T0 + 999);
    expect(sent('insert')).toBe(100);
    clock.advanceTo(T0 + 1000);
    expect(sent('insert')).toBe(200);
    clock.advanceTo(T0 + 1999);
    expect(sent('insert')).toBe(200);
    clock.advanceTo(T0 + 2000);
    expect(sent('insert')).toBe(250);
    expect(throttled(updates, 'sent').map((u) => u.id)).toEqual(ids.slice(100));
    expect(refusals(updates)).toEqual([]);
    expect(pipeline.counters.refusalCount).toBe(0);
  });

  it('coalesces replaces of one order (one replace with both changes), sends cancels first, then replaces, then places', async () => {
    const ids: Record<string, string> = {};
    const { clock, venue, updates, sent } = await rig(
      { maxMessagesPerSecond: 2 },
      (ctx) => {
        ids.a = ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '5', price: '0.40' });
        ids.c = ctx.place({ symbol: SYMBOL, side: 'SELL', qty: '5', price: '0.60' });
        ctx.after('burst', 100);
      },
      (ctx) => {
        ids.r1 = ctx.replace(ids.a ?? '', { price: '0.41' });
        ids.r2 = ctx.replace(ids.r1, { qty: '10' }); // supersedes r1 while it waits
        ids.b = ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '1', price: '0.30' });
        ctx.cancel(ids.c ?? '');
      },
    );
    venue.callsOf('insert')[0]?.resolve(['O1', 'O2']);
    await settle();
    clock.advanceTo(T0 + 100);
    expect(sent('replace') + sent('cancel') + sent('insert')).toBe(2); // the budget is spent: all four wait
    expect(throttled(updates, 'superseded').map((u) => u.id)).toEqual([ids.r1]);
    clock.advanceTo(T0 + 1000);
    expect(venue.callsOf<VenueCancelRequest>('cancel').flatMap((c) => c.requests.map((r) => r.clordId))).toEqual([ids.c]);
    const replaces = venue.callsOf<VenueReplaceRequest>('replace').flatMap((c) => c.requests);
    expect(replaces.map((r) => ({ orderId: r.orderId, clordId: r.clordId, price: r.price?.toString(), qty: r.qty?.toString() }))).toEqual([
      { orderId: 'O1', clordId: ids.r2, price: '0.41', qty: '10' },
    ]);
    expect(sent('insert')).toBe(2);
    clock.advanceTo(T0 + 2000);
    expect(venue.callsOf<VenueOrderRequest>('insert')[1]?.requests.map((r) => r.clordId)).toEqual([ids.b]);
    expect(throttled(updates, 'pending').map((u) => u.id)).toEqual([ids.r2, ids.b, ids.c]); // in the order they were made
    expect(throttled(updates, 'sent').map((u) => u.id)).toEqual([ids.c, ids.r2, ids.b]);
    expect(refusals(updates)).toEqual([]);
  });

  it('refuses (RISK_ORDER_RATE) only past the queue bound or the age; cancels are never refused', async () => {
    const ids: string[] = [];
    const { clock, updates, sent, pipeline } = await rig({ maxMessagesPerSecond: 1, maxQueuedMessages: 3, maxQueueAgeMs: 1500 }, (ctx) => {
      for (let i = 0; i < 6; i++) ids.push(ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '1', price: '0.40' }));
    });
    expect(sent('insert')).toBe(1);
    // what this step queued counts: three wait for the budget (the first of them leaves at once), three are refused
    const bound = refusals(updates);
    expect(bound.map((r) => [r.id, r.code])).toEqual([
      [ids[3], 'RISK_ORDER_RATE'],
      [ids[4], 'RISK_ORDER_RATE'],
      [ids[5], 'RISK_ORDER_RATE'],
    ]);
    expect(bound[0]?.message).toContain('maxQueuedMessages 3');
    clock.advanceTo(T0 + 1000);
    expect(sent('insert')).toBe(2);
    clock.advanceTo(T0 + 2000); // the one still waiting is 2000 ms old: past maxQueueAgeMs
    expect(sent('insert')).toBe(2);
    const aged = refusals(updates).slice(3);
    expect(aged.map((r) => [r.id, r.code])).toEqual([[ids[2], 'RISK_ORDER_RATE']]);
    expect(aged[0]?.message).toContain('maxQueueAgeMs');
    expect(pipeline.tracker.get(ids[2] ?? '')?.state).toBe('REJECTED');
    expect(pipeline.counters.refusals).toEqual({ RISK_ORDER_RATE: 4 });
  });

  it('with risk.maxQueuedMessages 0 an intent over the budget is refused at once, as before the queue', async () => {
    const { updates, sent } = await rig({ maxMessagesPerSecond: 2, maxQueuedMessages: 0 }, (ctx) => {
      for (let i = 0; i < 4; i++) ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '1', price: '0.40' });
    });
    expect(sent('insert')).toBe(2);
    expect(refusals(updates).map((r) => r.code)).toEqual(['RISK_ORDER_RATE', 'RISK_ORDER_RATE']);
    expect(throttled(updates, 'pending')).toEqual([]);
  });
});
