/**
 * The simulator's state file: an exchange saved and restored into a fresh core has the same books (same
 * queues, so time priority survives), working orders (ids, clord_ids, fill state, stops), ledger, order
 * history and clord_id index (a retried insert is still recognised), trade tape and stats, and new ids
 * continue a gap after the old ones. Writes are atomic; a malformed file is refused with the path of the problem;
 * the in-memory order history is bounded.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { insertOrder } from '../../../src/sim/exchange/commands.ts';
import { startActivity } from '../../../src/sim/activity/driver.ts';
import { captureCore, readStateFile, RESTORE_ID_GAP, restoreCore, writeStateFile } from '../../../src/sim/state/index.ts';
import type { OrderRequest, Side } from '../../../src/sim/matching/types.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ManualClock, SYMBOL, SYMBOL2, simConfig } from '../gateway/helpers/harness.ts';

const A = 'firms/demo/accounts/a';
const B = 'firms/demo/accounts/b';

let dir: string;
let clock: ManualClock;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradebot-state-'));
  clock = new ManualClock();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function makeCore(maxOrderHistory?: number): ExchangeCore {
  const config = simConfig({ activity: '    enabled: true\n    seed: 3' });
  return new ExchangeCore({
    clock,
    instruments: config.instruments,
    startingBalance: config.startingBalance,
    currency: config.currency,
    ...(maxOrderHistory === undefined ? {} : { maxOrderHistory }),
  });
}

function limit(account: string, side: Side, qty: number, price: number, clordId: string, extra: Partial<OrderRequest> = {}): OrderRequest {
  return {
    account,
    symbol: SYMBOL,
    side,
    type: 'ORDER_TYPE_LIMIT',
    orderQty: qty,
    price,
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    clordId,
    participant: 'firms/demo/users/test',
    ...extra,
  };
}

/** A busy exchange: synthetic activity (in SYMBOL2), resting and partly filled orders, a stop, a GTT order, trades. */
function busyCore(): ExchangeCore {
  const core = makeCore();
  const activity = startActivity(core, simConfig({ activity: '    enabled: true\n    seed: 3' }).activity, silentLogger(), {
    timer: false,
  });
  for (let i = 0; i < 30; i++) {
    clock.advance(200);
    activity.step();
  }
  activity.stop();
  core.massCancel({ symbol: SYMBOL }); // the test's own orders alone in this book (activity keeps the other)
  core.submit(limit(A, 'SIDE_BUY', 10, 5, 'a-bid-1'));
  core.submit(limit(B, 'SIDE_BUY', 7, 5, 'b-bid-1'));
  core.submit(limit(A, 'SIDE_BUY', 4, 5, 'a-bid-2'));
  core.submit(limit(B, 'SIDE_SELL', 3, 5, 'b-sell-1', { timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' })); // a-bid-1 partly filled
  core.submit(limit(A, 'SIDE_SELL', 2, 97, 'a-gtt', { timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.now() + 60_000 }));
  core.submit({ ...limit(B, 'SIDE_SELL', 1, 2, 'b-stop'), type: 'ORDER_TYPE_STOP_LIMIT', stopPrice: 3 });
  core.submit(limit(A, 'SIDE_SELL', 1, 90, 'a-done'));
  core.cancel({ account: A, clordId: 'a-done' });
  return core;
}

function view(core: ExchangeCore) {
  return {
    open: core.openOrders().map((o) => ({
      id: o.orderId,
      clordId: o.order.clordId,
      state: o.state,
      cum: o.cumQty,
      leaves: o.leavesQty,
      price: o.order.price,
      stop: o.order.stopPrice,
    })),
    depth: [SYMBOL, SYMBOL2].map((s) => core.engine.depth(s, 20)),
    last: [SYMBOL, SYMBOL2].map((s) => core.engine.lastTradePrice(s)),
    balances: core.ledger.allBalances().map((b) => [b.account, b.cash.toString()]),
    positions: core.ledger.allPositions().map((p) => [p.account, p.symbol, p.net, p.cost.toString(), p.realizedPnl.toString()]),
    stats: [SYMBOL, SYMBOL2].map((s) => core.stats(s)),
  };
}

describe('sim state file', () => {
  it('restores books, working orders, ledger, lookups, the clord_id index and the tape; ids continue', async () => {
    const before = busyCore();
    const file = path.join(dir, 'state', 'sim-state.json');
    await writeStateFile(file, captureCore(before, clock.now()));
    expect(readdirSync(path.dirname(file))).toEqual(['sim-state.json']); // no temp file left behind
    const saved = await readStateFile(file);
    if (saved === undefined) throw new Error('the state file was not written');

    const after = makeCore();
    restoreCore(after, saved);
    expect(view(after)).toEqual(view(before));
    const partly = after.openOrders({ account: A }).find((o) => o.order.clordId === 'a-bid-1');
    expect([partly?.cumQty, partly?.leavesQty, partly?.state]).toEqual([3, 7, 'ORDER_STATE_PARTIALLY_FILLED']);
    // finished orders are still found, and a retried insert is recognised
    const done = before.orderIdFor(A, 'a-done') ?? '';
    expect(after.order(done)?.latest.state).toBe('ORDER_STATE_CANCELED');
    expect(insertOrder(after, limit(A, 'SIDE_BUY', 10, 5, 'a-bid-1'))).toMatchObject({ orderId: partly?.orderId, duplicate: true });
    expect(after.order(partly?.orderId ?? '')?.fills).toEqual(new Map([[5, 3]]));
    expect(after.trades().map((t) => t.id)).toEqual(before.trades().map((t) => t.id));

    // time priority: a seller takes a-bid-1, then b-bid-1, then a-bid-2, as it would have before
    const sold = after.submit(limit(B, 'SIDE_SELL', 20, 5, 'b-sell-2', { timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }));
    const lastId = Math.max(...before.trades().map((t) => t.seq));
    expect(sold.trades.map((t) => [t.passive.order.clordId, t.qty])).toEqual([
      ['a-bid-1', 7],
      ['b-bid-1', 7],
      ['a-bid-2', 4],
    ]);
    // ids continue a gap after the saved ones: those a killed simulator issued after its last write are never reused
    expect(Math.min(...sold.trades.map((t) => t.seq))).toBe(lastId + RESTORE_ID_GAP + 1);
    expect(sold.executions[0]?.order.orderSeq).toBe(saved.engine.counters.order + RESTORE_ID_GAP + 1);
    // the stop is still held, and the GTT order still expires on time
    expect(after.openOrders({ account: B }).find((o) => o.order.clordId === 'b-stop')?.order.stopPrice).toBe(3);
    clock.advance(61_000);
    expect(after.expire().executions.map((e) => [e.order.clordId, e.type])).toEqual([['a-gtt', 'EXECUTION_TYPE_EXPIRED']]);
  });

  it('keeps the finished orders of the synthetic activity out of the file, but every working order', () => {
    const core = busyCore();
    const state = captureCore(core, clock.now());
    const accounts = new Set(
      state.orders
        .filter((r) => ['ORDER_STATE_CANCELED', 'ORDER_STATE_FILLED'].includes(r.latest.state))
        .map((r) => r.latest.terms.account),
    );
    expect([...accounts].sort()).toEqual([A, B]);
    expect(state.engine.orders.length).toBe(core.openOrders().length);
    const kept = new Set(state.orders.map((r) => r.latest.terms.orderSeq));
    expect(state.engine.orders.every((o) => kept.has(o.terms.orderSeq))).toBe(true);
  });

  it('a missing file is no state; a malformed one is refused with the path of the problem', async () => {
    expect(await readStateFile(path.join(dir, 'none.json'))).toBeUndefined();
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 1, "savedAt": 1, "engine": {"counters": {"order": -1}}}');
    await expect(readStateFile(bad)).rejects.toMatchObject({
      code: 'SIM_STATE_INVALID',
      message: expect.stringMatching(/engine\.counters\.order/),
    });
    writeFileSync(bad, 'not json');
    await expect(readStateFile(bad)).rejects.toMatchObject({
      code: 'SIM_STATE_INVALID',
      message: expect.stringMatching(/not JSON; move it aside/),
    });
  });

  it('refuses a state naming an instrument that is not configured', () => {
    const core = busyCore();
    const state = captureCore(core, clock.now());
    const config = simConfig();
    const other = new ExchangeCore({
      clock,
      instruments: config.instruments.filter((i) => i.symbol !== SYMBOL),
      startingBalance: config.startingBalance,
      currency: 'USD',
    });
    expect(() => restoreCore(other, state)).toThrow(/not configured/);
  });

  it('bounds the order history: the oldest finished orders and their clord_id entries are forgotten, working ones stay', () => {
    const core = makeCore(10);
    core.submit(limit(A, 'SIDE_BUY', 1, 5, 'keep'));
    for (let i = 0; i < 40; i++) {
      core.submit(limit(B, 'SIDE_BUY', 1, 6, `b-${i}`));
      core.cancel({ account: B, clordId: `b-${i}` });
    }
    const all = [...core.allOrders()];
    expect(all).toHaveLength(11);
    expect(all.map((r) => r.latest.order.clordId)).toEqual(['keep', ...Array.from({ length: 10 }, (_, i) => `b-${30 + i}`)]);
    expect(core.orderIdFor(B, 'b-0')).toBeUndefined();
    expect(core.orderIdFor(B, 'b-39')).toBeDefined();
    expect(core.orderIdFor(A, 'keep')).toBeDefined();
  });
});
