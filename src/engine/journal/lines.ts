/**
 * Splitting a journal's text into entries. Every line but the last must be a valid entry (anything else
 * means the file was damaged or edited: JOURNAL_CORRUPT, with the line number). The last line may be torn:
 * a crash in the middle of a write leaves it without its newline or half-written, and it is skipped with a
 * warning. A torn line cannot hide a sent order: its request would have been fsynced, hence complete,
 * before the venue call.
 */
import { decodeEntry, type JournalEntry } from './entries.ts';
import { JournalError, JournalErrorCode } from './errors.ts';
import type { JournalWarnings } from './journal.ts';

/** Parses complete lines as they come; `end()` judges the last one. */
export class LineDecoder {
  private pending = '';
  private lineNo = 0;
  /** The previous line failed to decode; only fatal if another line follows it. */
  private bad: { lineNo: number; text: string } | undefined;

  constructor(
    private readonly source: string,
    private readonly warnings: JournalWarnings | undefined,
  ) {}

  /** Feeds text; returns the entries of the lines it completed. */
  push(text: string): JournalEntry[] {
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop() ?? '';
    const out: JournalEntry[] = [];
    for (const line of parts) {
      const entry = this.decode(line);
      if (entry !== undefined) out.push(entry);
    }
    return out;
  }

  /** No more text: the unterminated rest (if any) is the last line. */
  end(): JournalEntry[] {
    const rest = this.pending;
    this.pending = '';
    const out: JournalEntry[] = [];
    if (rest.trim() !== '') {
      this.lineNo += 1;
      this.checkBad();
      const entry = decodeEntry(rest);
      if (entry !== undefined) out.push(entry);
      else this.torn(this.lineNo, rest, 'no newline');
    } else if (this.bad !== undefined) {
      this.torn(this.bad.lineNo, this.bad.text, 'unreadable');
    }
    this.bad = undefined;
    return out;
  }

  private decode(line: string): JournalEntry | undefined {
    this.lineNo += 1;
    if (line.trim() === '') return undefined;
    this.checkBad();
    const entry = decodeEntry(line);
    if (entry === undefined) this.bad = { lineNo: this.lineNo, text: line };
    return entry;
  }

  private checkBad(): void {
    if (this.bad === undefined) return;
    const { lineNo, text } = this.bad;
    throw new JournalError(
      JournalErrorCode.CORRUPT,
      `${this.source}: line ${lineNo} is not a journal entry and is not the last line (${JSON.stringify(text.slice(0, 80))}); ` +
        'the file was damaged or edited. Move it aside and reconcile with the exchange by hand before starting again',
      { details: { source: this.source, line: lineNo } },
    );
  }

  private torn(lineNo: number, text: string, why: string): void {
    this.warnings?.warn(
      { journal: this.source, line: lineNo, bytes: Buffer.byteLength(text), why },
      'journal: skipped a torn last line (a crash during a write); nothing was sent for it',
    );
  }
}
