/**
 * The strategy runtime on a VirtualClock: `every` timers fire on `advanceTo` at their engine times and stop
 * with the strategy, a throwing callback goes to the host's onError with the callback's name and the runtime
 * carries on, context actions become intents with ids from the host, and operator-form plugins see the
 * engine's events. `ctx.instrument` gives the host's reference data as an instrument view (undefined for an
 * unknown symbol); `ctx.state` is made by the definition's `state()` once per runtime, so two runs of one
 * definition never share it, and a throwing factory is reported like a throwing callback.
 */
import { describe, expect, it } from 'vitest';
import { map } from 'rxjs';
import { z } from 'zod';
import { Decimal, ZERO } from '../../../src/domain/decimal.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import type { Intent } from '../../../src/engine/intents.ts';
import { defineStrategy, type AnyStrategy, type StrategyEvent } from '../../../src/engine/strategy/define-strategy.ts';
import { StrategyRuntime, type StrategyHost } from '../../../src/engine/strategy/runtime.ts';
import type { BookView } from '../../../src/engine/strategy/views.ts';
import type { Instrument } from '../../../src/domain/index.ts';

const T0 = Date.UTC(2026, 0, 15, 14, 0, 0);

const EVT: Instrument = {
  symbol: 'EVT',
  description: 'an event contract',
  state: 'INSTRUMENT_STATE_OPEN',
  priceScale: 100,
  fractionalQtyScale: 10,
  tickSize: new Decimal('0.01'),
  lowPriceLimit: new Decimal('0.01'),
  highPriceLimit: new Decimal('0.99'),
  minimumTradeQty: new Decimal('0.5'),
  currency: 'USD',
  eventId: 'EVT-GROUP',
  eventDescription: 'the event',
  tradingStartTime: undefined,
  expirationTime: Date.UTC(2026, 11, 1),
  lastTradeDate: undefined,
  settlementTime: undefined,
};

function host(clock: VirtualClock) {
  const intents: Intent[] = [];
  const errors: { error: unknown; callback: string }[] = [];
  let n = 0;
  const h: StrategyHost = {
    clock,
    log: silentLogger(),
    account: 'firms/f/accounts/main',
    symbols: ['EVT'],
    ids: { intentId: () => `i${++n}`, clordId: () => `c${++n}`, crossId: () => `x${++n}` },
    book: () => undefined,
    instrument: (symbol) => (symbol === 'EVT' ? EVT : undefined),
    position: () => ZERO,
    openOrders: () => [],
    emit: (intent) => intents.push(intent),
    onError: (error, callback) => errors.push({ error, callback }),
  };
  return { host: h, intents, errors };
}

const book = (seq: number): BookView => ({
  symbol: 'EVT',
  bids: [],
  offers: [],
  bestBid: undefined,
  bestOffer: undefined,
  mid: undefined,
  lastTradePrice: undefined,
  stale: false,
  seq,
  time: T0,
});

const params = z.object({});

