/**
 * One process per journal: `<journal>.lock` holds the owner's pid, created exclusively. Two bots appending
 * to one journal would each recover (and compact away) the other's orders. A lock left by a killed process
 * (its pid no longer runs) is taken over: SIGKILL, the case the journal exists for, leaves one behind. A lock
 * naming this process's own pid is stale too (a restarted container's bot is pid 1 again), unless this
 * process holds it right now (tracked in memory).
 */
import fs from 'node:fs';
import { JournalError, JournalErrorCode } from './errors.ts';

export interface JournalLock {
  readonly file: string;
  release(): void;
}

const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Takes `<journalFile>.lock`, or throws JOURNAL_LOCKED naming the live owner. */
export function acquireLock(journalFile: string): JournalLock {
  const file = `${journalFile}.lock`;
  if (held.has(file))
    throw new JournalError(JournalErrorCode.LOCKED, `journal ${journalFile} is already open in this process; close it first`, {
      details: { lock: file },
    });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      held.add(file);
      return {
        file,
        release: () => {
          if (!held.delete(file)) return;
          if (ownerOf(file) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new JournalError(
          JournalErrorCode.OPEN_FAILED,
          `cannot create the journal lock ${file} (${code ?? 'error'}); check the folder exists and is writable`,
          { cause: error },
        );
      }
      const owner = ownerOf(file);
      if (owner !== undefined && owner !== process.pid && alive(owner)) {
        throw new JournalError(
          JournalErrorCode.LOCKED,
          `journal ${journalFile} is in use by process ${owner}; stop that bot first, or give this one its own bot.journal`,
          { details: { pid: owner, lock: file } },
        );
      }
      // stale (its owner is gone) or unreadable: take it over
      fs.rmSync(file, { force: true });
    }
  }
  throw new JournalError(
    JournalErrorCode.LOCKED,
    `journal ${journalFile}: could not take the lock ${file} (another process keeps taking it)`,
    { details: { lock: file } },
  );
}
