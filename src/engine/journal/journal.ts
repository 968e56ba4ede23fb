/**
 * The Journal port: an append-only log of what the bot decided, sent and learned about its orders, so a
 * process killed at any point can restart knowing every order it had in flight. Two implementations share
 * one contract: FileJournal (JSON lines, fdatasync'd, for live runs) and MemoryJournal (tests, backtests,
 * the embedded sim whose exchange dies with the process).
 *
 * Writing is in two strengths. `append` only queues; `flush` hands the queued lines to the OS (they survive
 * the process being killed, not a power cut); `sync` flushes and waits until they are on disk. The
 * execution adapter calls `sync` before every venue call that can create an order, once per engine step
 * for everything queued during it, so an order never exists at the exchange without its request line on
 * disk. Acknowledgements and executions are only flushed: losing them costs a lookup on restart, never a
 * duplicate order.
 */
import type { JournalEntry } from './entries.ts';

/** Counters for metrics, the run summary and the fsync-cost figures. */
export interface JournalStats {
  /** Entries appended. */
  appended: number;
  /** write(2) calls (one per flush that had something queued). */
  writes: number;
  /** fdatasync calls. */
  syncs: number;
  /** Time spent in fdatasync, microseconds. */
  syncMicros: number;
}

/** Where the journal reports what it tolerated (a torn last line). A pino Logger fits. */
export interface JournalWarnings {
  warn(details: object, message: string): void;
}

export interface Journal {
  /** A short description for logs (the file path, or "memory"). */
  readonly description: string;
  readonly stats: Readonly<JournalStats>;
  /** Queues one entry; written by the next `flush` or `sync`. */
  append(entry: JournalEntry): void;
  /** Writes the queued entries (no fsync). Throws JournalError WRITE_FAILED. */
  flush(): void;
  /** Writes the queued entries and makes everything written durable. Throws JournalError WRITE_FAILED. */
  sync(): void;
  /** Every entry, oldest first; a torn (incomplete or unreadable) last line is skipped with a warning. */
  replay(): AsyncIterable<JournalEntry>;
  /** Replaces the whole journal by `entries`, atomically (a crash leaves the old or the new one). */
  compact(entries: readonly JournalEntry[]): Promise<void>;
  /** Syncs what is queued and releases the journal (the file lock). */
  close(): Promise<void>;
}

export function emptyStats(): JournalStats {
  return { appended: 0, writes: 0, syncs: 0, syncMicros: 0 };
}