describe('strategy runtime', () => {
  it('fires an every() timer at each period of virtual time on advanceTo, with now() at the due time', () => {
    const clock = new VirtualClock(T0);
    const fired: { name: string; at: number }[] = [];
    const strategy = defineStrategy({
      name: 'timers',
      params,
      onStart: (ctx) => {
        ctx.every('fast', 1000);
        ctx.every('slow', 2500);
      },
      onTimer: (ctx, name) => fired.push({ name, at: ctx.now() - T0 }),
    });
    const runtime = new StrategyRuntime(strategy as AnyStrategy, {}, host(clock).host);
    runtime.start();
    expect(fired).toEqual([]);
    clock.advanceTo(T0 + 999);
    expect(fired).toEqual([]);
    clock.advanceTo(T0 + 5000);
    // timers due at the same instant run in the order they were (re)scheduled: compare them sorted by name
    const ordered = [...fired].sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
    expect(fired.map((f) => f.at)).toEqual(ordered.map((f) => f.at));
    expect(ordered).toEqual([
      { name: 'fast', at: 1000 },
      { name: 'fast', at: 2000 },
      { name: 'slow', at: 2500 },
      { name: 'fast', at: 3000 },
      { name: 'fast', at: 4000 },
      { name: 'fast', at: 5000 },
      { name: 'slow', at: 5000 },
    ]);
    expect(clock.now()).toBe(T0 + 5000);
  });

  it('stops its timers when the strategy stops', () => {
    const clock = new VirtualClock(T0);
    let ticks = 0;
    const strategy = defineStrategy({ name: 'stopper', params, onStart: (ctx) => ctx.every('t', 100), onTimer: () => void ticks++ });
    const runtime = new StrategyRuntime(strategy as AnyStrategy, {}, host(clock).host);
    runtime.start();
    clock.advanceTo(T0 + 250);
    expect(ticks).toBe(2);
    runtime.stop();
    clock.advanceTo(T0 + 10_000);
    expect(ticks).toBe(2);
  });

  it('refuses a non-positive timer period with a RangeError, reported as an onStart failure', () => {
    const clock = new VirtualClock(T0);
    const h = host(clock);
    const strategy = defineStrategy({ name: 'bad-timer', params, onStart: (ctx) => ctx.every('never', 0) });
    new StrategyRuntime(strategy as AnyStrategy, {}, h.host).start();
    expect(h.errors).toHaveLength(1);
    expect(h.errors[0]?.callback).toBe('onStart');
    expect(h.errors[0]?.error).toBeInstanceOf(RangeError);
  });

  it('reports a throwing callback to onError with its name and keeps calling the strategy', () => {
    const clock = new VirtualClock(T0);
    const h = host(clock);
    const seen: number[] = [];
    const strategy = defineStrategy({
      name: 'thrower',
      params,
      onBook: (_ctx, b) => {
        seen.push(b.seq);
        if (b.seq === 2) throw new Error('boom on 2');
      },
      onTimer: () => {
        throw new Error('timer boom');
      },
      onStart: (ctx) => ctx.every('t', 10),
    });
    const runtime = new StrategyRuntime(strategy as AnyStrategy, {}, h.host);
    runtime.start();
    runtime.book(book(1));
    runtime.book(book(2));
    runtime.book(book(3));
    clock.advanceTo(T0 + 20);
    expect(seen).toEqual([1, 2, 3]);
    expect(h.errors.map((e) => [e.callback, (e.error as Error).message])).toEqual([
      ['onBook', 'boom on 2'],
      ['onTimer', 'timer boom'],
      ['onTimer', 'timer boom'],
    ]);
  });

  it('turns context actions into intents carrying the strategy name, engine time and host ids', () => {
    const clock = new VirtualClock(T0);
    const h = host(clock);
    const returned: string[] = [];
    const strategy = defineStrategy({
      name: 'actor',
      params,
      onStart: (ctx) => {
        returned.push(ctx.place({ symbol: 'EVT', side: 'BUY', qty: 2, price: '0.41', postOnly: true, label: 'q' }));
        returned.push(ctx.replace('c2', { price: new Decimal('0.42') }));
        ctx.cancel('c2');
        ctx.cancelAll('EVT');
        returned.push(
          ctx.cross({ symbol: 'EVT', qty: '3', price: '0.40', buyAccount: 'firms/f/accounts/a', sellAccount: 'firms/f/accounts/b' }),
        );
      },
    });
    new StrategyRuntime(strategy as AnyStrategy, {}, h.host).start();
    expect(h.intents.map((i) => i.kind)).toEqual(['place', 'replace', 'cancel', 'cancelAll', 'cross']);
    expect(h.intents.every((i) => i.strategy === 'actor' && i.time === T0)).toBe(true);
    const [place, replace, , , cross] = h.intents;
    expect(place).toMatchObject({
      kind: 'place',
      clordId: returned[0],
      side: 'BUY',
      timeInForce: 'GOOD_TILL_CANCEL',
      postOnly: true,
      label: 'q',
    });
    expect(place?.kind === 'place' && [place.qty.toString(), place.price?.toString()]).toEqual(['2', '0.41']);
    expect(replace).toMatchObject({ kind: 'replace', clordId: 'c2', newClordId: returned[1] });
    expect(cross).toMatchObject({
      kind: 'cross',
      crossId: returned[2],
      allOrNone: true,
      buy: { account: 'firms/f/accounts/a', side: 'BUY' },
      sell: { account: 'firms/f/accounts/b', side: 'SELL' },
    });
    expect(new Set(h.intents.map((i) => i.intentId)).size).toBe(5);
  });

  it('reports an unparseable quantity as a failure of the callback that gave it, emitting nothing', () => {
    const clock = new VirtualClock(T0);
    const h = host(clock);
    const strategy = defineStrategy({
      name: 'typo',
      params,
      onStart: (ctx) => void ctx.place({ symbol: 'EVT', side: 'SELL', qty: 'five' }),
    });
    new StrategyRuntime(strategy as AnyStrategy, {}, h.host).start();
    expect(h.intents).toEqual([]);
    expect(h.errors.map((e) => e.callback)).toEqual(['onStart']);
  });

  it('feeds an operator-form plugin the engine events, and reports an error in its pipeline', () => {
    const clock = new VirtualClock(T0);
    const h = host(clock);
    const types: string[] = [];
    const strategy = defineStrategy({
      name: 'operator',
      params,
      operator: () =>
        map((event: StrategyEvent) => {
          types.push(event.type);
          if (event.type === 'timer') throw new Error('operator boom');
          return event;
        }),
    });
    const runtime = new StrategyRuntime(strategy as AnyStrategy, {}, h.host);
    runtime.start();
    runtime.book(book(1));
    runtime.trade({ symbol: 'EVT', price: new Decimal('0.4'), qty: new Decimal(1), time: T0 });
    const intent: Intent = { intentId: 'i1', strategy: 'operator', time: T0, kind: 'cancelAll', symbol: 'EVT' };
    runtime.orderUpdate({
      type: 'refused',
      id: undefined,
      kind: 'cancelAll',
      symbol: 'EVT',
      clordId: undefined,
      crossId: undefined,
      intentId: 'i1',
      intent,
      code: 'RISK_MAX_POSITION',
      message: 'too long',
    });
    runtime.timer('t');
    expect(types).toEqual(['book', 'trade', 'order', 'timer']);
    expect(h.errors.map((e) => [e.callback, (e.error as Error).message])).toEqual([['operator', 'operator boom']]);
  });

  it('gives the instrument of a known symbol as a frozen view of its reference data, undefined for another', () => {
    const clock = new VirtualClock(T0);
    const seen: unknown[] = [];
    const strategy = defineStrategy({
      name: 'refdata',
      params,
      onStart: (ctx) => {
        const i = ctx.instrument('EVT');
        seen.push(i, ctx.instrument('NOPE'), i === ctx.instrument('EVT'));
      },
    });
    new StrategyRuntime(strategy as AnyStrategy, {}, host(clock).host).start();
    const [view, unknown, same] = seen as [Record<string, unknown>, unknown, boolean];
    expect(Object.isFrozen(view)).toBe(true);
    expect(same).toBe(true);
    expect(unknown).toBeUndefined();
    expect({
      ...view,
      tickSize: String(view['tickSize']),
      lowPriceLimit: String(view['lowPriceLimit']),
      highPriceLimit: String(view['highPriceLimit']),
      minimumQty: String(view['minimumQty']),
      lotSize: String(view['lotSize']),
    }).toEqual({
      symbol: 'EVT',
      description: 'an event contract',
      state: 'INSTRUMENT_STATE_OPEN',
      tickSize: '0.01',
      lowPriceLimit: '0.01',
      highPriceLimit: '0.99',
      minimumQty: '0.5',
      lotSize: '0.1',
      priceScale: 100,
      fractionalQtyScale: 10,
      eventId: 'EVT-GROUP',
      eventDescription: 'the event',
      expirationTime: Date.UTC(2026, 11, 1),
    });
  });

  it('makes each run its own state from state(), before onStart, shared by its callbacks', () => {
    const clock = new VirtualClock(T0);
    let made = 0;
    const strategy = defineStrategy({
      name: 'stateful',
      params,
      state: () => {
        made += 1;
        return { books: 0, started: false };
      },
      onStart: (ctx) => {
        ctx.state.started = true;
      },
      onBook: (ctx) => {
        ctx.state.books += 1;
      },
    });
    const first = new StrategyRuntime(strategy as AnyStrategy, {}, host(clock).host);
    const second = new StrategyRuntime(strategy as AnyStrategy, {}, host(clock).host);
    first.start();
    second.start();
    first.book(book(1));
    first.book(book(2));
    second.book(book(1));
    expect(made).toBe(2);
    expect(first.context.state).toEqual({ books: 2, started: true });
    expect(second.context.state).toEqual({ books: 1, started: true });
    // without a factory there is no state
    const plain = new StrategyRuntime(defineStrategy({ name: 'plain', params }) as AnyStrategy, {}, host(clock).host);
    expect(plain.context.state).toBeUndefined();
  });

  it('reports a throwing state factory as a strategy error named "state"', () => {
    const clock = new VirtualClock(T0);
    const h = host(clock);
    const strategy = defineStrategy({
      name: 'bad-state',
      params,
      state: (): { n: number } => {
        throw new Error('no state for you');
      },
    });
    new StrategyRuntime(strategy as AnyStrategy, {}, h.host).start();
    expect(h.errors.map((e) => [e.callback, (e.error as Error).message])).toEqual([['state', 'no state for you']]);
  });

  it('defineStrategy refuses a state that is not a factory function', () => {
    expect(() => defineStrategy({ name: 'x', params, state: { n: 1 } as never })).toThrow(
      /state must be a function that returns the run's initial state/,
    );
  });
});
