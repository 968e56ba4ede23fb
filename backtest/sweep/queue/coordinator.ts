/**
 * The coordinator side of a queued sweep: a SweepExecutor that adds one BullMQ job per run (ids
 * `<sweep id>-<run key>`) and collects the results the workers leave in Redis into the same out folder as a
 * local sweep. Runs finished by an earlier coordinator of the same sweep (run.json on disk) are not run again;
 * jobs Redis already holds (waiting, running, or finished while no coordinator listened) are awaited or
 * collected, not added twice; failed runs of an earlier coordinator run again. Results arrive through
 * BullMQ's events; `reconcile` asks Redis for every outstanding job's state at the start, after a reconnection
 * (a restarted Redis may have lost jobs: they are added again) and whenever the events have been quiet for
 * `reconcileMs` (a safety net for events missed while disconnected). A Redis that stays unreachable fails the
 * sweep after `timeoutMs` with SWEEP_QUEUE_UNREACHABLE (redis-link.ts); the finished runs stay on disk.
 */
import path from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { errorText } from '../failure.ts';
import type { SweepProgress } from '../progress.ts';
import type { RunOutcome, SweepExecutor, SweepJob } from '../types.ts';
import type { FileHash } from './file-hash.ts';
import { jobIdOf, parseFailedReason, PAYLOAD_VERSION, QUEUE_NAME, QUEUE_PREFIX, resultKey, type QueueJob } from './payload.ts';
import type { QueueUrl } from './queue-url.ts';
import { connectRedis, RedisWatch } from './redis-link.ts';
import { finishedRun, unpackRun, writeFailedRun, writeRunFolder } from './result-files.ts';

export interface QueueInputs {
  readonly strategy: QueueJob['strategy'];
  readonly data: FileHash;
  readonly config: QueueJob['config'];
}

export interface QueueExecutorOptions {
  readonly url: QueueUrl;
  readonly sweepId: string;
  /** The sweep's out folder: run keys are run folders relative to it. */
  readonly out: string;
  readonly inputs: QueueInputs;
  /** How long Redis may stay unreachable before the sweep fails (ms). */
  readonly timeoutMs: number;
  /** Quiet time after which Redis is asked for the outstanding jobs' states (ms, default 5000). */
  readonly reconcileMs?: number;
}

export interface QueueExecutor extends SweepExecutor {
  /** Removes what Redis holds of another sweep (one replaced with --force): its queued jobs and results. */
  discardSweep(sweepId: string): Promise<number>;
  close(): Promise<void>;
}

interface Pending {
  readonly index: number;
  readonly job: SweepJob;
  readonly jobId: string;
  readonly started: number;
  /** Added by this coordinator (a failure is final), or found in Redis from an earlier one (a failure runs again). */
  addedNow: boolean;
}

/** A batch being collected: outstanding jobs by id, outcomes in job order. */
interface Batch {
  readonly pending: Map<string, Pending>;
  readonly outcomes: RunOutcome[];
  readonly running: Set<string>;
  readonly busy: Set<string>;
  readonly progress: SweepProgress;
  done: number;
  finish(): void;
  fail(error: unknown): void;
}

const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

