/**
 * Errors of the order journal, with stable codes. A journal that cannot be read is a reason not to start
 * (the bot would not know what it has in flight); a journal that cannot be written is a reason not to send
 * (a request must be durable before it leaves), so both stop trading rather than guess.
 */
import { TradebotError, type ErrorKind } from '../../errors.ts';

export const JournalErrorCode = {
  /** Another live process holds the journal's lock file. */
  LOCKED: 'JOURNAL_LOCKED',
  /** A line other than the last one is not a valid entry: the file was damaged or edited. */
  CORRUPT: 'JOURNAL_CORRUPT',
  /** The journal is shorter than what was synced to it: whole entries were lost (cut or overwritten, not a crash). */
  TRUNCATED: 'JOURNAL_TRUNCATED',
  /** Opening, reading or creating the journal file failed (permissions, missing folder, ...). */
  OPEN_FAILED: 'JOURNAL_OPEN_FAILED',
  /** Writing or fsyncing an entry failed (disk full, I/O error): requests are not sent. */
  WRITE_FAILED: 'JOURNAL_WRITE_FAILED',
  /** The journal was used after close(). */
  CLOSED: 'JOURNAL_CLOSED',
  /** Rewriting the journal at a clean stop failed; the uncompacted journal is kept. */
  COMPACT_FAILED: 'JOURNAL_COMPACT_FAILED',
} as const;

export type JournalErrorCode = (typeof JournalErrorCode)[keyof typeof JournalErrorCode];

/**
 * Kind 'config' for write failures on purpose: the OrderTracker reads an insert failure of that kind as
 * "the exchange never got it" (REJECTED locally), which is the truth when the journal refused to send.
 */
const KIND: Record<JournalErrorCode, ErrorKind> = {
  JOURNAL_LOCKED: 'config',
  JOURNAL_CORRUPT: 'config',
  JOURNAL_TRUNCATED: 'config',
  JOURNAL_OPEN_FAILED: 'config',
  JOURNAL_WRITE_FAILED: 'config',
  JOURNAL_CLOSED: 'internal',
  JOURNAL_COMPACT_FAILED: 'config',
};

export class JournalError extends TradebotError {
  constructor(code: JournalErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, { kind: KIND[code], cause: options.cause, details: options.details });
    this.name = 'JournalError';
  }
}
