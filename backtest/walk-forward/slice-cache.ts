/**
 * The window slices a process has cut (slice.ts), in one folder of its own: each slice is cut once, however
 * many runs replay it at the same time, and kept while runs use it. Beyond `maxFiles` slices, the least
 * recently used one that no run holds is deleted. `close` deletes the folder. Slices of different tapes are
 * kept apart by the tape's identity (its sha256 on a queue worker, its path here).
 */
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TapeWindow } from '../sweep/types.ts';
import { sliceName, writeSlice } from './slice.ts';

interface Entry {
  readonly file: string;
  ready: Promise<string>;
  users: number;
  used: number;
}

export interface HeldSlice {
  readonly file: string;
  release(): void;
}

export class SliceCache {
  private readonly entries = new Map<string, Entry>();
  private clock = 0;

  constructor(
    private readonly dir: string,
    private readonly maxFiles = 16,
  ) {}

  /** The slice of `tape` for `window` (cut now when missing), held until `release`. `tapeId` tells tapes apart. */
  async acquire(tape: string, window: TapeWindow, tapeId?: string): Promise<HeldSlice> {
    const id = tapeId ?? createHash('sha256').update(path.resolve(tape)).digest('hex');
    const folder = path.join(this.dir, id.slice(0, 16));
    const file = path.join(folder, sliceName(tape, window));
    let entry = this.entries.get(file);
    if (entry === undefined) {
      const created: Entry = { file, ready: Promise.resolve(file), users: 0, used: 0 };
      created.ready = mkdir(folder, { recursive: true })
        .then(() => writeSlice(tape, window, file))
        .then(() => file);
      // a failed cut is forgotten, so the next run tries again (the error goes to the runs that waited)
      created.ready.catch(() => this.entries.delete(file));
      this.entries.set(file, created);
      entry = created;
    }
    entry.users++;
    entry.used = ++this.clock;
    const held = entry;
    try {
      await held.ready;
    } catch (error) {
      held.users--;
      throw error;
    }
    await this.evict();
    let released = false;
    return {
      file,
      release: () => {
        if (!released) held.users--;
        released = true;
      },
    };
  }

  private async evict(): Promise<void> {
    while (this.entries.size > this.maxFiles) {
      const idle = [...this.entries.values()].filter((e) => e.users === 0).sort((a, b) => a.used - b.used)[0];
      if (idle === undefined) return;
      this.entries.delete(idle.file);
      await rm(idle.file, { force: true });
    }
  }

  async close(): Promise<void> {
    this.entries.clear();
    await rm(this.dir, { recursive: true, force: true });
  }
}
