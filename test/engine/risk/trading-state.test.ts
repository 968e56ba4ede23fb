// Trading state (kill switch): transitions by daily loss, feed, strategy error and operator; events; the gate.
import { describe, expect, it } from 'vitest';
import {
  TradingStateMachine,
  RiskErrorCode,
  type CancelAllRequired,
  type TradingState,
  type TradingStateChange,
} from '../../../src/engine/risk/index.ts';
import { TradebotError } from '../../../src/errors.ts';
import {
  approvedOf,
  cancel,
  cancelAll,
  context,
  d,
  manager,
  openOrder,
  place,
  position,
  refusedOf,
  replace,
  cross,
  OTHER_ACCOUNT,
} from './helpers.ts';

function recorder(machine: TradingStateMachine) {
  const changes: TradingStateChange[] = [];
  const cancels: CancelAllRequired[] = [];
  const subs = [machine.changes$.subscribe((c) => changes.push(c)), machine.cancelAllRequired$.subscribe((c) => cancels.push(c))];
  return { changes, cancels, stop: () => subs.forEach((s) => s.unsubscribe()) };
}

const states = (changes: readonly TradingStateChange[]): string[] => changes.map((c) => `${c.from}->${c.to} (${c.cause})`);

describe('TradingStateMachine', () => {
  it('starts active', () => {
    const machine = new TradingStateMachine({ now: () => 0 });
    expect([machine.state, machine.cause]).toEqual(['active', 'operator']);
  });

  it('goes reducing while the feed is stale and back to active when it is fresh, with clock times', () => {
    let now = 1_000;
    const machine = new TradingStateMachine({ now: () => now });
    const rec = recorder(machine);
    machine.feedStale({ symbol: 'EVT-A' });
    machine.feedStale({ symbol: 'EVT-B' });
    expect(machine.reason).toBe('market data stale: EVT-A, EVT-B');
    now = 2_000;
    machine.feedFresh({ symbol: 'EVT-A' });
    expect(machine.state).toBe('reducing');
    now = 3_000;
    machine.feedFresh({ symbol: 'EVT-B' });
    expect(states(rec.changes)).toEqual(['active->reducing (feed)', 'reducing->active (feed)']);
    expect(rec.changes.map((c) => c.time)).toEqual([1_000, 3_000]);
    expect(rec.changes[1]?.reason).toBe('market feed fresh again');
    expect(rec.cancels).toEqual([]);
    rec.stop();
  });

  it("feedFresh('all') clears every stale symbol; the whole feed can be marked stale", () => {
    const machine = new TradingStateMachine({ now: () => 0 }, { onFeedStale: 'halted' });
    machine.feedStale('all');
    machine.feedStale({ symbol: 'EVT-A' });
    expect([machine.state, machine.reason]).toEqual(['halted', 'market data stale: the whole market feed']);
    machine.feedFresh('all');
    expect([machine.state, machine.staleSymbols]).toEqual(['active', []]);
  });

  it('an operator halt is sticky: a fresh feed does not return to active', () => {
    const machine = new TradingStateMachine({ now: () => 0 });
    const rec = recorder(machine);
    machine.feedStale('all');
    machine.setState('halted', 'investigating');
    machine.feedFresh('all');
    expect([machine.state, machine.cause, machine.reason]).toEqual(['halted', 'operator', 'investigating']);
    machine.setState('active', 'resolved');
    expect(states(rec.changes)).toEqual(['active->reducing (feed)', 'reducing->halted (operator)', 'halted->active (operator)']);
    expect(rec.cancels).toEqual([{ cause: 'operator', reason: 'investigating', time: 0 }]);
    rec.stop();
  });

  it('the operator cannot make a stale feed fresh: setState(active) leaves the feed hold', () => {
    const machine = new TradingStateMachine({ now: () => 0 });
    machine.feedStale({ symbol: 'EVT-A' });
    machine.setState('active', 'go');
    expect([machine.state, machine.cause]).toEqual(['reducing', 'feed']);
  });

  it('a strategy error moves to the configured state and stays until the operator sets one', () => {
    const machine = new TradingStateMachine({ now: () => 5 }, { onStrategyError: 'reducing' });
    machine.strategyError('mm', 'TypeError: x is undefined');
    expect([machine.state, machine.reason]).toEqual(['reducing', 'strategy mm failed: TypeError: x is undefined']);
    const halting = new TradingStateMachine({ now: () => 5 });
    const rec = recorder(halting);
    halting.strategyError('mm', 'boom');
    expect([halting.state, rec.cancels.length]).toEqual(['halted', 1]);
    halting.setState('active', 'fixed');
    expect(halting.state).toBe('active');
    rec.stop();
  });

  it('a daily loss breach is sticky and lets the operator step down from halted to reducing', () => {
    const machine = new TradingStateMachine({ now: () => 0 }, { onDailyLoss: 'halted' });
    machine.dailyLossBreached('daily PnL -100 reached the loss limit');
    expect([machine.state, machine.cause]).toEqual(['halted', 'dailyLoss']);
    machine.setState('reducing', 'unwind');
    expect([machine.state, machine.cause]).toEqual(['reducing', 'operator']);
  });

  it('throws RISK_STATE_INVALID for a state that does not exist', () => {
    const machine = new TradingStateMachine({ now: () => 0 });
    const attempt = () => machine.setState('paused' as TradingState, 'typo');
    expect(attempt).toThrow(TradebotError);
    expect(attempt).toThrow(expect.objectContaining({ code: RiskErrorCode.STATE_INVALID }));
  });

  it('complete() ends both streams (no leaked subscriptions)', () => {
    const machine = new TradingStateMachine({ now: () => 0 });
    const done: string[] = [];
    const a = machine.changes$.subscribe({ complete: () => done.push('changes') });
    const b = machine.cancelAllRequired$.subscribe({ complete: () => done.push('cancelAll') });
    machine.complete();
    expect(done).toEqual(['changes', 'cancelAll']);
    expect([a.closed, b.closed]).toEqual([true, true]);
  });
});

