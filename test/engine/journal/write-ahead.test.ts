/**
 * Write-ahead order of the journal, seen through a spy on the file system calls and the venue calls: the
 * lines of every request are written and fdatasync'd BEFORE the venue call that carries them leaves, once
 * per engine step (flush) for all its inserts and cancels, once per replace or cross; acknowledgements are
 * written right after the answer without an fdatasync; and when the fdatasync fails nothing that can open
 * an order leaves (the inserts are REJECTED locally with JOURNAL_WRITE_FAILED), cancels still do, and the
 * failure is reported once. Real FileJournal, JournalRecorder, OrderTracker and ExecutionAdapter.
 */
import { describe, expect, it } from 'vitest';
import { cancel, cross, place, replace, settle, setup } from './helpers/adapter-rig.ts';

describe('order journal write-ahead', () => {
  it("writes and fdatasyncs a step's inserts once before the insert call; acks are written after the answer, not fdatasynced", async () => {
    const { log, venue, submit, journal } = setup();
    submit(place('tb-r1-000001'), place('tb-r1-000002'), place('tb-r1-000003'));
    expect(log).toEqual([
      'write intent intent intent request:insert request:insert request:insert',
      'fdatasync',
      'insertOrders tb-r1-000001,tb-r1-000002,tb-r1-000003',
    ]);

    log.length = 0;
    venue.callsOf('insert')[0]?.resolve(['O1', 'O2', 'O3']);
    await settle();
    expect(log).toEqual(['write ack ack ack']);

    log.length = 0;
    submit(cancel('tb-r1-000001'), cancel('tb-r1-000002'));
    expect(log).toEqual(['write intent intent request:cancel request:cancel', 'fdatasync', 'cancelOrders tb-r1-000001,tb-r1-000002']);
    await journal.close();
  });

  it('makes a replace and a cross durable before their calls', async () => {
    const { log, venue, submit, journal } = setup();
    submit(place('tb-r1-000001'));
    venue.callsOf('insert')[0]?.resolve(['O1']);
    await settle();

    log.length = 0;
    submit(replace('tb-r1-000001', 'tb-r1-000002'));
    expect(log).toEqual(['write intent request:replace', 'fdatasync', 'replaceOrders tb-r1-000002']);
    log.length = 0;
    submit(cross());
    expect(log).toEqual(['write intent request:cross request:cross', 'fdatasync', 'cross x-r1-000001']);
    await journal.close();
  });

  it('sends no insert, replace or cross when fdatasync fails (REJECTED locally, reported once) but still sends cancels', async () => {
    const { log, venue, submit, tracker, failures } = setup({ failSyncAfter: 2 });
    submit(place('tb-r1-000001'));
    venue.callsOf('insert')[0]?.resolve(['O1']);
    await settle();

    log.length = 0;
    submit(place('tb-r1-000002'), cancel('tb-r1-000001'));
    submit(replace('tb-r1-000001', 'tb-r1-000003'));
    submit(cross());
    expect(log.filter((l) => !l.startsWith('write'))).toEqual(['cancelOrders tb-r1-000001']);
    expect(venue.callsOf('insert')).toHaveLength(1);
    expect(tracker.get('tb-r1-000002')?.state).toBe('REJECTED');
    expect(failures.map((f) => f.code)).toEqual(['JOURNAL_WRITE_FAILED']);
  });
});
