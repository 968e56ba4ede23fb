/**
 * The journal as a file of JSON lines, for live runs. Opened for appending (O_APPEND) under a lock file;
 * `flush` writes the queued lines with one write(2), `sync` adds an fdatasync(2) (file data plus the size,
 * which is what an append needs). The file system calls go through a `JournalFs` (node:fs by default) so a
 * test can see their order.
 *
 * Crash tolerance: a torn last line (the process died inside a write) is found when the file is opened,
 * reported, and cut off before anything is appended, so new lines never follow half a line. After a failed
 * write the journal refuses every later write (the file may end in a torn line; the next start cuts it).
 * Only bytes written after the last sync can be torn: the sync mark (`sync-mark.ts`, `<file>.synced`) keeps
 * how many bytes were synced, and a journal shorter than that lost whole entries that were on disk (it was
 * cut or overwritten): opening it fails with JOURNAL_TRUNCATED, and nothing is cut or appended.
 *
 * Compaction at a clean stop writes the entries that still matter to `<file>.tmp`, fdatasyncs it, keeps the
 * old journal as `<file>.prev` (a hard link, replaced each time) and renames the new one over `<file>`,
 * then fsyncs the folder: a crash at any point leaves either the whole old journal or the new one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeEntry, type JournalEntry } from './entries.ts';
import { JournalError, JournalErrorCode } from './errors.ts';
import { emptyStats, type Journal, type JournalStats, type JournalWarnings } from './journal.ts';
import { LineDecoder } from './lines.ts';
import { acquireLock, type JournalLock } from './lock.ts';
import { SyncMark, type MarkedSize } from './sync-mark.ts';

/** The file system calls the journal makes (a subset of node:fs). */
export interface JournalFs {
  openSync(file: string, flags: string, mode?: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fdatasyncSync(fd: number): void;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  fstatSync(fd: number): { size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  ftruncateSync(fd: number, length: number): void;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, link: string): void;
  rmSync(file: string, options: { force: boolean }): void;
  mkdirSync(dir: string, options: { recursive: boolean; mode?: number }): unknown;
  existsSync(file: string): boolean;
}

export interface FileJournalOptions {
  warnings?: JournalWarnings;
  fs?: JournalFs;
}

const CHUNK = 64 * 1024;

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

export class FileJournal implements Journal {
  readonly description: string;
  readonly stats: JournalStats = emptyStats();
  private readonly fs: JournalFs;
  private readonly warnings: JournalWarnings | undefined;
  private queue: string[] = [];
  private dirty = false;
  private broken: JournalError | undefined;
  private closed = false;

  private constructor(
    readonly file: string,
    private fd: number,
    private readonly lock: JournalLock,
    private readonly mark: SyncMark,
    /** The file's inode and its size in bytes (everything written to it so far). */
    private written: MarkedSize,
    options: FileJournalOptions,
  ) {
    this.description = file;
    this.fs = options.fs ?? fs;
    this.warnings = options.warnings;
  }

  /** Opens (creating it and its folder when missing) and locks the journal; cuts a torn last line. */
  static open(file: string, options: FileJournalOptions = {}): FileJournal {
    const io = options.fs ?? fs;
    const absolute = path.resolve(file);
    const dir = path.dirname(absolute);
    try {
      io.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new JournalError(
        JournalErrorCode.OPEN_FAILED,
        `cannot create the journal folder ${dir} (${errno(error)}); set bot.journal to a writable path`,
        { cause: error },
      );
    }
    const lock = acquireLock(absolute);
    let fd: number | undefined;
    let mark: SyncMark | undefined;
    try {
      const existed = io.existsSync(absolute);
      fd = io.openSync(absolute, 'a+', 0o600);
      if (!existed) syncDir(io, dir);
      mark = SyncMark.open(absolute);
      const ino = SyncMark.inodeOf(fd);
      if (existed) checkNothingLost(io, fd, absolute, ino, mark.read());
      else mark.record({ ino, size: 0 }); // a mark left for a deleted journal whose inode is reused says nothing of this one
      const size = cutTornTail(io, fd, absolute, options.warnings);
      return new FileJournal(absolute, fd, lock, mark, { ino, size }, options);
    } catch (error) {
      if (fd !== undefined) io.closeSync(fd);
      mark?.close();
      lock.release();
      if (error instanceof JournalError) throw error;
      throw new JournalError(
        JournalErrorCode.OPEN_FAILED,
        `cannot open the journal ${absolute} (${errno(error)}); check the path and its permissions`,
        { cause: error },
      );
    }
  }

  append(entry: JournalEntry): void {
    this.usable();
    this.queue.push(`${encodeEntry(entry)}\n`);
    this.stats.appended += 1;
  }

  flush(): void {
    this.usable();
    if (this.queue.length === 0) return;
    const data = Buffer.from(this.queue.join(''), 'utf8');
    this.queue = [];
    try {
      let offset = 0;
      while (offset < data.length) offset += this.fs.writeSync(this.fd, data, offset, data.length - offset);
      this.written = { ino: this.written.ino, size: this.written.size + data.length };
      this.stats.writes += 1;
      this.dirty = true;
    } catch (error) {
      throw this.fail(error, 'write');
    }
  }

