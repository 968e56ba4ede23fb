/**
 * The journal in memory, for tests and backtests (and the embedded sim, whose exchange dies with the
 * process): the same contract as the file, lines encoded and decoded the same way, syncs counted. `lines`
 * is the "file", which a test may edit (e.g. tear its last line) before replaying; like the file, a torn
 * last line is cut (with a warning) before anything is written after it, and fewer lines than were synced
 * (whole entries removed) is JOURNAL_TRUNCATED at replay.
 */
import { encodeEntry, type JournalEntry } from './entries.ts';
import { JournalError, JournalErrorCode } from './errors.ts';
import { emptyStats, type Journal, type JournalStats, type JournalWarnings } from './journal.ts';
import { LineDecoder } from './lines.ts';

export class MemoryJournal implements Journal {
  readonly description = 'memory';
  readonly stats: JournalStats = emptyStats();
  /** The written text, one entry per element (each ends with a newline unless a test tore it). */
  readonly lines: string[] = [];
  /** How many of `lines` were synced (durable). */
  durableLines = 0;
  private queue: string[] = [];
  private closed = false;

  constructor(private readonly warnings?: JournalWarnings) {}

  append(entry: JournalEntry): void {
    this.usable();
    this.queue.push(`${encodeEntry(entry)}\n`);
    this.stats.appended += 1;
  }

  flush(): void {
    this.usable();
    if (this.queue.length === 0) return;
    const last = this.lines.at(-1);
    if (last !== undefined && !last.endsWith('\n')) {
      this.lines.pop();
      this.warnings?.warn(
        { journal: 'memory', bytes: Buffer.byteLength(last) },
        'journal: cut a torn last line (a crash during a write); nothing was sent for it',
      );
    }
    this.lines.push(...this.queue);
    this.queue = [];
    this.stats.writes += 1;
  }

  sync(): void {
    this.flush();
    if (this.durableLines === this.lines.length) return;
    this.durableLines = this.lines.length;
    this.stats.syncs += 1;
  }

  async *replay(): AsyncIterable<JournalEntry> {
    this.flush();
    if (this.lines.length < this.durableLines) {
      const missing = this.durableLines - this.lines.length;
      throw new JournalError(
        JournalErrorCode.TRUNCATED,
        `the memory journal holds ${this.lines.length} lines but ${this.durableLines} were synced: ` +
          `${missing} whole entries were lost (not a torn last line)`,
        { details: { lines: this.lines.length, synced: this.durableLines, missing } },
      );
    }
    const decoder = new LineDecoder('memory journal', this.warnings);
    for (const line of this.lines) yield* decoder.push(line);
    yield* decoder.end();
  }

  async compact(entries: readonly JournalEntry[]): Promise<void> {
    this.sync();
    this.lines.splice(0, this.lines.length, ...entries.map((e) => `${encodeEntry(e)}\n`));
    this.durableLines = this.lines.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.sync();
    this.closed = true;
  }

  private usable(): void {
    if (this.closed) throw new JournalError(JournalErrorCode.CLOSED, 'the memory journal is closed');
  }
}
