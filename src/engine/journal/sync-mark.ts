/**
 * The journal's sync mark, `<journal>.synced`: which file (its inode) and how many of its bytes were on disk at
 * the last fdatasync, rewritten in place (one fixed-size pwrite) after every sync. It has no fsync of its own:
 * after a power cut it may lag behind the journal, never run ahead of it, since it is written only once the
 * journal's sync returned.
 *
 * What it is for: a crash can only tear bytes written after the last sync (the final, partial line). A
 * journal of the marked inode that is shorter than its mark lost entries that were on disk, so it was cut or
 * overwritten in place, and that is reported as such (JOURNAL_TRUNCATED), never as a torn last line. A journal
 * moved aside or deleted leaves a mark naming another inode (or a new file is being created): the mark is
 * then ignored and rewritten.
 */
import fs from 'node:fs';

/** Bytes of the mark; the text is padded to it so every rewrite overwrites the whole previous one. */
const SIZE = 96;

export interface MarkedSize {
  /** The journal file's inode, as a decimal string (inode numbers may exceed 2^53). */
  readonly ino: string;
  /** Bytes of that file on disk at its last sync. */
  readonly size: number;
}

export class SyncMark {
  private constructor(
    readonly file: string,
    private readonly fd: number,
  ) {}

  /** Opens (creating when missing) the mark of `journalFile`. */
  static open(journalFile: string): SyncMark {
    const file = `${journalFile}.synced`;
    return new SyncMark(file, fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+', 0o600));
  }

  /** The inode of an open file, as the mark keeps it. */
  static inodeOf(fd: number): string {
    return fs.fstatSync(fd, { bigint: true }).ino.toString();
  }

  /** The recorded mark, or undefined when there is none (a new or unreadable mark is no evidence). */
  read(): MarkedSize | undefined {
    const buffer = Buffer.alloc(SIZE);
    const read = fs.readSync(this.fd, buffer, 0, SIZE, 0);
    try {
      const json = JSON.parse(buffer.subarray(0, read).toString('utf8').trim()) as { ino?: unknown; size?: unknown };
      if (typeof json.ino !== 'string' || typeof json.size !== 'number' || !Number.isSafeInteger(json.size)) return undefined;
      return { ino: json.ino, size: json.size };
    } catch {
      return undefined;
    }
  }

  record(mark: MarkedSize): void {
    const text = Buffer.from(JSON.stringify(mark).padEnd(SIZE - 1) + '\n', 'utf8');
    fs.writeSync(this.fd, text, 0, text.length, 0);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