  sync(): void {
    this.flush();
    if (!this.dirty) return;
    const started = performance.now();
    try {
      this.fs.fdatasyncSync(this.fd);
    } catch (error) {
      throw this.fail(error, 'fdatasync');
    }
    try {
      this.mark.record(this.written);
    } catch (error) {
      throw this.fail(error, `write of ${this.mark.file}`);
    }
    this.dirty = false;
    this.stats.syncs += 1;
    this.stats.syncMicros += Math.round((performance.now() - started) * 1000);
  }

  async *replay(): AsyncIterable<JournalEntry> {
    this.flush();
    const fd = this.fs.openSync(this.file, 'r');
    try {
      const decoder = new LineDecoder(this.file, this.warnings);
      const buffer = Buffer.alloc(CHUNK);
      const text = new TextDecoder('utf8');
      for (;;) {
        const read = this.fs.readSync(fd, buffer, 0, CHUNK, null);
        if (read === 0) break;
        yield* decoder.push(text.decode(buffer.subarray(0, read), { stream: true }));
      }
      yield* decoder.push(text.decode());
      yield* decoder.end();
    } finally {
      this.fs.closeSync(fd);
    }
  }

  async compact(entries: readonly JournalEntry[]): Promise<void> {
    this.sync();
    const io = this.fs;
    const tmp = `${this.file}.tmp`;
    const prev = `${this.file}.prev`;
    try {
      const data = Buffer.from(entries.map((e) => `${encodeEntry(e)}\n`).join(''), 'utf8');
      const fd = io.openSync(tmp, 'w', 0o600);
      try {
        let offset = 0;
        while (offset < data.length) offset += io.writeSync(fd, data, offset, data.length - offset);
        io.fdatasyncSync(fd);
      } finally {
        io.closeSync(fd);
      }
      io.rmSync(prev, { force: true });
      io.linkSync(this.file, prev);
      io.renameSync(tmp, this.file);
      syncDir(io, path.dirname(this.file));
    } catch (error) {
      io.rmSync(tmp, { force: true });
      throw new JournalError(
        JournalErrorCode.COMPACT_FAILED,
        `cannot compact the journal ${this.file} (${errno(error)}); the full journal is kept and replayed on the next start`,
        { cause: error },
      );
    }
    io.closeSync(this.fd);
    this.fd = io.openSync(this.file, 'a+', 0o600);
    this.written = { ino: SyncMark.inodeOf(this.fd), size: io.fstatSync(this.fd).size };
    this.mark.record(this.written);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.broken === undefined) this.sync();
    } finally {
      this.closed = true;
      this.fs.closeSync(this.fd);
      this.mark.close();
      this.lock.release();
    }
  }

  private usable(): void {
    if (this.closed) throw new JournalError(JournalErrorCode.CLOSED, `journal ${this.file} is closed`);
    if (this.broken !== undefined) throw this.broken;
  }

  private fail(error: unknown, call: string): JournalError {
    this.broken = new JournalError(
      JournalErrorCode.WRITE_FAILED,
      `journal ${this.file}: ${call} failed (${errno(error)}); no order is sent until the bot is restarted with a writable journal`,
      { cause: error, details: { call } },
    );
    return this.broken;
  }
}

/** fsync of a folder, so a created or renamed file's name is durable too. */
function syncDir(io: JournalFs, dir: string): void {
  const fd = io.openSync(dir, 'r');
  try {
    io.fsyncSync(fd);
  } finally {
    io.closeSync(fd);
  }
}

/**
 * JOURNAL_TRUNCATED when the journal is shorter than its sync mark says was on disk: whole entries were lost,
 * which no crash does (a crash tears only what was written after the last sync).
 */
function checkNothingLost(io: JournalFs, fd: number, file: string, ino: string, mark: MarkedSize | undefined): void {
  if (mark === undefined || mark.ino !== ino) return;
  const size = io.fstatSync(fd).size;
  if (size >= mark.size) return;
  const missing = mark.size - size;
  throw new JournalError(
    JournalErrorCode.TRUNCATED,
    `journal ${file} is ${size} bytes but ${mark.size} bytes of entries were synced to it: ${missing} bytes of whole entries were lost ` +
      '(the file was cut or overwritten, which a crash never does). Orders it recorded may still be working at the exchange: move the ' +
      `journal and ${file}.synced aside and reconcile with the exchange by hand before starting again`,
    { details: { journal: file, size, synced: mark.size, missing } },
  );
}

/**
 * Cuts an unterminated last line (a write torn by a crash) so new lines start on a line of their own;
 * answers the file's size after it.
 */
function cutTornTail(io: JournalFs, fd: number, file: string, warnings: JournalWarnings | undefined): number {
  const size = io.fstatSync(fd).size;
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  io.readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return size;
  let end = 0;
  const buffer = Buffer.alloc(CHUNK);
  for (let pos = size; pos > 0 && end === 0;) {
    const start = Math.max(0, pos - CHUNK);
    const read = io.readSync(fd, buffer, 0, pos - start, start);
    const index = buffer.subarray(0, read).lastIndexOf(0x0a);
    if (index >= 0) end = start + index + 1;
    pos = start;
  }
  warnings?.warn(
    { journal: file, bytes: size - end, offset: end },
    'journal: cut a torn last line (a crash during a write); nothing was sent for it',
  );
  io.ftruncateSync(fd, end);
  io.fdatasyncSync(fd);
  return end;
}
