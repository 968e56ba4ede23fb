/**
 * The order journal (issue 8): an append-only, fsynced record of intents, requests, acknowledgements and
 * executions, so a bot killed at any moment restarts knowing every order it had in flight, settles them
 * with the exchange and never sends one twice.
 *
 * Why JSON lines and not SQLite: the journal's only operations are "append, then make durable" on the hot
 * path and "read everything once" at start, which a log file does with one write(2) and one fdatasync(2)
 * per engine step, with no native module to build (better-sqlite3 compiles from source for minutes and
 * would tie the install to a toolchain). Lines stay readable with `tail`/`jq` during an incident, a torn
 * last line from a crash is detected and cut, and the file is compacted at every clean stop so replay stays
 * short. What SQLite would add (queries, indexes, transactions across tables) the journal does not need:
 * recovery folds the lines in memory.
 *
 * Parts: entries.ts (line schemas), journal.ts (the port), file-journal.ts / memory-journal.ts
 * (implementations; sync-mark.ts tells a torn last line from lost entries), rebuild.ts (replay -> orders in
 * flight), recorder.ts (the pipeline's writer), recovery.ts (restore + settle with the exchange), open.ts
 * (which journal a live run uses).
 */
export type { Journal, JournalStats, JournalWarnings } from './journal.ts';
export { FileJournal, type FileJournalOptions, type JournalFs } from './file-journal.ts';
export { MemoryJournal } from './memory-journal.ts';
export { JournalError, JournalErrorCode } from './errors.ts';
export { decodeEntry, encodeEntry, journalEntrySchema, type IdCounters, type JournalEntry, type OrderTerms } from './entries.ts';
export { JournalRebuilder, rebuildJournal, type RecoveredHolding, type RecoveredJournal, type RecoveredOrder } from './rebuild.ts';
export { JournalRecorder, type JournalRecorderOptions } from './recorder.ts';
export { JournalRecovery, type JournalRecoveryOptions } from './recovery.ts';
export { DEFAULT_JOURNAL_DIR, defaultJournalPath, openRunJournal, type RunJournalChoice } from './open.ts';
