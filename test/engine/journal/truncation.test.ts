/**
 * A journal that lost whole entries is not a torn last line (issue 21). Only the bytes after the last sync can
 * be torn by a crash; a journal cut below what was synced to it (here: to half its length) lost entries that
 * were on disk, and opening it fails with JOURNAL_TRUNCATED saying so, with no "torn last line" warning. A real
 * torn tail is still cut with its warning, and a journal moved aside or deleted starts afresh.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileJournal, JournalErrorCode, MemoryJournal } from '../../../src/engine/journal/index.ts';
import { collect, insert, recordWarnings, runStart } from './helpers/entries.ts';

function journalPath(): string {
  return path.join(fs.mkdtempSync(path.join(tmpdir(), 'tradebot-journal-')), 'journal.jsonl');
}

/** A journal with a run start and `count` synced inserts, closed. */
async function written(file: string, count: number): Promise<void> {
  const journal = FileJournal.open(file);
  journal.append(runStart('r1'));
  for (let i = 1; i <= count; i++) {
    journal.append(insert(`tb-r1-${String(i).padStart(6, '0')}`));
    journal.sync();
  }
  await journal.close();
}

describe('FileJournal: a cut that loses whole entries', () => {
  it('is JOURNAL_TRUNCATED naming the missing bytes, not a torn last line', async () => {
    const file = journalPath();
    await written(file, 10);
    const synced = fs.statSync(file).size;
    fs.truncateSync(file, Math.floor(synced / 2));
    const warnings = recordWarnings();
    let refused: unknown;
    try {
      FileJournal.open(file, { warnings });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: JournalErrorCode.TRUNCATED,
      details: { size: Math.floor(synced / 2), synced, missing: synced - Math.floor(synced / 2) },
      message: expect.stringMatching(/whole entries were lost/),
    });
    expect((refused as Error).message).not.toMatch(/torn/);
    expect(warnings.seen).toEqual([]);
    // nothing was changed: the file keeps what is left of it, for the operator to look at
    expect(fs.statSync(file).size).toBe(Math.floor(synced / 2));
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('a cut at a line boundary is caught as well', async () => {
    const file = journalPath();
    await written(file, 4);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.split('\n').slice(0, 2).join('\n') + '\n'); // same file (inode), two lines left
    expect(() => FileJournal.open(file)).toThrow(expect.objectContaining({ code: JournalErrorCode.TRUNCATED }));
  });

  it('a torn tail after the last sync is still only cut with the torn-line warning', async () => {
    const file = journalPath();
    await written(file, 3);
    const synced = fs.statSync(file).size;
    fs.appendFileSync(file, '{"type":"request","kind":"insert","ti');
    const warnings = recordWarnings();
    const journal = FileJournal.open(file, { warnings });
    expect(fs.statSync(file).size).toBe(synced);
    expect(warnings.seen.map((w) => w.message)).toEqual([expect.stringMatching(/torn last line/)]);
    expect(await collect(journal.replay())).toHaveLength(4);
    await journal.close();
  });

  it('a journal moved aside, or deleted, starts afresh; a compacted one keeps being checked', async () => {
    const file = journalPath();
    await written(file, 3);
    fs.renameSync(file, `${file}.aside`);
    const fresh = FileJournal.open(file);
    expect(await collect(fresh.replay())).toEqual([]);
    await fresh.close();

    await written(file, 3);
    fs.rmSync(file);
    const recreated = FileJournal.open(file);
    expect(await collect(recreated.replay())).toEqual([]);
    recreated.append(runStart('r2'));
    recreated.append(insert('tb-r2-000001'));
    recreated.sync();
    await recreated.compact([runStart('r2'), insert('tb-r2-000001'), insert('tb-r2-000002')]);
    await recreated.close();
    fs.truncateSync(file, 10);
    expect(() => FileJournal.open(file)).toThrow(expect.objectContaining({ code: JournalErrorCode.TRUNCATED }));
  });
});

describe('MemoryJournal: lines removed below what was synced', () => {
  it('replay fails with JOURNAL_TRUNCATED instead of passing over the loss', async () => {
    const warnings = recordWarnings();
    const journal = new MemoryJournal(warnings);
    journal.append(runStart('r1'));
    journal.append(insert('tb-r1-000001'));
    journal.append(insert('tb-r1-000002'));
    journal.sync();
    journal.lines.splice(1);
    await expect(collect(journal.replay())).rejects.toMatchObject({ code: JournalErrorCode.TRUNCATED });
    expect(warnings.seen).toEqual([]);
  });
});
