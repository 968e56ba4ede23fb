/**
 * Which journal a live run uses. `bot.journal: <path>` always wins. Without it, a run against an
 * environment (an `exchange` section) journals to `.tradebot/journal-<account>.jsonl` in the working
 * directory (the account with every character outside [A-Za-z0-9._-] turned into `_`), so a restart on the
 * same account finds it; a run against the embedded sim journals in memory, since that exchange and its
 * orders end with the process and a file would only bring back orders of an exchange that is gone.
 */
import path from 'node:path';
import { FileJournal } from './file-journal.ts';
import type { Journal, JournalWarnings } from './journal.ts';
import { MemoryJournal } from './memory-journal.ts';

export const DEFAULT_JOURNAL_DIR = '.tradebot';

/** `.tradebot/journal-firms_demo_accounts_alice-main.jsonl` for `firms/demo/accounts/alice-main`. */
export function defaultJournalPath(account: string, cwd: string = process.cwd()): string {
  return path.join(cwd, DEFAULT_JOURNAL_DIR, `journal-${account.replace(/[^A-Za-z0-9._-]/g, '_')}.jsonl`);
}

export interface RunJournalChoice {
  /** bot.journal from the config. */
  configured: string | undefined;
  account: string;
  /** True when trading against the embedded sim started by this process. */
  embeddedSim: boolean;
  warnings: JournalWarnings;
}

export function openRunJournal(choice: RunJournalChoice): Journal {
  if (choice.configured !== undefined) return FileJournal.open(choice.configured, { warnings: choice.warnings });
  if (choice.embeddedSim) return new MemoryJournal(choice.warnings);
  return FileJournal.open(defaultJournalPath(choice.account), { warnings: choice.warnings });
}
