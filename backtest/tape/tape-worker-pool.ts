/**
 * Keeps tape worker threads (tape-worker.ts) alive between the replays of a process, so that the next
 * TapeThread gets a warm one: no thread start-up (~30-50 ms the replay thread waited for) and a scanner V8
 * has optimised already, instead of a new isolate with cold code for every replay (a benchmark's or a
 * script's replays one after another). A worker comes back here only after a job that ended cleanly (its
 * ring DONE); one whose replay stopped early (closed, aborted) or whose job failed is terminated, never
 * reused. Idle workers are unref'd, so they never keep the process alive (and ref'd again when handed out);
 * at most MAX_IDLE_TAPE_WORKERS wait here, more are terminated. Workers are kept per entry ('bundle': the
 * esbuild bundle, worker-bundle.ts; 'tsx': tape-worker.mjs), so a fallback worker is not handed to a replay
 * that asked for the bundle and the other way round. `closeTapeWorkerPool()` empties the pool (tests);
 * `tapeWorkerPoolStats()` counts workers started, reused and discarded.
 */
import { Worker } from 'node:worker_threads';
import { COMPILED, packageModule } from '../../src/package/paths.ts';

/**
 * The tape worker's file entry: compiled, tape-worker.js itself; from the sources, tape-worker.mjs (registers tsx in
 * the worker thread, then loads tape-worker.ts).
 */
export const TAPE_WORKER_ENTRY = COMPILED ? packageModule('backtest/tape/tape-worker.ts') : new URL('./tape-worker.mjs', import.meta.url);

/** Idle workers kept at most; one released when the pool is full is terminated. */
export const MAX_IDLE_TAPE_WORKERS = 2;

export type TapeWorkerEntry = 'bundle' | 'tsx';

export interface TapeWorkerPoolStats {
  /** Worker threads started in this process. */
  readonly started: number;
  /** Jobs given to an idle worker instead of a new one. */
  readonly reused: number;
  /** Workers terminated instead of pooled: their job stopped early or failed, or the pool was full. */
  readonly discarded: number;
  /** Workers waiting in the pool now. */
  readonly idle: number;
}

interface Idle {
  readonly worker: Worker;
  readonly entry: TapeWorkerEntry;
}

const idle: Idle[] = [];
let started = 0;
let reused = 0;
let discarded = 0;

function removeIdle(worker: Worker): boolean {
  const at = idle.findIndex((i) => i.worker === worker);
  if (at === -1) return false;
  idle.splice(at, 1);
  return true;
}

/**
 * A worker for one job: the most recently pooled idle worker of this entry (ref'd again), else a new
 * thread, from `code` (the bundle) or from tape-worker.mjs. Throws what the Worker constructor throws.
 */
export function acquireTapeWorker(entry: TapeWorkerEntry, code: string | undefined): Worker {
  for (let at = idle.length - 1; at >= 0; at--) {
    const candidate = idle[at] as Idle;
    if (candidate.entry !== entry) continue;
    idle.splice(at, 1);
    candidate.worker.ref();
    reused++;
    return candidate.worker;
  }
  if (entry === 'bundle' && code === undefined) throw new Error('no bundled tape worker code');
  const worker = entry === 'tsx' ? new Worker(TAPE_WORKER_ENTRY) : new Worker(code as string, { eval: true });
  started++;
  // while idle nobody else listens: an error must not be an unhandled 'error' event; the thread then ends
  worker.on('error', () => undefined);
  worker.once('exit', () => removeIdle(worker));
  return worker;
}

/**
 * Takes back a worker whose job ended cleanly (DONE: it waits for the next job), unref'd; terminated
 * instead when MAX_IDLE_TAPE_WORKERS wait already.
 */
export function releaseTapeWorker(worker: Worker, entry: TapeWorkerEntry): void {
  if (idle.length >= MAX_IDLE_TAPE_WORKERS) {
    void discardTapeWorker(worker);
    return;
  }
  worker.unref();
  idle.push({ worker, entry });
}

/** Ends a worker that must not be reused (its job stopped early or failed). */
export async function discardTapeWorker(worker: Worker): Promise<void> {
  discarded++;
  removeIdle(worker);
  await worker.terminate();
}

/** Terminates the idle workers (the pool is empty afterwards; workers busy with a job are not touched). */
export async function closeTapeWorkerPool(): Promise<void> {
  const workers = idle.splice(0).map((i) => i.worker);
  await Promise.all(workers.map((w) => w.terminate()));
}

export function tapeWorkerPoolStats(): TapeWorkerPoolStats {
  return { started, reused, discarded, idle: idle.length };
}
