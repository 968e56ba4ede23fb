/**
 * Several strategies in one pipeline (#25; scripted venue, virtual clock): one stream of each kind for all;
 * each strategy sees only its own symbols' books and its own orders (client order ids prefixed with its id);
 * its own limits refuse its intents only; the bot's message budget is shared round-robin so a noisy strategy
 * cannot starve a quiet one; self-match prevention spans the strategies and names the other one; a strategy
 * that throws halts itself (its orders cancelled) while the other trades on, or the bot with
 * strategyErrorScope bot; after a restart from the order journal each strategy gets its own open orders back,
 * and its own positions (after a crash, from the journal's `holding` lines; after a clean stop, from the
 * compacted journal).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Decimal } from '../../src/domain/decimal.ts';
import type { MarketDataEvent } from '../../src/domain/stream-events.ts';
import { VirtualClock } from '../../src/engine/clock.ts';
import { MemoryJournal, type Journal } from '../../src/engine/journal/index.ts';
import { startPipeline, type RunningPipeline } from '../../src/engine/pipeline/index.ts';
import type { StrategyMemberOptions } from '../../src/engine/pipeline/strategies.ts';
import { Portfolio } from '../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../src/engine/portfolio-port.ts';
import { parseRiskConfig, type RiskConfigInput } from '../../src/engine/risk/index.ts';
import { defineStrategy, type StrategyContext } from '../../src/engine/strategy/define-strategy.ts';
import type { BookView, OrderUpdateView, OrderView, RefusedView } from '../../src/engine/strategy/views.ts';
import type { VenueOrderRequest } from '../../src/engine/venue.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { FakeVenue } from './helpers/fake-venue.ts';
import { d, fillExec } from './orders/fixtures.ts';
import { testInstrument } from './helpers/instrument.ts';

const ACCOUNT = 'firms/f/accounts/main';
const T0 = Date.UTC(2026, 0, 15, 14);
const A = 'EVT-A';
const B = 'EVT-B';

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

interface Seen {
  readonly books: BookView[];
  readonly updates: OrderUpdateView[];
  started: readonly OrderView[];
}

interface MemberSpec {
  readonly id: string;
  readonly symbols: readonly string[];
  readonly risk?: RiskConfigInput;
  readonly onStart?: (ctx: StrategyContext<unknown>) => void;
  readonly onBook?: (ctx: StrategyContext<unknown>, book: BookView) => void;
  readonly onTimer?: (ctx: StrategyContext<unknown>, name: string) => void;
}

async function several(
  specs: readonly MemberSpec[],
  options: { risk?: RiskConfigInput; journal?: Journal; venue?: FakeVenue; clock?: VirtualClock } = {},
) {
  const clock = options.clock ?? new VirtualClock(T0);
  const venue = options.venue ?? new FakeVenue([testInstrument(A), testInstrument(B)]);
  const bot = parseRiskConfig(options.risk ?? {});
  const seen = new Map<string, Seen>();
  const ctxs = new Map<string, StrategyContext<unknown>>();
  const members = specs.map((spec): StrategyMemberOptions => {
    const mine: Seen = { books: [], updates: [], started: [] };
    seen.set(spec.id, mine);
    const strategy = defineStrategy({
      name: 'probe',
      params: z.object({}),
      onStart: (ctx) => {
        ctxs.set(spec.id, ctx);
        mine.started = ctx.openOrders();
        spec.onStart?.(ctx);
      },
      onBook: (ctx, book) => {
        mine.books.push(book);
        spec.onBook?.(ctx, book);
      },
      ...(spec.onTimer === undefined ? {} : { onTimer: spec.onTimer }),
      onOrderUpdate: (_ctx, update) => void mine.updates.push(update),
    });
    const risk = { ...bot, ...parseRiskConfig({ ...options.risk, ...spec.risk }) };
    const portfolio = portfolioPort(new Portfolio({ clock }));
    return { id: spec.id, strategy, params: {}, symbols: spec.symbols, account: ACCOUNT, risk, portfolio };
  });
  const first = members[0];
  if (first === undefined) throw new Error('no member');
  const pipeline: RunningPipeline = await startPipeline({
    venue,
    clock,
    log: silentLogger(),
    strategy: first.strategy,
    params: {},
    strategies: members,
    risk: bot,
    portfolio: portfolioPort(new Portfolio({ clock })),
    account: ACCOUNT,
    accounts: [ACCOUNT],
    symbols: [...new Set(specs.flatMap((s) => s.symbols))],
    ...(options.journal === undefined ? {} : { journal: options.journal }),
  });
  const inserts = () => venue.callsOf<VenueOrderRequest>('insert').flatMap((c) => c.requests);
  return { clock, venue, pipeline, seen: (id: string) => seen.get(id) as Seen, ctx: (id: string) => ctxs.get(id), inserts };
}

function book(symbol: string, bid = '0.40', offer = '0.44'): MarketDataEvent {
  const level = (px: string) => [{ px: new Decimal(px), qty: new Decimal(5) }];
  return {
    type: 'book',
    symbol,
    bids: level(bid),
    offers: level(offer),
    state: 'INSTRUMENT_STATE_OPEN',
    stats: undefined,
    transactTime: undefined,
  };
}

const refusals = (updates: readonly OrderUpdateView[]) => updates.filter((u): u is RefusedView => u.type === 'refused');
const place = (ctx: StrategyContext<unknown>, symbol: string, side: 'BUY' | 'SELL' = 'BUY', price = '0.40') =>
  ctx.place({ symbol, side, qty: '1', price });

describe('several strategies in one pipeline', () => {
  it('routes books by symbol and orders by client order id prefix: each strategy sees only its own', async () => {
    const { venue, pipeline, seen, ctx, inserts } = await several([
      { id: 'mm-a', symbols: [A], onStart: (c) => void place(c, A) },
      { id: 'mm-b', symbols: [B], onStart: (c) => void place(c, B) },
    ]);
    venue.market.next(book(A));
    venue.market.next(book(B));
    expect(seen('mm-a').books.map((b) => b.symbol)).toEqual([A]);
    expect(seen('mm-b').books.map((b) => b.symbol)).toEqual([B]);
    const ids = inserts().map((r) => r.clordId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^mm-a-[0-9a-f]+-000001$/);
    expect(ids[1]).toMatch(/^mm-b-[0-9a-f]+-000002$/);
    venue.callsOf('insert')[0]?.resolve(['O1', 'O2']);
    await settle();
    expect(
      ctx('mm-a')
        ?.openOrders()
        .map((o) => o.clordId),
    ).toEqual([ids[0]]);
    expect(
      ctx('mm-b')
        ?.openOrders()
        .map((o) => o.clordId),
    ).toEqual([ids[1]]);
    const orderIdsSeen = (id: string) => seen(id).updates.flatMap((u) => (u.type === 'order' ? [u.order.clordId] : []));
    expect(new Set(orderIdsSeen('mm-a'))).toEqual(new Set([ids[0]]));
    expect(new Set(orderIdsSeen('mm-b'))).toEqual(new Set([ids[1]]));
    expect(pipeline.strategies?.get('mm-a')?.counters.orders).toBe(1);
    expect(pipeline.strategies?.get('mm-b')?.counters.orders).toBe(1);
    expect(pipeline.counters.orders).toBe(2);
  });

  it("a strategy's own limits refuse its intents only (maxOpenOrders 1 for one, the bot's 10 for the other)", async () => {
    const { seen, pipeline, inserts } = await several(
      [
        { id: 'tight', symbols: [A], risk: { maxOpenOrders: 1 }, onStart: (c) => [0, 1, 2].forEach(() => place(c, A)) },
        { id: 'loose', symbols: [B], onStart: (c) => [0, 1, 2].forEach(() => place(c, B)) },
      ],
      { risk: { maxOpenOrders: 10 } },
    );
    expect(refusals(seen('tight').updates).map((r) => r.code)).toEqual(['RISK_MAX_OPEN_ORDERS', 'RISK_MAX_OPEN_ORDERS']);
    expect(refusals(seen('loose').updates)).toEqual([]);
    expect(inserts().filter((r) => r.symbol === B)).toHaveLength(3);
    expect(pipeline.strategies?.get('tight')?.counters.refusals).toEqual({ RISK_MAX_OPEN_ORDERS: 2 });
    expect(pipeline.strategies?.get('loose')?.counters.refusalCount).toBe(0);
    expect(pipeline.counters.refusals).toEqual({ RISK_MAX_OPEN_ORDERS: 2 });
  });

  it('shares the bot message budget round-robin: a noisy strategy queues 60, the quiet one still sends at once', async () => {
    const { clock, inserts, seen } = await several(
      [
        { id: 'noisy', symbols: [A], onStart: (c) => Array.from({ length: 60 }, () => place(c, A)) },
        { id: 'quiet', symbols: [B], onStart: (c) => [0, 1, 2].forEach(() => place(c, B)) },
      ],
      { risk: { maxMessagesPerSecond: 10, maxQueueAgeMs: 60_000 } },
    );
    const quietSent = () => inserts().filter((r) => r.symbol === B).length;
    expect(inserts()).toHaveLength(10); // the budget, not more
    expect(quietSent()).toBe(3); // interleaved with the noisy one's, not behind its 60
    clock.advanceTo(T0 + 1000);
    expect(inserts()).toHaveLength(20);
    expect(refusals(seen('quiet').updates)).toEqual([]);
    expect(refusals(seen('noisy').updates)).toEqual([]);
  });

  it("keeps a strategy within its own maxMessagesPerSecond inside the bot's budget", async () => {
    const { clock, inserts } = await several(
      [
        { id: 'capped', symbols: [A], risk: { maxMessagesPerSecond: 2 }, onStart: (c) => [0, 1, 2, 3, 4].forEach(() => place(c, A)) },
        { id: 'free', symbols: [B], onStart: (c) => [0, 1, 2, 3, 4].forEach(() => place(c, B)) },
      ],
      { risk: { maxMessagesPerSecond: 20 } },
    );
    expect(inserts().filter((r) => r.symbol === A)).toHaveLength(2);
    expect(inserts().filter((r) => r.symbol === B)).toHaveLength(5);
    clock.advanceTo(T0 + 1000);
    expect(inserts().filter((r) => r.symbol === A)).toHaveLength(4);
  });

  it("refuses a cross between two strategies (self-match), naming the other strategy's order", async () => {
    const { seen, inserts } = await several([
      { id: 'buyer', symbols: [A], onStart: (c) => void place(c, A, 'BUY', '0.42') },
      { id: 'seller', symbols: [A], onStart: (c) => void place(c, A, 'SELL', '0.41') },
    ]);
    const [refusal] = refusals(seen('seller').updates);
    expect(refusal?.code).toBe('RISK_SELF_MATCH');
    expect(refusal?.message).toContain('strategy buyer');
    expect(refusal?.message).toMatch(/buyer-[0-9a-f]+-000001/);
    expect(inserts().map((r) => r.side)).toEqual(['BUY']);
    expect(refusals(seen('buyer').updates)).toEqual([]);
  });

  it('a strategy that throws halts itself and its orders are cancelled; the other trades on', async () => {
    const { venue, seen, pipeline, inserts } = await several([
      {
        id: 'faulty',
        symbols: [A],
        onStart: (c) => void place(c, A),
        onBook: () => {
          throw new Error('boom');
        },
      },
      { id: 'steady', symbols: [B], onStart: (c) => void place(c, B), onBook: (c) => void place(c, B, 'BUY', '0.39') },
    ]);
    venue.callsOf('insert')[0]?.resolve(['O1', 'O2']);
    await settle();
    venue.market.next(book(A));
    expect(pipeline.strategies?.get('faulty')?.risk.tradingState.state).toBe('halted');
    expect(pipeline.risk.tradingState.state).toBe('active');
    const cancelled = venue.callsOf<{ clordId: string }>('cancel').flatMap((c) => c.requests.map((r) => r.clordId));
    expect(cancelled).toEqual([inserts()[0]?.clordId]);
    venue.market.next(book(B));
    expect(inserts().filter((r) => r.symbol === B)).toHaveLength(2);
    expect(seen('faulty').updates.length).toBeGreaterThan(0);
    expect(pipeline.strategies?.get('faulty')?.counters.strategyErrors).toBe(1);
    expect(pipeline.counters.strategyErrors).toBe(1);
  });

  it('with risk.strategyErrorScope bot a strategy that throws halts the whole bot', async () => {
    const { venue, pipeline } = await several(
      [
        {
          id: 'faulty',
          symbols: [A],
          onBook: () => {
            throw new Error('boom');
          },
        },
        { id: 'steady', symbols: [B] },
      ],
      { risk: { strategyErrorScope: 'bot' } },
    );
    venue.market.next(book(A));
    expect(pipeline.risk.tradingState.state).toBe('halted');
    expect(pipeline.risk.tradingState.cause).toBe('strategyError');
  });

  it('after a restart from the order journal each strategy gets its own open orders back', async () => {
    const journal = new MemoryJournal();
    const first = await several(
      [
        { id: 'mm-a', symbols: [A], onStart: (c) => [0, 1].forEach(() => place(c, A)) },
        { id: 'mm-b', symbols: [B], onStart: (c) => void place(c, B) },
      ],
      { journal },
    );
    const sent = first.inserts().map((r) => r.clordId);
    first.venue.callsOf('insert')[0]?.resolve(['O1', 'O2', 'O3']);
    await settle();
    // killed: no stop; a new process starts on the same journal
    const second = await several(
      [
        { id: 'mm-a', symbols: [A] },
        { id: 'mm-b', symbols: [B], onStart: (c) => void place(c, B) },
      ],
      { journal },
    );
    expect(second.pipeline.counters.restored).toBe(3);
    expect(second.seen('mm-a').started.map((o) => o.clordId)).toEqual(sent.filter((id) => id.startsWith('mm-a-')));
    expect(second.seen('mm-b').started.map((o) => o.clordId)).toEqual(sent.filter((id) => id.startsWith('mm-b-')));
    expect(second.seen('mm-a').started).toHaveLength(2);
    expect(second.pipeline.tracker.get(sent[0] ?? '')?.orderId).toBe('O1');
    // ids continue after the journal's: the new order is mm-b's, with the next sequence number
    expect(second.inserts().map((r) => r.clordId)).toEqual([expect.stringMatching(/^mm-b-[0-9a-f]+-000004$/)]);
  });

  it('gives each strategy its own positions back after a restart: after a crash and after a compacting stop', async () => {
    const journal = new MemoryJournal();
    const first = await several(
      [
        { id: 'mm-a', symbols: [A], onStart: (c) => void place(c, A, 'BUY', '0.40') },
        { id: 'mm-b', symbols: [B], onStart: (c) => void place(c, B, 'SELL', '0.44') },
      ],
      { journal },
    );
    const [buy, sell] = first.inserts();
    first.venue.callsOf('insert')[0]?.resolve(['O1', 'O2']);
    await settle();
    const filled = (id: string, clordId: string, symbol: string, side: 'SIDE_BUY' | 'SIDE_SELL', px: string) =>
      first.venue.orders.next({
        type: 'execution',
        sessionId: 's1',
        execution: fillExec(
          `E-${id}`,
          { cum: 1, lastPx: px, lastShares: 1, avgPx: px },
          { id, clordId, symbol, side, account: ACCOUNT, orderQty: d(1), price: d(px) },
        ),
      });
    filled('O1', buy?.clordId ?? '', A, 'SIDE_BUY', '0.40');
    filled('O2', sell?.clordId ?? '', B, 'SIDE_SELL', '0.44');
    await settle();
    const held = (p: RunningPipeline, id: string, symbol: string) => p.strategies?.get(id)?.portfolio.position(symbol).toString();
    expect([held(first.pipeline, 'mm-a', A), held(first.pipeline, 'mm-b', B), held(first.pipeline, 'mm-a', B)]).toEqual(['1', '-1', '0']);

    // killed: the new process reads the holding lines the fills wrote
    const second = await several(
      [
        { id: 'mm-a', symbols: [A] },
        { id: 'mm-b', symbols: [B] },
      ],
      { journal },
    );
    expect([held(second.pipeline, 'mm-a', A), held(second.pipeline, 'mm-b', B), held(second.pipeline, 'mm-b', A)]).toEqual([
      '1',
      '-1',
      '0',
    ]);
    // taken over as its own, priced at its own entry: no PnL appears from the restore
    expect(second.pipeline.strategies?.get('mm-a')?.portfolio.dailyPnl().toString()).toBe('0');

    // a clean stop compacts the journal: the positions survive it
    await second.pipeline.stop();
    const compacted = await journalLines(journal);
    expect(compacted.filter((e) => e.type === 'holding')).toEqual([
      expect.objectContaining({ strategy: 'mm-a', account: ACCOUNT, symbol: A, qty: '1', cost: '0.4' }),
      expect.objectContaining({ strategy: 'mm-b', account: ACCOUNT, symbol: B, qty: '-1', cost: '-0.44' }),
    ]);
    expect(compacted.some((e) => e.type === 'execution')).toBe(false);
    const third = await several(
      [
        { id: 'mm-a', symbols: [A] },
        { id: 'mm-b', symbols: [B] },
      ],
      { journal },
    );
    expect([held(third.pipeline, 'mm-a', A), held(third.pipeline, 'mm-b', B)]).toEqual(['1', '-1']);
  });
});

async function journalLines(journal: Journal) {
  const entries = [];
  for await (const entry of journal.replay()) entries.push(entry);
  return entries;
}
