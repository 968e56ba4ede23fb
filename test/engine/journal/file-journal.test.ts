/**
 * FileJournal specifics: a torn last line is cut when the file is opened (so new lines never follow half a
 * line); a damaged line that is not the last one stops the replay with JOURNAL_CORRUPT; one process per
 * journal (JOURNAL_LOCKED while a live process holds the lock, a dead owner's lock is taken over); a failed
 * write breaks the journal for good (JOURNAL_WRITE_FAILED); compaction keeps the old file as `.prev`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileJournal, JournalErrorCode, type JournalFs } from '../../../src/engine/journal/index.ts';
import { collect, insert, recordWarnings, runStart } from './helpers/entries.ts';

function journalPath(): string {
  return path.join(fs.mkdtempSync(path.join(tmpdir(), 'tradebot-journal-')), 'nested', 'journal.jsonl');
}

const line = (entry: object) => `${JSON.stringify(entry)}\n`;

describe('FileJournal', () => {
  it('creates its folder and file, and cuts a torn last line when opened', async () => {
    const file = journalPath();
    const first = FileJournal.open(file);
    first.append(runStart('r1'));
    first.sync();
    await first.close();
    const intact = fs.statSync(file).size;
    fs.appendFileSync(file, '{"type":"request","kind":"insert","time":2,"clo');

    const warnings = recordWarnings();
    const again = FileJournal.open(file, { warnings });
    expect(fs.statSync(file).size).toBe(intact);
    expect(warnings.seen.map((w) => w.details)).toEqual([expect.objectContaining({ bytes: 47, offset: intact })]);
    again.append(insert('tb-r2-000001'));
    again.sync();
    expect(await collect(again.replay())).toEqual([runStart('r1'), insert('tb-r2-000001')]);
    await again.close();
  });

  it('stops the replay with JOURNAL_CORRUPT at a damaged line that is not the last, naming the line', async () => {
    const file = journalPath();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line(runStart('r1')) + '{"type":"request",garbage\n' + line(insert('tb-r1-000001')));
    const journal = FileJournal.open(file);
    await expect(collect(journal.replay())).rejects.toMatchObject({ code: JournalErrorCode.CORRUPT, details: { line: 2 } });
    await journal.close();
  });

  it('treats an unreadable last line that has its newline as torn too (skipped with a warning)', async () => {
    const file = journalPath();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, line(runStart('r1')) + '{"type":"ack","time":3}\n');
    const warnings = recordWarnings();
    const journal = FileJournal.open(file, { warnings });
    expect(await collect(journal.replay())).toEqual([runStart('r1')]);
    expect(warnings.seen[0]?.details).toMatchObject({ line: 2, why: 'unreadable' });
    await journal.close();
  });

  it("is held by one process: JOURNAL_LOCKED while a live process or this one has it open; a dead owner's lock is taken over", async () => {
    const file = journalPath();
    const journal = FileJournal.open(file);
    expect(() => FileJournal.open(file)).toThrow(expect.objectContaining({ code: JournalErrorCode.LOCKED }));
    await journal.close();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);

    fs.writeFileSync(`${file}.lock`, `${process.ppid}\n`); // the test runner: alive
    expect(() => FileJournal.open(file)).toThrow(
      expect.objectContaining({ code: JournalErrorCode.LOCKED, details: expect.objectContaining({ pid: process.ppid }) }),
    );

    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = child.pid ?? 0;
    await new Promise((resolve) => child.once('exit', resolve));
    fs.writeFileSync(`${file}.lock`, `${deadPid}\n`); // a killed bot's lock
    const taken = FileJournal.open(file);
    expect(fs.readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await taken.close();
  });

  it('refuses every write after a failed one (JOURNAL_WRITE_FAILED), so nothing is sent without its line', async () => {
    const file = journalPath();
    let fail = false;
    const io: JournalFs = {
      ...fs,
      fdatasyncSync: (fd: number) => {
        if (fail) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        fs.fdatasyncSync(fd);
      },
    };
    const journal = FileJournal.open(file, { fs: io });
    journal.append(runStart('r1'));
    journal.sync();
    fail = true;
    journal.append(insert('tb-r1-000001'));
    expect(() => journal.sync()).toThrow(
      expect.objectContaining({ code: JournalErrorCode.WRITE_FAILED, message: expect.stringMatching(/ENOSPC/) }),
    );
    fail = false;
    expect(() => journal.append(insert('tb-r1-000002'))).toThrow(expect.objectContaining({ code: JournalErrorCode.WRITE_FAILED }));
    await journal.close();
  });

  it('compacts atomically: the new content replaces the file, the old one is kept as .prev', async () => {
    const file = journalPath();
    const journal = FileJournal.open(file);
    journal.append(runStart('r1'));
    journal.append(insert('tb-r1-000001'));
    const before = [runStart('r1'), insert('tb-r1-000001')];
    await journal.compact([runStart('r2')]);
    journal.append(insert('tb-r2-000001'));
    await journal.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(line(runStart('r2')) + line(insert('tb-r2-000001')));
    expect(fs.readFileSync(`${file}.prev`, 'utf8')).toBe(before.map(line).join(''));
    expect(fs.existsSync(`${file}.tmp`)).toBe(false);
  });
});
