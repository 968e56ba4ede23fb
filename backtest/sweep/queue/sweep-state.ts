/**
 * `<out>/queue.json`: which queued sweep an out folder holds (its id, the queue, a fingerprint of its
 * inputs), so that the same command started again resumes that sweep (same id: the jobs Redis still holds
 * are found, the runs on disk are kept) instead of starting another. Other inputs in the same folder are
 * refused (SWEEP_RESUME_MISMATCH) unless --force, which starts a new sweep there and names the old one so its
 * jobs can be removed from Redis. A folder holding a local sweep's runs is refused as `tradebot sweep` does.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { TradebotError } from '../../../src/errors.ts';

export const QUEUE_STATE = 'queue.json';

const stateSchema = z.object({ sweepId: z.string().min(1), queue: z.string(), fingerprint: z.string(), createdAt: z.string() });

export interface SweepState {
  readonly sweepId: string;
  /** True when the folder held this sweep already (started again with the same inputs). */
  readonly resumed: boolean;
  /** The sweep --force replaced in this folder. */
  readonly replaced?: string;
}

/** Folders of a sweep's results (a plain sweep's runs, a walk-forward's windows and stitched report). */
const RESULT_DIRS = ['runs', 'windows', 'out-of-sample'];

function holdsResults(out: string): boolean {
  return RESULT_DIRS.some((d) => existsSync(path.join(out, d)) && readdirSync(path.join(out, d)).length > 0);
}

async function clear(out: string): Promise<void> {
  for (const d of RESULT_DIRS) await rm(path.join(out, d), { recursive: true, force: true });
}

async function readState(file: string): Promise<z.output<typeof stateSchema> | undefined> {
  try {
    return stateSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return undefined;
  }
}

export async function openSweepState(out: string, fingerprint: string, queue: string, force: boolean): Promise<SweepState> {
  const file = path.join(out, QUEUE_STATE);
  const earlier = existsSync(file) ? await readState(file) : undefined;
  if (earlier !== undefined && earlier.fingerprint === fingerprint && !force) return { sweepId: earlier.sweepId, resumed: true };
  if (!force && earlier !== undefined) {
    throw new TradebotError(
      'SWEEP_RESUME_MISMATCH',
      `${out} holds queued sweep ${earlier.sweepId} of other inputs (strategy, data, config, grid, params or walk-forward differ): ` +
        'start it again with the same inputs to resume it, choose another --out, or pass --force to replace it',
      { kind: 'config' },
    );
  }
  if (!force && holdsResults(out)) {
    throw new TradebotError(
      'SWEEP_OUT_NOT_EMPTY',
      `${out} holds runs of an earlier sweep: choose another --out, delete it, or pass --force to replace them`,
      { kind: 'config' },
    );
  }
  await clear(out);
  const sweepId = randomBytes(8).toString('hex');
  await mkdir(out, { recursive: true });
  await writeFile(file, `${JSON.stringify({ sweepId, queue, fingerprint, createdAt: new Date().toISOString() }, null, 2)}\n`, 'utf8');
  return { sweepId, resumed: false, ...(earlier === undefined ? {} : { replaced: earlier.sweepId }) };
}
