/**
 * The order journal in a run, with a MemoryJournal: without a journal nothing is started; the replay's
 * orders in flight are tracked again (counted as restored, with their order ids, never re-sent) and their
 * recovery is handed on; the replay's run ids and counters are what ids continue after.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { MemoryJournal } from '../../../src/engine/journal/index.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { replayJournal, restoreOrders, startJournal } from '../../../src/engine/pipeline/journal.ts';
import { parseRiskConfig, RiskManager } from '../../../src/engine/risk/index.ts';
import { RunCounters } from '../../../src/engine/run-counters.ts';
import type { Venue } from '../../../src/engine/venue.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ack, insert, runStart } from '../journal/helpers/entries.ts';
import { T0 } from '../orders/fixtures.ts';

function parts() {
  const clock = new VirtualClock(T0);
  const tracker = new OrderTracker({ clock });
  const risk = new RiskManager(parseRiskConfig({}), { clock });
  return { clock, tracker, risk, log: silentLogger(), runId: 'bb', counters: new RunCounters() };
}

describe('the order journal in a run', () => {
  it('without a journal: nothing replayed, started or restored', async () => {
    const p = parts();
    expect(await replayJournal(undefined)).toBeUndefined();
    const writer = startJournal(undefined, undefined, p);
    expect(writer).toBeUndefined();
    expect(restoreOrders(writer, { ...p, venue: {} as Venue, step: (work) => work() })).toBeUndefined();
    expect(p.counters.restored).toBe(0);
  });

  it("an earlier run's orders in flight are tracked again before any stream starts, with their order ids", async () => {
    const journal = new MemoryJournal();
    for (const entry of [runStart('aa'), insert('tb-aa-000001'), insert('tb-aa-000002'), ack('tb-aa-000001', 'O1')]) journal.append(entry);
    journal.sync();
    const p = parts();
    const recovered = await replayJournal(journal);
    expect(recovered?.runIds.has('aa')).toBe(true);
    expect(recovered?.open).toHaveLength(2);
    const writer = startJournal(journal, recovered, p);
    const run = restoreOrders(writer, { ...p, venue: {} as Venue, step: (work) => work() });
    expect(run?.recorder).toBe(writer?.recorder);
    expect(run?.recovery.unsettled).toBe(2);
    expect(p.counters.restored).toBe(2);
    expect(p.tracker.get('tb-aa-000001')?.orderId).toBe('O1');
    expect(p.tracker.get('tb-aa-000002')?.state).toBe('PENDING_NEW');
  });
});
