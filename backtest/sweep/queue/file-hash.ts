/**
 * sha256 of a file, streamed, remembered per process by path, size, modification time and inode: a worker
 * checks the tape of every job it takes, and a tape of months is hashed once, not once per run.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

export interface FileHash {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

const known = new Map<string, Promise<FileHash>>();

async function hash(file: string, bytes: number): Promise<FileHash> {
  const digest = createHash('sha256');
  for await (const chunk of createReadStream(file)) digest.update(chunk as Buffer);
  return { path: file, sha256: digest.digest('hex'), bytes };
}

/** The file's sha256 (throws the fs error when it cannot be read). */
export async function hashFile(given: string): Promise<FileHash> {
  const file = path.resolve(given);
  const info = await stat(file);
  const key = `${file}\u0000${info.size}\u0000${info.mtimeMs}\u0000${info.ino}`;
  let entry = known.get(key);
  if (entry === undefined) {
    entry = hash(file, info.size);
    known.set(key, entry);
    entry.catch(() => known.delete(key));
  }
  return entry;
}
