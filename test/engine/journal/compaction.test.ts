/**
 * Compaction at a clean stop: the journal is rewritten to a checkpoint (every runId, the id counters) plus
 * one `open` line per order of ours still open (acknowledged, in flight, or with a replace in flight),
 * finished ones dropped; the full journal is kept as `<file>.prev`; replaying the compacted file gives the
 * same orders in flight and ids that continue, and the recorder writes nothing after it.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TradebotError } from '../../../src/errors.ts';
import { FileJournal, rebuildJournal } from '../../../src/engine/journal/index.ts';
import { collect } from './helpers/entries.ts';
import { place, replace, settle, setup } from './helpers/adapter-rig.ts';

describe('order journal compaction', () => {
  it('keeps only our open orders (with order ids, latest clordIds and fills so far) and continues the ids', async () => {
    const { venue, submit, tracker, recorder, journal, file } = setup();
    submit(place('tb-r1-000001'), place('tb-r1-000002'));
    venue.callsOf('insert')[0]?.resolve(['O1', 'O2']);
    await settle();
    submit(place('tb-r1-000003'));
    venue.callsOf('insert')[1]?.reject(new TradebotError('GATEWAY_INVALID_ARGUMENT', 'price off tick', { kind: 'rejection' }));
    submit(place('tb-r1-000004'));
    await settle();
    submit(replace('tb-r1-000002', 'tb-r1-000005'));
    expect(tracker.open().map((o) => `${o.clordId}:${o.state}`)).toEqual([
      'tb-r1-000001:NEW',
      'tb-r1-000002:PENDING_REPLACE',
      'tb-r1-000004:PENDING_NEW',
    ]);

    const full = fs.readFileSync(file, 'utf8');
    await recorder.finish(tracker.open());
    const compacted = await collect(journal.replay());
    expect(compacted.map((e) => e.type)).toEqual(['checkpoint', 'open', 'open', 'open']);
    expect(compacted[0]).toMatchObject({ type: 'checkpoint', runIds: ['r1'], counters: { orders: 5 } });
    expect(fs.readFileSync(`${file}.prev`, 'utf8')).toBe(`${full}${JSON.stringify(await lastRunStop(file))}\n`);

    const next = await rebuildJournal(journal.replay());
    expect(next.open.map((o) => ({ clordId: o.clordId, clordIds: o.clordIds, orderId: o.orderId, state: o.state }))).toEqual([
      { clordId: 'tb-r1-000001', clordIds: ['tb-r1-000001'], orderId: 'O1', state: 'NEW' },
      { clordId: 'tb-r1-000002', clordIds: ['tb-r1-000002', 'tb-r1-000005'], orderId: 'O2', state: 'PENDING_REPLACE' },
      { clordId: 'tb-r1-000004', clordIds: ['tb-r1-000004'], orderId: undefined, state: 'PENDING_NEW' },
    ]);
    expect(next.open[0]?.terms).toEqual({
      account: 'firms/demo/accounts/alice-main',
      symbol: 'RAIN-NYC-2026-12-01',
      side: 'BUY',
      qty: '5',
      price: '0.41',
      orderType: 'ORDER_TYPE_LIMIT',
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
      postOnly: true,
    });
    expect(next.counters.orders).toBe(5);
    expect(next.runIds).toEqual(new Set(['r1']));

    const lines = fs.readFileSync(file, 'utf8');
    tracker.acknowledged('tb-r1-000004', 'O4');
    await settle();
    expect(fs.readFileSync(file, 'utf8')).toBe(lines);
    await journal.close();
  });
});

/** The runStop line `finish` wrote before compacting (read back from .prev). */
async function lastRunStop(file: string): Promise<unknown> {
  const prev = FileJournal.open(`${file}.prev`);
  try {
    const entries = await collect(prev.replay());
    return entries.at(-1);
  } finally {
    await prev.close();
  }
}