export async function openQueueExecutor(options: QueueExecutorOptions): Promise<QueueExecutor> {
  let batch: Batch | undefined;
  let lastEvent = Date.now();
  let workers: number | undefined;
  let reconciling: Promise<void> | undefined;
  let again = false;
  const watch = new RedisWatch({
    url: options.url,
    timeoutMs: options.timeoutMs,
    onDrop: (reason) => batch?.progress.note(`Redis connection lost (${reason}); reconnecting`),
    onReconnect: () => {
      batch?.progress.note('Redis is back; checking the jobs');
      void reconcile();
    },
  });
  const client = watch.watch(connectRedis(options.url, 'sweep'));
  const eventsClient = watch.watch(connectRedis(options.url, 'sweep-events'));
  const queue = new Queue(QUEUE_NAME, { connection: client, prefix: QUEUE_PREFIX });
  const events = new QueueEvents(QUEUE_NAME, { connection: eventsClient, prefix: QUEUE_PREFIX });
  // errors while Redis is away are the watch's business (it fails the sweep if they last)
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  const ready = Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  try {
    await Promise.race([ready, watch.lost]);
  } catch (error) {
    watch.close();
    client.disconnect();
    eventsClient.disconnect();
    throw error;
  }

  const keyOf = (job: SweepJob) => path.relative(options.out, job.dir).split(path.sep).join('/');

  function payload(job: SweepJob, key: string): QueueJob {
    const { data } = options.inputs;
    return {
      v: PAYLOAD_VERSION,
      sweep: options.sweepId,
      key,
      run: job.run,
      id: job.id,
      strategy: options.inputs.strategy,
      data: { path: data.path, sha256: data.sha256, bytes: data.bytes, ...(job.window === undefined ? {} : { window: job.window }) },
      config: options.inputs.config,
      combo: { ...job.combo },
      params: { ...job.params },
      ...(job.series === true ? { series: true } : {}),
    };
  }

  function settle(b: Batch, p: Pending, outcome: RunOutcome): void {
    if (!b.pending.delete(p.jobId)) return;
    b.running.delete(p.jobId);
    b.outcomes[p.index] = outcome;
    b.progress.runDone(outcome, ++b.done, b.outcomes.length);
    b.progress.active(b.running.size, workers);
    if (b.pending.size === 0) b.finish();
  }

  async function add(list: readonly Pending[]): Promise<void> {
    if (list.length === 0) return;
    await queue.addBulk(
      list.map((p) => ({
        name: 'backtest',
        data: payload(p.job, keyOf(p.job)),
        opts: { jobId: p.jobId, attempts: 1, removeOnComplete: false, removeOnFail: false },
      })),
    );
    for (const p of list) p.addedNow = true;
  }

  /** The finished job's files into its run folder; the job and its result then leave Redis. */
  async function collect(b: Batch, p: Pending): Promise<void> {
    if (b.busy.has(p.jobId) || !b.pending.has(p.jobId)) return;
    b.busy.add(p.jobId);
    try {
      const packed = await client.getBuffer(resultKey(p.jobId));
      if (packed === null) {
        // finished, but its files are gone (a restarted Redis, an expired result): run it again
        await queue.remove(p.jobId);
        await add([p]);
        return;
      }
      const run = unpackRun(packed, p.jobId);
      const report = await writeRunFolder(p.job.dir, run, p.jobId);
      settle(b, p, { job: p.job, ok: true, report, durationMs: run.durationMs, worker: run.worker });
      await client.del(resultKey(p.jobId));
      await queue.remove(p.jobId);
    } finally {
      b.busy.delete(p.jobId);
    }
  }

  async function failed(b: Batch, p: Pending, reason: string | undefined): Promise<void> {
    if (b.busy.has(p.jobId) || !b.pending.has(p.jobId)) return;
    b.busy.add(p.jobId);
    try {
      if (!p.addedNow) {
        // a failure an earlier coordinator left: this run is retried
        await queue.remove(p.jobId);
        await add([p]);
        return;
      }
      const parsed = parseFailedReason(reason);
      const error = STALLED_TOO_OFTEN.test(parsed.message)
        ? { code: 'SWEEP_WORKER_LOST', message: 'the workers running this job stopped mid-run too often (killed, or out of memory)' }
        : parsed;
      await writeFailedRun(p.job.dir, errorText(error));
      settle(b, p, { job: p.job, ok: false, error, durationMs: Date.now() - p.started });
      await queue.remove(p.jobId);
    } finally {
      b.busy.delete(p.jobId);
    }
  }

  /** Every outstanding job's state from Redis: collected, failed, running, or added (again) when Redis has none. */
  async function reconcileOnce(): Promise<void> {
    const b = batch;
    if (b === undefined) return;
    const missing: Pending[] = [];
    const running = new Set<string>();
    for (const p of [...b.pending.values()]) {
      const state = await queue.getJobState(p.jobId);
      if (state === 'completed') await collect(b, p);
      else if (state === 'failed') await failed(b, p, (await queue.getJob(p.jobId))?.failedReason);
      else if (state === 'unknown') missing.push(p);
      else if (state === 'active') running.add(p.jobId);
    }
    // a job settled by an event meanwhile is gone from Redis but must not be added again
    await add(missing.filter((p) => b.pending.has(p.jobId) && !b.busy.has(p.jobId)));
    b.running.clear();
    for (const id of running) if (b.pending.has(id)) b.running.add(id);
    workers = await queue.getWorkersCount();
    b.progress.active(b.running.size, workers);
  }

  /** One reconciliation at a time; a request during one runs another after it. */
  function reconcile(): Promise<void> {
    if (reconciling !== undefined) {
      again = true;
      return reconciling;
    }
    reconciling = (async () => {
      do {
        again = false;
        await reconcileOnce();
      } while (again);
    })()
      .catch((error: unknown) => batch?.fail(error))
      .finally(() => {
        reconciling = undefined;
      });
    return reconciling;
  }

  const withBatch = (jobId: string, act: (b: Batch, p: Pending) => Promise<void> | void) => {
    lastEvent = Date.now();
    const b = batch;
    const p = b?.pending.get(jobId);
    if (b === undefined || p === undefined) return; // another sweep's job, or one already collected
    Promise.resolve(act(b, p)).catch((error: unknown) => b.fail(error));
  };
  // a finished job no longer runs, though its files are still on their way to the out folder
  const finished = (b: Batch, jobId: string) => {
    b.running.delete(jobId);
    b.progress.active(b.running.size, workers);
  };
  events.on('completed', ({ jobId }) =>
    withBatch(jobId, (b, p) => {
      finished(b, jobId);
      return collect(b, p);
    }),
  );
  events.on('failed', ({ jobId, failedReason }) =>
    withBatch(jobId, (b, p) => {
      finished(b, jobId);
      return failed(b, p, failedReason);
    }),
  );
  events.on('active', ({ jobId }) =>
    withBatch(jobId, (b) => {
      b.running.add(jobId);
      b.progress.active(b.running.size, workers);
    }),
  );
  const notRunning = ({ jobId }: { jobId: string }) => withBatch(jobId, (b) => finished(b, jobId));
  events.on('stalled', notRunning);
  events.on('waiting', notRunning);

  async function runJobs(jobs: readonly SweepJob[], progress: SweepProgress): Promise<RunOutcome[]> {
    const outcomes = new Array<RunOutcome>(jobs.length);
    const pending = new Map<string, Pending>();
    let done = 0;
    for (const [index, job] of jobs.entries()) {
      const jobId = jobIdOf(options.sweepId, keyOf(job));
      const finished = await finishedRun(job.dir);
      if (finished !== undefined) {
        outcomes[index] = { job, ok: true, report: finished.report, durationMs: finished.durationMs };
        progress.runDone(outcomes[index], ++done, jobs.length);
        // an earlier coordinator may have stopped between writing the files and clearing the job out of Redis
        await queue.remove(jobId).catch(() => 0);
        await client.del(resultKey(jobId));
      } else {
        pending.set(jobId, { index, job, jobId, started: Date.now(), addedNow: false });
      }
    }
    if (done > 0) progress.note(`${done} of ${jobs.length} runs already finished in ${options.out} (resumed)`);
    if (pending.size === 0) return outcomes;
    const finished = new Promise<void>((resolve, reject) => {
      batch = {
        pending,
        outcomes,
        running: new Set(),
        busy: new Set(),
        progress,
        done,
        finish: resolve,
        fail: reject,
      };
    });
    const quiet = setInterval(() => {
      if (Date.now() - lastEvent >= (options.reconcileMs ?? 5000)) void reconcile();
    }, options.reconcileMs ?? 5000);
    try {
      await Promise.race([reconcile().then(() => finished), watch.lost]);
    } finally {
      clearInterval(quiet);
      batch = undefined;
    }
    return outcomes;
  }

  async function discardSweep(sweepId: string): Promise<number> {
    let removed = 0;
    const states = ['waiting', 'delayed', 'prioritized', 'completed', 'failed'] as const;
    for (const job of await queue.getJobs([...states])) {
      if (job.id?.startsWith(`${sweepId}-`) !== true) continue;
      try {
        await job.remove();
        await client.del(resultKey(job.id));
        removed++;
      } catch {
        // a job a worker holds right now cannot be removed: it finishes, and its result expires unread
      }
    }
    return removed;
  }

  async function close(): Promise<void> {
    watch.close();
    const closing = Promise.all([events.close(), queue.close()]).catch(() => undefined);
    // a Redis that is away would keep a graceful close waiting: give it a moment, then drop the sockets
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    disconnect(client);
    disconnect(eventsClient);
  }

  return { where: () => `queue ${options.url.text} (sweep ${options.sweepId})`, runJobs, discardSweep, close };
}

function disconnect(client: Redis): void {
  if (client.status !== 'end') client.disconnect();
}
