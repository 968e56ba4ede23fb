/**
 * The strategy runtime's delivery rule and the context members of issue #19, on a VirtualClock with a host
 * that answers like the pipeline does (synchronously, from inside `emit`): an outcome produced while an
 * intent call runs (a refusal, an order update) reaches `onOrderUpdate` only after the callback that made the
 * call has returned, in order, never inside the call, also for a call made outside any callback; `after`
 * fires once at its engine time and is cancellable and replaceable; `ctx.tradingState`, `ctx.accounts` and
 * `ctx.venue` read the host; after `stop()` books and timers stop but order outcomes and trading-state
 * changes still arrive (the pipeline's stop grace).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZERO } from '../../../src/domain/decimal.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import type { Intent } from '../../../src/engine/intents.ts';
import type { TradingState } from '../../../src/engine/risk/index.ts';
import { defineStrategy, type AnyStrategy } from '../../../src/engine/strategy/define-strategy.ts';
import { refusedView } from '../../../src/engine/pipeline/intent-gate.ts';
import { StrategyRuntime, type StrategyHost } from '../../../src/engine/strategy/runtime.ts';
import type { BookView } from '../../../src/engine/strategy/views.ts';
import { silentLogger } from '../../../src/logging/logger.ts';

const T0 = Date.UTC(2026, 0, 15, 14, 0, 0);
const params = z.object({});

const book: BookView = {
  symbol: 'EVT',
  bids: [],
  offers: [],
  bestBid: undefined,
  bestOffer: undefined,
  mid: undefined,
  lastTradePrice: undefined,
  stale: false,
  seq: 1,
  time: T0,
};

/** A runtime whose host refuses every intent at once, inside `emit`, as the pipeline's risk gate does. */
function refusingRuntime(strategy: AnyStrategy, extra: Partial<StrategyHost> = {}) {
  const clock = new VirtualClock(T0);
  let n = 0;
  const intents: Intent[] = [];
  const host: StrategyHost = {
    clock,
    log: silentLogger(),
    account: 'firms/f/accounts/main',
    symbols: ['EVT'],
    ids: { intentId: () => `i${++n}`, clordId: () => `c${++n}`, crossId: () => `x${++n}` },
    book: () => undefined,
    instrument: () => undefined,
    position: () => ZERO,
    openOrders: () => [],
    emit: (intent) => {
      intents.push(intent);
      runtime.orderUpdate(refusedView({ kind: 'refused', intent, code: 'RISK_MAX_POSITION', message: 'too long' }, () => 'EVT'));
    },
    onError: (error) => {
      throw error;
    },
    ...extra,
  };
  const runtime: StrategyRuntime = new StrategyRuntime(strategy, {}, host);
  return { runtime, clock, intents };
}

describe('delivery rule: outcomes after the call, never inside it', () => {
  it('a refusal produced inside ctx.place and ctx.cross reaches onOrderUpdate after the callback returned, tied to the returned id', () => {
    const log: string[] = [];
    const strategy = defineStrategy({
      name: 'taker',
      params,
      onBook(ctx) {
        const clordId = ctx.place({ symbol: 'EVT', side: 'BUY', qty: '1', price: '0.40' });
        log.push(`placed ${clordId}`);
        const crossId = ctx.cross({
          symbol: 'EVT',
          qty: '1',
          price: '0.40',
          buyAccount: 'firms/f/accounts/a',
          sellAccount: 'firms/f/accounts/b',
        });
        log.push(`crossed ${crossId}`);
        log.push('onBook returns');
      },
      onOrderUpdate(_ctx, update) {
        if (update.type === 'refused') log.push(`refused ${update.kind} id=${update.id} symbol=${update.symbol} code=${update.code}`);
      },
    });
    const { runtime } = refusingRuntime(strategy);
    runtime.book(book);
    expect(log).toEqual([
      'placed c1',
      'crossed x3',
      'onBook returns',
      'refused place id=c1 symbol=EVT code=RISK_MAX_POSITION',
      'refused cross id=x3 symbol=EVT code=RISK_MAX_POSITION',
    ]);
  });

  it('an intent emitted while handling a refusal is answered after that handler returns; a call outside any callback too', async () => {
    const log: string[] = [];
    const strategy = defineStrategy({
      name: 'retrier',
      params,
      state: () => ({ retries: 0 }),
      onOrderUpdate(ctx, update) {
        if (update.type !== 'refused') return;
        log.push(`refused ${update.id ?? ''}`);
        if (ctx.state.retries++ > 0) return;
        log.push(`retry ${ctx.place({ symbol: 'EVT', side: 'SELL', qty: '1', price: '0.60' })}`);
        log.push('handler returns');
      },
    });
    const { runtime } = refusingRuntime(strategy);
    // outside any callback: the outcome waits until the caller's synchronous code is done (a microtask)
    const id = runtime.context.place({ symbol: 'EVT', side: 'BUY', qty: '1', price: '0.40' });
    log.push(`returned ${id}`);
    expect(log).toEqual(['returned c1']);
    await Promise.resolve();
    expect(log).toEqual(['returned c1', 'refused c1', 'retry c3', 'handler returns', 'refused c3']);
  });
});