describe('RiskManager and the trading state', () => {
  it('daily loss with onDailyLoss halted: halts, signals cancelAllRequired, passes only cancels', () => {
    const risk = manager({ maxDailyLoss: '50', onDailyLoss: 'halted' });
    const cancels: CancelAllRequired[] = [];
    const sub = risk.tradingState.cancelAllRequired$.subscribe((c) => cancels.push(c));
    const ctx = context({ pnl: d(-60), now: 42, positions: [position(5)], openOrders: [openOrder('b1', 'BUY', 1, '0.40')] });
    expect(refusedOf(risk.check(place('BUY', 1, '0.45'), ctx)).code).toBe('RISK_DAILY_LOSS');
    expect(cancels).toEqual([{ cause: 'dailyLoss', reason: 'daily PnL -60 reached the loss limit maxDailyLoss 50', time: 42 }]);
    const refused = refusedOf(risk.check(place('SELL', 1, '0.45'), ctx));
    expect([refused.code, refused.message]).toEqual([
      'RISK_TRADING_HALTED',
      'trading is halted (dailyLoss: daily PnL -60 reached the loss limit maxDailyLoss 50): only cancels pass',
    ]);
    expect(approvedOf(risk.check(cancel('b1'), ctx))).toHaveLength(1);
    expect(approvedOf(risk.check(cancelAll(), ctx))).toHaveLength(1);
    sub.unsubscribe();
  });

  it('refresh() switches the state on a breach without an intent', () => {
    const risk = manager({ maxDailyLoss: '50' });
    risk.refresh(context({ pnl: d(-49) }));
    expect(risk.tradingState.state).toBe('active');
    risk.refresh(context({ pnl: d(-50) }));
    expect(risk.tradingState.state).toBe('reducing');
  });

  it('feed stale -> reducing refuses an increasing order; fresh again -> active approves it', () => {
    const risk = manager();
    risk.tradingState.feedStale({ symbol: 'EVT-A' });
    const refused = refusedOf(risk.check(place('BUY', 1, '0.45'), context()));
    expect([refused.code, refused.message]).toEqual([
      'RISK_TRADING_REDUCING',
      'trading is reducing (feed: market data stale: EVT-A): BUY 1 EVT-A @ 0.45 does not only reduce position 0 (open BUY orders 0)',
    ]);
    risk.tradingState.feedFresh({ symbol: 'EVT-A' });
    expect(approvedOf(risk.check(place('BUY', 1, '0.45'), context()))).toHaveLength(1);
  });

  it('an operator halt survives a fresh feed', () => {
    const risk = manager();
    risk.tradingState.feedStale('all');
    risk.tradingState.setState('halted', 'manual');
    risk.tradingState.feedFresh('all');
    expect(refusedOf(risk.check(place('BUY', 1, '0.45'), context())).code).toBe('RISK_TRADING_HALTED');
  });

  it("gates on the stricter of its own state and the context's", () => {
    const refused = refusedOf(manager().check(place('BUY', 1, '0.45'), context({ state: 'halted' })));
    expect([refused.code, refused.message]).toEqual(['RISK_TRADING_HALTED', 'trading is halted (set by the engine): only cancels pass']);
  });

  it('halted refuses replaces and crosses too', () => {
    const risk = manager();
    risk.tradingState.setState('halted', 'stop');
    const ctx = context({ openOrders: [openOrder('b1', 'BUY', 1, '0.40')] });
    expect(refusedOf(risk.check(replace('b1', { price: '0.39' }), ctx)).code).toBe('RISK_TRADING_HALTED');
    expect(refusedOf(risk.check(cross(1, '0.40'), ctx)).code).toBe('RISK_TRADING_HALTED');
  });
});

