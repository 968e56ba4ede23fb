/**
 * Restart recovery against the embedded exchange: the journal of a "killed" run lists six orders in
 * flight, whose fates on the exchange differ; the new run tracks each again before its streams start and
 * settles it, never re-sending one and never adopting one as unknown:
 *   A acked, still working           -> resumed (NEW, same order id)
 *   B acked, 2 of 5 filled (journaled), the rest filled while down -> FILLED, one fill of the 3 missed
 *   C never acked, working            -> tracked with its order id (from the snapshot)
 *   D never acked, IOC cancelled      -> looked up by clordId: CANCELED
 *   E never acked, unknown to the exchange -> REJECTED, never sent
 *   F acked, cancelled while down     -> looked up by order id: CANCELED
 * The new run's ids continue the journal's sequence under a fresh runId, and a clean stop compacts the
 * journal (the full one kept as history) so a later start has nothing left to settle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../src/engine/strategy/define-strategy.ts';
import { MemoryJournal, rebuildJournal, type JournalEntry } from '../../../src/engine/journal/index.ts';
import { ack, collect, execution, insert, runStart, SYMBOL } from './helpers/entries.ts';
import { startSimBot, type SimBot } from './helpers/sim-bot.ts';

let bot: SimBot | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
});

/** Places one bid on start (to see which clordId a new run issues). */
const oneBid = defineStrategy({
  name: 'one-bid',
  params: z.object({ symbols: z.array(z.string()) }),
  onStart: (ctx) => void ctx.place({ symbol: SYMBOL, side: 'BUY', qty: 1, price: '0.30', label: 'new' }),
});

describe('order journal recovery', () => {
  it('resumes, settles or fails every order a killed run left in flight, without sending any again', async () => {
    const t = (bot = await startSimBot());
    const a = t.rest('tb-aa-000001', 'SIDE_BUY', 41, 5);
    const b = t.rest('tb-aa-000002', 'SIDE_SELL', 60, 5);
    t.take('SIDE_BUY', 60, 2);
    t.rest('tb-aa-000003', 'SIDE_BUY', 40, 5);
    t.rest('tb-aa-000004', 'SIDE_BUY', 45, 5, 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL');
    const f = t.rest('tb-aa-000006', 'SIDE_BUY', 39, 5);
    const journal = new MemoryJournal();
    const killedRun: JournalEntry[] = [
      runStart('aa'),
      insert('tb-aa-000001'),
      insert('tb-aa-000002', { side: 'SELL', price: '0.6' }),
      insert('tb-aa-000003', { price: '0.4' }),
      insert('tb-aa-000004', { price: '0.45', timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL', postOnly: false }),
      insert('tb-aa-000005', { price: '0.38' }),
      insert('tb-aa-000006', { price: '0.39' }),
      ack('tb-aa-000001', a),
      ack('tb-aa-000002', b),
      execution('tb-aa-000002', b, '2', 'PARTIALLY_FILLED', '0.6'),
      ack('tb-aa-000006', f),
    ];
    for (const entry of killedRun) journal.append(entry);
    journal.sync();
    // while the bot was down: B's rest filled, F was cancelled
    t.take('SIDE_BUY', 60, 3);
    t.sim.core.cancel({ account: 'firms/demo/accounts/alice-main', symbol: SYMBOL, orderId: f });

    const pipeline = await t.start(journal, oneBid);
    const restored = ['tb-aa-000001', 'tb-aa-000002', 'tb-aa-000003', 'tb-aa-000004', 'tb-aa-000005', 'tb-aa-000006'];
    const states = () => restored.map((clordId) => pipeline.tracker.get(clordId)?.state);
    await t.waitFor(
      () => states().join() === 'NEW,FILLED,NEW,CANCELED,REJECTED,CANCELED' && pipeline.counters.reconciliations > 0,
      'every restored order settled',
    );

    expect(pipeline.counters.restored).toBe(6);
    expect(pipeline.counters.adopted).toBe(0);
    expect(pipeline.tracker.get('tb-aa-000001')?.orderId).toBe(a);
    expect(pipeline.tracker.get('tb-aa-000003')?.orderId).toBe(t.sim.core.orderIdFor('firms/demo/accounts/alice-main', 'tb-aa-000003'));
    expect(t.fills.map((fill) => ({ clordId: fill.clordId, qty: fill.qty.toString(), price: fill.price.toString() }))).toEqual([
      { clordId: 'tb-aa-000002', qty: '3', price: '0.6' },
    ]);
    // nothing of the killed run was sent again; E never reached the exchange
    expect(t.inserted.filter((clordId) => clordId.startsWith('tb-aa-'))).toEqual([]);
    expect(t.sim.core.orderIdFor('firms/demo/accounts/alice-main', 'tb-aa-000005')).toBeUndefined();
    // the new run: a fresh runId, the sequence continued
    expect(t.inserted).toHaveLength(1);
    expect(t.inserted[0]).toMatch(/^tb-(?!aa-)[0-9a-f]{8}-000007$/);

    const lines = await collect(journal.replay());
    const settled = lines.filter((e) => e.type === 'resolved').map((e) => (e.type === 'resolved' ? `${e.clordId}:${e.state}` : ''));
    expect(settled).toEqual(
      expect.arrayContaining(['tb-aa-000002:FILLED', 'tb-aa-000004:CANCELED', 'tb-aa-000005:REJECTED', 'tb-aa-000006:CANCELED']),
    );

    await pipeline.stop();
    const compacted = await collect(journal.replay());
    expect(compacted.map((e) => e.type)).toEqual(['checkpoint']);
    const next = await rebuildJournal(journal.replay());
    expect(next.open).toEqual([]);
    expect(next.counters.orders).toBe(7);
    expect(next.runIds.has('aa')).toBe(true);
    expect(next.runIds.size).toBe(2);
  });

  it('a run abandoned mid-trading leaves a working order the next run resumes (journal as it was): not re-sent, not adopted', async () => {
    const t = (bot = await startSimBot());
    const journal = new MemoryJournal();
    const first = await t.start(journal, oneBid);
    await t.waitFor(
      () => first.tracker.open().some((o) => o.state === 'NEW') && journal.lines.some((l) => l.includes('"type":"ack"')),
      'the bid rests and its ack is journaled',
    );
    const bid = first.tracker.open()[0];
    // the "kill": the first run is never stopped; the next starts on the journal as it is now
    const afterKill = new MemoryJournal();
    afterKill.lines.push(...journal.lines);

    const quiet = defineStrategy({ name: 'quiet', params: z.object({ symbols: z.array(z.string()) }) });
    const second = await t.start(afterKill, quiet);
    await t.waitFor(
      () => second.counters.reconciliations > 0 && second.tracker.get(bid?.clordId ?? '')?.state === 'NEW',
      'the second run resumed the bid',
    );
    expect(second.tracker.get(bid?.clordId ?? '')?.orderId).toBe(bid?.orderId);
    expect(second.counters).toMatchObject({ restored: 1, adopted: 0 });
    expect(t.inserted).toEqual([bid?.clordId]);

    await second.stop();
    expect(t.sim.core.openOrders({ account: 'firms/demo/accounts/alice-main' })).toEqual([]);
    expect((await rebuildJournal(afterKill.replay())).open).toEqual([]);
  });
});
