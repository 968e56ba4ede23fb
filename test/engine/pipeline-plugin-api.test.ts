/**
 * The plugin API gaps of issue #19, in the pipeline on a scripted venue and a VirtualClock:
 * - a cross on a venue without crosses (family A) is refused by risk as RISK_CROSS_UNSUPPORTED before
 *   anything is sent, and the refusal names the cross id `ctx.cross` returned and the symbol, arriving after
 *   the call (before the fix it passed risk and failed at the venue, with the intent's id, inside the call);
 * - refusals of places and replaces name the id the call returned and the symbol;
 * - `ctx.tradingState` and `onTradingState` follow the trading state;
 * - the stop grace: what `onStop` sent may complete (the cancel-all waits up to `stopGraceMs` of engine time,
 *   and ends early once nothing is in flight).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VirtualClock } from '../../src/engine/clock.ts';
import { startPipeline } from '../../src/engine/pipeline/index.ts';
import { Portfolio } from '../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../src/engine/portfolio-port.ts';
import { parseRiskConfig } from '../../src/engine/risk/index.ts';
import { defineStrategy, type AnyStrategy } from '../../src/engine/strategy/define-strategy.ts';
import type { OrderUpdateView, RefusedView, TradingStateView } from '../../src/engine/strategy/views.ts';
import type { VenueCancelRequest } from '../../src/engine/venue.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { FakeVenue } from './helpers/fake-venue.ts';
import { testInstrument } from './helpers/instrument.ts';

const T0 = Date.UTC(2026, 0, 15, 14, 0, 0);
const SYMBOL = 'EVT-A';
const MAIN = 'firms/f/accounts/main';
const HEDGE = 'firms/f/accounts/hedge';

/** A scripted venue that says whether it can cross. */
class CapableVenue extends FakeVenue {
  constructor(readonly canCross: boolean) {
    super([testInstrument(SYMBOL)]);
  }
}

async function start(strategy: AnyStrategy, options: { canCross?: boolean; stopGraceMs?: number } = {}) {
  const clock = new VirtualClock(T0);
  const venue = new CapableVenue(options.canCross ?? true);
  const pipeline = await startPipeline({
    venue,
    clock,
    log: silentLogger(),
    strategy,
    params: {},
    risk: parseRiskConfig({ maxOrderQty: '10' }),
    portfolio: portfolioPort(new Portfolio({ clock })),
    account: MAIN,
    accounts: [MAIN, HEDGE],
    symbols: [SYMBOL],
    ...(options.stopGraceMs === undefined ? {} : { stopGraceMs: options.stopGraceMs }),
  });
  return { clock, venue, pipeline };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** Resolves every recorded venue call not answered yet (inserts with order ids). */
function answerAll(venue: FakeVenue, from: { n: number }): void {
  for (; from.n < venue.calls.length; from.n++) {
    const call = venue.calls[from.n];
    call?.resolve(call.kind === 'insert' ? call.requests.map((_, i) => `O${from.n}-${i}`) : undefined);
  }
}

describe('refusals tied to the call that caused them', () => {
  it('a cross on a venue without crosses: RISK_CROSS_UNSUPPORTED (returned cross id, symbol) after the call, nothing sent', async () => {
    const log: string[] = [];
    const refusals: RefusedView[] = [];
    const strategy = defineStrategy({
      name: 'hedger',
      params: z.object({}),
      onStart(ctx) {
        log.push(`canCross=${String(ctx.venue.canCross)} accounts=${ctx.accounts.join(',')}`);
        const crossId = ctx.cross({ symbol: SYMBOL, qty: '2', price: '0.40', buyAccount: MAIN, sellAccount: HEDGE });
        log.push(`cross returned ${crossId}`);
      },
      onOrderUpdate(_ctx, update) {
        if (update.type !== 'refused') return;
        refusals.push(update);
        log.push(`refused ${update.id ?? ''}`);
      },
    });
    const { venue, pipeline } = await start(strategy, { canCross: false });
    const crossId = log[1]?.replace('cross returned ', '');
    expect(log).toEqual([`canCross=false accounts=${MAIN},${HEDGE}`, `cross returned ${crossId}`, `refused ${crossId}`]);
    expect(refusals[0]).toMatchObject({
      kind: 'cross',
      id: crossId,
      crossId,
      symbol: SYMBOL,
      code: 'RISK_CROSS_UNSUPPORTED',
      clordId: undefined,
    });
    expect(refusals[0]?.intent.kind).toBe('cross');
    expect(refusals[0]?.intentId).not.toBe(crossId);
    expect(venue.calls).toEqual([]);
    expect(pipeline.tracker.all()).toEqual([]);
    expect(pipeline.counters.refusals).toEqual({ RISK_CROSS_UNSUPPORTED: 1 });
    await pipeline.stop();
  });

  it('a refused place names its client order id and symbol; a refused replace the new id it returned', async () => {
    const refusals: RefusedView[] = [];
    const returned: string[] = [];
    const strategy = defineStrategy({
      name: 'taker',
      params: z.object({}),
      onStart(ctx) {
        returned.push(ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '50', price: '0.40' })); // above maxOrderQty
        returned.push(ctx.replace('no-such-order', { price: '0.41' }));
      },
      onOrderUpdate: (_ctx, update) => void (update.type === 'refused' && refusals.push(update)),
    });
    const { pipeline } = await start(strategy);
    expect(refusals.map((r) => ({ kind: r.kind, id: r.id, clordId: r.clordId, symbol: r.symbol, code: r.code }))).toEqual([
      { kind: 'place', id: returned[0], clordId: returned[0], symbol: SYMBOL, code: 'RISK_MAX_ORDER_QTY' },
      { kind: 'replace', id: returned[1], clordId: 'no-such-order', symbol: undefined, code: 'RISK_UNKNOWN_ORDER' },
    ]);
    await pipeline.stop();
  });
});