describe('reducing', () => {
  const reducing = () => {
    const risk = manager();
    risk.tradingState.setState('reducing', 'wind down');
    return risk;
  };

  it('lets a position-reducing order through', () => {
    expect(approvedOf(reducing().check(place('SELL', 3, '0.55'), context({ positions: [position(5)] })))).toHaveLength(1);
    expect(approvedOf(reducing().check(place('BUY', 5, '0.45'), context({ positions: [position(-5)] })))).toHaveLength(1);
  });

  it('refuses an increasing order', () => {
    const refused = refusedOf(reducing().check(place('BUY', 1, '0.45'), context({ positions: [position(5)] })));
    expect(refused.code).toBe('RISK_TRADING_REDUCING');
  });

  it('refuses an order that would flip the position', () => {
    const refused = refusedOf(reducing().check(place('SELL', 6, '0.55'), context({ positions: [position(5)] })));
    expect(refused.code).toBe('RISK_TRADING_REDUCING');
    expect(refused.message).toBe(
      'trading is reducing (operator: wind down): SELL 6 EVT-A @ 0.55 does not only reduce position 5 (open SELL orders 0)',
    );
  });

  it('counts open orders on the same side: refuses a reduce that would flip together with them', () => {
    const ctx = context({ positions: [position(5)], openOrders: [openOrder('s1', 'SELL', 3, '0.60')] });
    expect(approvedOf(reducing().check(place('SELL', 2, '0.55'), ctx))).toHaveLength(1);
    expect(refusedOf(reducing().check(place('SELL', 3, '0.55'), ctx)).code).toBe('RISK_TRADING_REDUCING');
  });

  it('lets cancels and a reducing replace through, refuses a replace that would grow past zero', () => {
    const ctx = context({ positions: [position(5)], openOrders: [openOrder('s1', 'SELL', 3, '0.60')] });
    expect(approvedOf(reducing().check(cancel('s1'), ctx))).toHaveLength(1);
    expect(approvedOf(reducing().check(replace('s1', { qty: 5 }), ctx))).toHaveLength(1);
    expect(refusedOf(reducing().check(replace('s1', { qty: 6 }), ctx)).code).toBe('RISK_TRADING_REDUCING');
  });

  it('passes a replace that neither raises its quantity nor moves towards the other side, even while flat (winding down a quote)', () => {
    const ctx = context({ positions: [], openOrders: [openOrder('b1', 'BUY', 10, '0.40')] });
    expect(approvedOf(reducing().check(replace('b1', { qty: 2 }), ctx))).toHaveLength(1);
    expect(approvedOf(reducing().check(replace('b1', { price: '0.35' }), ctx))).toHaveLength(1);
    expect(refusedOf(reducing().check(replace('b1', { qty: 11 }), ctx)).code).toBe('RISK_TRADING_REDUCING');
    // moving the bid up, towards the offers, could only make it fill sooner: refused
    expect(refusedOf(reducing().check(replace('b1', { price: '0.45' }), ctx)).code).toBe('RISK_TRADING_REDUCING');
  });

  it('lets a cross through only when every leg reduces', () => {
    const both = context({ positions: [position(-2), position(2, 'EVT-A', OTHER_ACCOUNT)] });
    expect(approvedOf(reducing().check(cross(2, '0.50'), both))).toHaveLength(1);
    expect(refusedOf(reducing().check(cross(3, '0.50'), both)).code).toBe('RISK_TRADING_REDUCING');
  });
});
