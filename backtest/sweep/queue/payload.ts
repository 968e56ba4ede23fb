/**
 * What travels through Redis for a queued sweep, as typed and validated shapes (zod): the job a coordinator
 * adds (one backtest: the strategy by name or by path with its sha256, the tape by path with its sha256, the
 * config file's text, the params, the walk-forward window), the small value a worker returns, and the result
 * files it leaves under their own key. Names shared by coordinators and workers: the queue, the key prefix,
 * job ids (`<sweep id>-<run key>`, so two sweeps on one Redis never share a job) and result keys.
 */
import { z } from 'zod';

/** The BullMQ queue every sweep uses; sweeps are told apart by their job ids. */
export const QUEUE_NAME = 'sweep';
/** BullMQ's key prefix: every key of the queue starts with `tradebot:sweep:`. */
export const QUEUE_PREFIX = 'tradebot';
/** Payload version: a worker refuses jobs of another version with a clear error instead of misreading them. */
export const PAYLOAD_VERSION = 1;
/** How long a finished job's result files wait in Redis for their coordinator (seconds). */
export const RESULT_TTL_SECONDS = 7 * 24 * 3600;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 in hex');
const window = z.strictObject({ from: z.number().int(), to: z.number().int() });

export const queueJobSchema = z.strictObject({
  v: z.number().int(),
  sweep: z.string().min(1),
  /** The run within its sweep: its folder relative to the sweep's out folder, e.g. `runs/007`. */
  key: z.string().min(1),
  run: z.number().int().min(1),
  id: z.string().min(1),
  strategy: z.strictObject({
    /** As given to `tradebot sweep` (a name of strategies/ or a path). */
    spec: z.string().min(1),
    /** A plugin by path: its absolute path and sha256 on the coordinator. */
    file: z.strictObject({ path: z.string().min(1), sha256 }).optional(),
  }),
  data: z.strictObject({ path: z.string().min(1), sha256, bytes: z.number().int().min(0), window: window.optional() }),
  config: z.strictObject({ path: z.string().min(1), text: z.string() }),
  combo: z.record(z.string(), z.unknown()),
  params: z.record(z.string(), z.unknown()),
  series: z.boolean().optional(),
});
export type QueueJob = z.output<typeof queueJobSchema>;

/**
 * What a worker's processor returns (kept small: BullMQ copies it into its events stream); the run's files
 * wait under resultKey (result-files.ts).
 */
export const queueReturnSchema = z.strictObject({
  worker: z.string(),
  files: z.array(z.string()),
  bytes: z.number().int(),
  durationMs: z.number(),
});
export type QueueReturn = z.output<typeof queueReturnSchema>;

export function jobIdOf(sweep: string, key: string): string {
  return `${sweep}-${key.replace(/[^A-Za-z0-9._-]/g, '.')}`;
}

export function resultKey(jobId: string): string {
  return `${QUEUE_PREFIX}:sweep-result:${jobId}`;
}

/** `CODE: message` as a failed job's reason; parsed back by the coordinator. */
export function failedReason(code: string, message: string): string {
  return `${code}: ${message}`;
}

export function parseFailedReason(reason: string | undefined): { code: string; message: string } {
  const match = /^([A-Z][A-Z0-9_]+): ([\s\S]*)$/.exec(reason ?? '');
  if (match !== null) return { code: match[1] as string, message: match[2] as string };
  return { code: 'SWEEP_RUN_FAILED', message: reason === undefined || reason === '' ? 'the worker gave no reason' : reason };
}