describe('the trading state in the context', () => {
  it('onTradingState gets each change with ctx.tradingState already the new state', async () => {
    const changes: (TradingStateView & { ctx: string })[] = [];
    const strategy = defineStrategy({
      name: 'watcher',
      params: z.object({}),
      onTradingState: (ctx, change) => void changes.push({ ...change, ctx: ctx.tradingState }),
    });
    const { pipeline } = await start(strategy);
    pipeline.risk.tradingState.setState('reducing', 'test: reduce');
    pipeline.risk.tradingState.setState('active', 'test: back');
    expect(changes.map((c) => `${c.from}->${c.to} ${c.cause} ${c.reason} ctx=${c.ctx}`)).toEqual([
      'active->reducing operator test: reduce ctx=reducing',
      'reducing->active operator test: back ctx=active',
    ]);
    await pipeline.stop();
  });
});

describe('the stop grace', () => {
  /** Places a resting bid in onStop and records what the strategy hears afterwards. */
  function placingOnStop(updates: OrderUpdateView[]) {
    return defineStrategy({
      name: 'last-word',
      params: z.object({}),
      onStop: (ctx) => void ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '1', price: '0.40' }),
      onOrderUpdate: (_ctx, update) => void updates.push(update),
    });
  }

  it('waits up to stopGraceMs of engine time for an order onStop sent before cancelling what is left', async () => {
    const updates: OrderUpdateView[] = [];
    const { clock, venue, pipeline } = await start(placingOnStop(updates), { stopGraceMs: 500 });
    let stopped = false;
    const stopping = pipeline.stop().then(() => (stopped = true));
    await turns();
    const [order] = pipeline.tracker.open();
    expect(order?.state).toBe('PENDING_NEW');
    clock.advanceTo(T0 + 499);
    await turns();
    expect(pipeline.tracker.get(order?.clordId ?? '')?.state).toBe('PENDING_NEW'); // no cancel yet
    clock.advanceTo(T0 + 500);
    await turns();
    expect(pipeline.tracker.get(order?.clordId ?? '')?.state).toBe('PENDING_CANCEL'); // the grace is over
    const answered = { n: 0 };
    while (!stopped) {
      answerAll(venue, answered);
      await turns(1);
    }
    await stopping;
    expect(venue.callsOf<VenueCancelRequest>('cancel').flatMap((c) => c.requests.map((r) => r.clordId))).toEqual([order?.clordId]);
    // the strategy heard about its onStop order during the grace
    expect(updates.some((u) => u.type === 'order' && u.order.clordId === order?.clordId)).toBe(true);
  });

  it('ends as soon as nothing is in flight: an acknowledged resting order is cancelled without waiting', async () => {
    const { venue, pipeline } = await start(placingOnStop([]), { stopGraceMs: 60_000 });
    let stopped = false;
    const stopping = pipeline.stop().then(() => (stopped = true));
    await turns();
    venue.callsOf('insert')[0]?.resolve(['O1']); // acknowledged: NEW, resting
    await turns();
    const cancels = venue.callsOf<VenueCancelRequest>('cancel');
    expect(cancels.flatMap((c) => c.requests.map((r) => r.orderId))).toEqual(['O1']); // no clock move needed
    cancels[0]?.resolve();
    await turns();
    expect(stopped).toBe(true);
    await stopping;
  });
});