describe('ctx.after: a one-shot timer on the engine clock', () => {
  it('fires once at its due time; the same name replaces it; cancelTimer cancels it; a negative delay is refused', () => {
    const fired: string[] = [];
    const strategy = defineStrategy({
      name: 'one-shot',
      params,
      onStart(ctx) {
        ctx.after('once', 1000);
        ctx.after('moved', 500);
        ctx.after('moved', 1500); // replaces the 500 ms one
        ctx.after('cancelled', 700);
        ctx.every('mixed', 200);
        ctx.after('mixed', 300); // a name is one timer, whatever its kind
        ctx.cancelTimer('cancelled');
        expect(() => ctx.after('bad', -1)).toThrow(RangeError);
      },
      onTimer(ctx, name) {
        fired.push(`${name}@${ctx.now() - T0}`);
        if (name === 'once') ctx.after('again', 0); // re-arming from its own firing
      },
    });
    const { runtime, clock } = refusingRuntime(strategy);
    runtime.start();
    clock.advanceTo(T0 + 999);
    expect(fired).toEqual(['mixed@300']);
    clock.advanceTo(T0 + 5000);
    expect(fired).toEqual(['mixed@300', 'once@1000', 'again@1000', 'moved@1500']);
  });
});

describe('context views and the stop', () => {
  it('reads the trading state, the accounts and the venue from the host (defaults without them)', () => {
    let state: TradingState = 'active';
    const seen: unknown[] = [];
    const strategy = defineStrategy({
      name: 'reader',
      params,
      onBook: (ctx) => void seen.push(ctx.tradingState, ctx.accounts, ctx.venue),
    });
    const accounts = ['firms/f/accounts/main', 'firms/f/accounts/hedge'];
    const { runtime } = refusingRuntime(strategy, { tradingState: () => state, accounts, venue: { name: 'familyA', canCross: false } });
    runtime.book(book);
    state = 'halted';
    runtime.book(book);
    expect(seen).toEqual([
      'active',
      accounts,
      { name: 'familyA', canCross: false },
      'halted',
      accounts,
      { name: 'familyA', canCross: false },
    ]);
    const plain = refusingRuntime(strategy);
    seen.length = 0;
    plain.runtime.book(book);
    expect(seen).toEqual(['active', ['firms/f/accounts/main'], { name: 'unknown', canCross: true }]);
  });

  it('after stop(): no books or timers; order outcomes and trading-state changes still arrive; timers set in onStop are ignored', () => {
    const log: string[] = [];
    const strategy = defineStrategy({
      name: 'stopper',
      params,
      onStart: (ctx) => ctx.every('tick', 100),
      onBook: () => void log.push('book'),
      onTimer: (_ctx, name) => void log.push(`timer ${name}`),
      onStop(ctx) {
        ctx.after('late', 10);
        log.push(`onStop placed ${ctx.place({ symbol: 'EVT', side: 'BUY', qty: '1', price: '0.40', timeInForce: 'IMMEDIATE_OR_CANCEL' })}`);
      },
      onOrderUpdate: (_ctx, update) => void log.push(`update ${update.type}`),
      onTradingState: (ctx, change) => void log.push(`state ${change.from}->${change.to} (${change.cause}) ctx=${ctx.tradingState}`),
    });
    const { runtime, clock } = refusingRuntime(strategy, { tradingState: () => 'halted' });
    runtime.start();
    runtime.stop();
    runtime.book(book);
    clock.advanceTo(T0 + 1000);
    runtime.tradingState({ from: 'active', to: 'halted', cause: 'operator', reason: 'test', time: T0 });
    expect(log).toEqual(['onStop placed c1', 'update refused', 'state active->halted (operator) ctx=halted']);
  });
});
