/**
 * One contract for every Journal implementation (FileJournal, MemoryJournal): entries come back from
 * replay as appended, in order, decimals as strings; append only queues, flush writes, sync makes durable
 * (and is not repeated when nothing changed); compact replaces the content; a torn last line is skipped
 * with a warning; a closed journal refuses appends with JOURNAL_CLOSED.
 */
import { mkdtempSync, appendFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileJournal, JournalErrorCode, MemoryJournal, type Journal, type JournalWarnings } from '../../../src/engine/journal/index.ts';
import { ack, collect, execution, insert, recordWarnings, runStart } from './helpers/entries.ts';

interface Subject {
  /** A fresh, empty journal. */
  open(warnings?: JournalWarnings): Journal;
  /** The same journal's content opened again (a restart), after `tear` appended raw text to it. */
  reopen(journal: Journal, tear: string, warnings: JournalWarnings): Promise<Journal>;
  /** Lines durable so far (what a power cut would keep). */
  durable(journal: Journal): number;
}

const file: Subject = {
  open: (warnings) =>
    FileJournal.open(
      path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-journal-')), 'journal.jsonl'),
      warnings === undefined ? {} : { warnings },
    ),
  async reopen(journal, tear, warnings) {
    await journal.close();
    const name = (journal as FileJournal).file;
    appendFileSync(name, tear);
    return FileJournal.open(name, { warnings });
  },
  durable: (journal) =>
    readFileSync((journal as FileJournal).file, 'utf8')
      .split('\n')
      .filter((l) => l !== '').length,
};

const memory: Subject = {
  open: (warnings) => new MemoryJournal(warnings),
  async reopen(journal, tear, warnings) {
    const lines = [...(journal as MemoryJournal).lines, tear];
    const again = new MemoryJournal(warnings);
    again.lines.push(...lines);
    return again;
  },
  durable: (journal) => (journal as MemoryJournal).durableLines,
};

describe.each([
  ['FileJournal', file],
  ['MemoryJournal', memory],
] as const)('%s (journal contract)', (_name, subject) => {
  it('replays appended entries in order with decimals as strings', async () => {
    const journal = subject.open();
    const entries = [
      runStart('r1'),
      insert('tb-r1-000001', { price: '0.41', qty: '5' }),
      ack('tb-r1-000001', 'O1'),
      execution('tb-r1-000001', 'O1', '2', 'PARTIALLY_FILLED', '0.405'),
    ];
    for (const entry of entries) journal.append(entry);
    expect(await collect(journal.replay())).toEqual(entries);
    await journal.close();
  });

  it('append only queues, flush writes without a sync, sync makes it durable once', async () => {
    const journal = subject.open();
    journal.append(runStart('r1'));
    expect(journal.stats).toMatchObject({ appended: 1, writes: 0, syncs: 0 });
    journal.flush();
    expect(journal.stats).toMatchObject({ writes: 1, syncs: 0 });
    journal.append(insert('tb-r1-000001'));
    journal.append(insert('tb-r1-000002'));
    journal.sync();
    expect(journal.stats).toMatchObject({ appended: 3, writes: 2, syncs: 1 });
    expect(subject.durable(journal)).toBe(3);
    journal.sync();
    expect(journal.stats.syncs).toBe(1);
    await journal.close();
  });

  it('compact replaces the content; later appends follow it', async () => {
    const journal = subject.open();
    journal.append(runStart('r1'));
    journal.append(insert('tb-r1-000001'));
    const kept = [{ type: 'checkpoint' as const, time: 9, runIds: ['r1'], counters: { intents: 0, orders: 1, crosses: 0 } }];
    await journal.compact(kept);
    journal.append(runStart('r2'));
    expect(await collect(journal.replay())).toEqual([...kept, runStart('r2')]);
    await journal.close();
  });

  it('skips a torn last line with a warning, and appends after it start on a line of their own', async () => {
    const journal = subject.open();
    journal.append(runStart('r1'));
    journal.append(insert('tb-r1-000001'));
    journal.sync();
    const warnings = recordWarnings();
    const again = await subject.reopen(journal, '{"type":"request","kind":"ins', warnings);
    again.append(ack('tb-r1-000001', 'O1'));
    again.flush();
    expect(await collect(again.replay())).toEqual([runStart('r1'), insert('tb-r1-000001'), ack('tb-r1-000001', 'O1')]);
    expect(warnings.seen).toHaveLength(1);
    expect(warnings.seen[0]?.message).toMatch(/torn last line/);
    await again.close();
  });

  it('refuses appends once closed (JOURNAL_CLOSED)', async () => {
    const journal = subject.open();
    await journal.close();
    expect(() => journal.append(runStart('r1'))).toThrow(expect.objectContaining({ code: JournalErrorCode.CLOSED }));
  });
});
