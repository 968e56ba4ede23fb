/**
 * Reading and writing the simulator's state file. Writes are atomic: the JSON goes to a temporary file in
 * the same folder, is flushed to disk, then renamed over the old file, so a crash at any moment leaves the
 * previous state or the new one, never a mix. Reading validates the whole document (its shape, schema.ts,
 * then its consistency, validate.ts: unique ids, fill states, counters, amounts); a missing
 * file is "no saved state", anything unreadable or malformed is an error that says how to recover.
 */
import { open, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TradebotError } from '../../errors.ts';
import { stateFileSchema, type StateFile } from './schema.ts';
import { stateProblems } from './validate.ts';

function stateError(code: string, message: string, cause?: unknown): TradebotError {
  return new TradebotError(code, message, { kind: 'config', ...(cause === undefined ? {} : { cause }) });
}

/** The saved state, or undefined when `file` does not exist. Throws SIM_STATE_UNREADABLE / SIM_STATE_INVALID. */
export async function readStateFile(file: string): Promise<StateFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw stateError(
      'SIM_STATE_UNREADABLE',
      `sim.stateFile ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      error,
    );
  }
  const fix = 'move it aside to start with a fresh exchange';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw stateError('SIM_STATE_INVALID', `sim.stateFile ${file}: not JSON; ${fix}`, error);
  }
  const parsed = stateFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw stateError('SIM_STATE_INVALID', `sim.stateFile ${file}: ${problems.join('; ')}; ${fix}`);
  }
  const problems = stateProblems(parsed.data);
  if (problems.length > 0) {
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw stateError('SIM_STATE_INVALID', `sim.stateFile ${file}: ${problems.slice(0, 5).join('; ')}${more}; ${fix}`);
  }
  return parsed.data;
}

/** Writes `state` to `file` atomically (temp file, fsync, rename). */
export async function writeStateFile(file: string, state: StateFile): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(state));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw stateError(
      'SIM_STATE_WRITE_FAILED',
      `sim.stateFile ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      error,
    );
  }
}
