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
  /** Jobs being collected or failed right now (an event and a reconciliation may meet on one). */
  readonly busy: Set<string>;
  readonly progress: SweepProgress;
  done: number;
  finish(): void;
  fail(error: unknown): void;
}

const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

class QueueCoordinator implements QueueExecutor {
  private batch: Batch | undefined;
  private lastEvent = Date.now();
  private workers: number | undefined;
  private reconciling: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly options: QueueExecutorOptions,
    private readonly watch: RedisWatch,
    private readonly client: Redis,
    private readonly eventsClient: Redis,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
  ) {
    this.listen();
  }

  where(): string {
    return `queue ${this.options.url.text} (sweep ${this.options.sweepId})`;
  }

  /** A connection lost or back (the watch's callbacks). */
  dropped(reason: string): void {
    this.batch?.progress.note(`Redis connection lost (${reason}); reconnecting`);
  }

  reconnected(): void {
    this.batch?.progress.note('Redis is back; checking the jobs');
    void this.reconcile();
  }

  private keyOf(job: SweepJob): string {
    return path.relative(this.options.out, job.dir).split(path.sep).join('/');
  }

  private payload(job: SweepJob): QueueJob {
    const { data, strategy, config } = this.options.inputs;
    return {
      v: PAYLOAD_VERSION,
      sweep: this.options.sweepId,
      key: this.keyOf(job),
      run: job.run,
      id: job.id,
      strategy,
      data: { path: data.path, sha256: data.sha256, bytes: data.bytes, ...(job.window === undefined ? {} : { window: job.window }) },
      config,
      combo: { ...job.combo },
      params: { ...job.params },
      ...(job.series === true ? { series: true } : {}),
    };
  }

  private showRunning(b: Batch): void {
    b.progress.active(b.running.size, this.workers);
  }

  private settle(b: Batch, p: Pending, outcome: RunOutcome): void {
    if (!b.pending.delete(p.jobId)) return;
    b.running.delete(p.jobId);
    b.outcomes[p.index] = outcome;
    b.progress.runDone(outcome, ++b.done, b.outcomes.length);
    this.showRunning(b);
    if (b.pending.size === 0) b.finish();
  }

  private async add(list: readonly Pending[]): Promise<void> {
    if (list.length === 0) return;
    await this.queue.addBulk(
      list.map((p) => ({
        name: 'backtest',
        data: this.payload(p.job),
        opts: { jobId: p.jobId, attempts: 1, removeOnComplete: false, removeOnFail: false },
      })),
    );
    for (const p of list) p.addedNow = true;
  }

  /** Runs `act` on a job unless it is settled or already being handled. */
  private async exclusive(b: Batch, p: Pending, act: () => Promise<void>): Promise<void> {
    if (b.busy.has(p.jobId) || !b.pending.has(p.jobId)) return;
    b.busy.add(p.jobId);
    try {
      await act();
    } finally {
      b.busy.delete(p.jobId);
    }
  }

  /** The finished job's files into its run folder; the job and its result then leave Redis. */
  private collect(b: Batch, p: Pending): Promise<void> {
    return this.exclusive(b, p, async () => {
      const packed = await this.client.getBuffer(resultKey(p.jobId));
      if (packed === null) {
        // finished, but its files are gone (a restarted Redis, an expired result): run it again
        await this.queue.remove(p.jobId);
        await this.add([p]);
        return;
      }
      const run = unpackRun(packed, p.jobId);
      const report = await writeRunFolder(p.job.dir, run, p.jobId);
      this.settle(b, p, { job: p.job, ok: true, report, durationMs: run.durationMs, worker: run.worker });
      await this.client.del(resultKey(p.jobId));
      await this.queue.remove(p.jobId);
    });
  }

  private failed(b: Batch, p: Pending, reason: string | undefined): Promise<void> {
    return this.exclusive(b, p, async () => {
      if (!p.addedNow) {
        // a failure an earlier coordinator left: this run is retried
        await this.queue.remove(p.jobId);
        await this.add([p]);
        return;
      }
      const parsed = parseFailedReason(reason);
      const error = STALLED_TOO_OFTEN.test(parsed.message)
        ? { code: 'SWEEP_WORKER_LOST', message: 'the workers running this job stopped mid-run too often (killed, or out of memory)' }
        : parsed;
      await writeFailedRun(p.job.dir, errorText(error));
      this.settle(b, p, { job: p.job, ok: false, error, durationMs: Date.now() - p.started });
      await this.queue.remove(p.jobId);
    });
  }

  /** Every outstanding job's state from Redis: collected, failed, running, or added (again) when Redis has none. */
  private async reconcileOnce(): Promise<void> {
    const b = this.batch;
    if (b === undefined) return;
    const missing: Pending[] = [];
    const running = new Set<string>();
    for (const p of [...b.pending.values()]) {
      const state = await this.queue.getJobState(p.jobId);
      if (state === 'completed') await this.collect(b, p);
      else if (state === 'failed') await this.failed(b, p, (await this.queue.getJob(p.jobId))?.failedReason);
      else if (state === 'unknown') missing.push(p);
      else if (state === 'active') running.add(p.jobId);
    }
    // a job settled by an event meanwhile is gone from Redis but must not be added again
    await this.add(missing.filter((p) => b.pending.has(p.jobId) && !b.busy.has(p.jobId)));
    b.running.clear();
    for (const id of running) if (b.pending.has(id)) b.running.add(id);
    this.workers = await this.queue.getWorkersCount();
    this.showRunning(b);
  }

  /** One reconciliation at a time; a request during one runs another after it. */
  private reconcile(): Promise<void> {
    if (this.reconciling !== undefined) {
      this.again = true;
      return this.reconciling;
    }
    this.reconciling = (async () => {
      do {
        this.again = false;
        await this.reconcileOnce();
      } while (this.again);
    })()
      .catch((error: unknown) => this.batch?.fail(error))
      .finally(() => {
        this.reconciling = undefined;
      });
    return this.reconciling;
  }

  /** BullMQ's events for this sweep's outstanding jobs (other sweeps' are ignored). */
  private listen(): void {
    const on = (jobId: string, act: (b: Batch, p: Pending) => Promise<void> | void) => {
      this.lastEvent = Date.now();
      const b = this.batch;
      const p = b?.pending.get(jobId);
      if (b === undefined || p === undefined) return;
      Promise.resolve(act(b, p)).catch((error: unknown) => b.fail(error));
    };
    // a finished job no longer runs, though its files are still on their way to the out folder
    const stopped = (b: Batch, jobId: string) => {
      b.running.delete(jobId);
      this.showRunning(b);
    };
    this.events.on('completed', ({ jobId }) =>
      on(jobId, (b, p) => {
        stopped(b, jobId);
        return this.collect(b, p);
      }),
    );
    this.events.on('failed', ({ jobId, failedReason }) =>
      on(jobId, (b, p) => {
        stopped(b, jobId);
        return this.failed(b, p, failedReason);
      }),
    );
    this.events.on('active', ({ jobId }) =>
      on(jobId, (b) => {
        b.running.add(jobId);
        this.showRunning(b);
      }),
    );
    this.events.on('stalled', ({ jobId }) => on(jobId, (b) => stopped(b, jobId)));
    this.events.on('waiting', ({ jobId }) => on(jobId, (b) => stopped(b, jobId)));
  }

  /** Outcomes of the runs an earlier coordinator finished; the others, pending. */
  private async fromDisk(jobs: readonly SweepJob[], outcomes: RunOutcome[], progress: SweepProgress): Promise<Map<string, Pending>> {
    const pending = new Map<string, Pending>();
    let done = 0;
    for (const [index, job] of jobs.entries()) {
      const jobId = jobIdOf(this.options.sweepId, this.keyOf(job));
      const finished = await finishedRun(job.dir);
      if (finished === undefined) {
        pending.set(jobId, { index, job, jobId, started: Date.now(), addedNow: false });
        continue;
      }
      outcomes[index] = { job, ok: true, report: finished.report, durationMs: finished.durationMs };
      progress.runDone(outcomes[index], ++done, jobs.length);
      // an earlier coordinator may have stopped between writing the files and clearing the job out of Redis
      await this.queue.remove(jobId).catch(() => 0);
      await this.client.del(resultKey(jobId));
    }
    if (done > 0) progress.note(`${done} of ${jobs.length} runs already finished in ${this.options.out} (resumed)`);
    return pending;
  }

  async runJobs(jobs: readonly SweepJob[], progress: SweepProgress): Promise<RunOutcome[]> {
    const outcomes = new Array<RunOutcome>(jobs.length);
    const pending = await this.fromDisk(jobs, outcomes, progress);
    if (pending.size === 0) return outcomes;
    const finished = new Promise<void>((resolve, reject) => {
      const running = new Set<string>();
      const busy = new Set<string>();
      this.batch = { pending, outcomes, running, busy, progress, done: jobs.length - pending.size, finish: resolve, fail: reject };
    });
    const every = this.options.reconcileMs ?? 5000;
    const quiet = setInterval(() => {
      if (Date.now() - this.lastEvent >= every) void this.reconcile();
    }, every);
    try {
      await Promise.race([this.reconcile().then(() => finished), this.watch.lost]);
    } finally {
      clearInterval(quiet);
      this.batch = undefined;
    }
    return outcomes;
  }

  async discardSweep(sweepId: string): Promise<number> {
    let removed = 0;
    for (const job of await this.queue.getJobs(['waiting', 'delayed', 'prioritized', 'completed', 'failed'])) {
      if (job.id?.startsWith(`${sweepId}-`) !== true) continue;
      try {
        await job.remove();
        await this.client.del(resultKey(job.id));
        removed++;
      } catch {
        // a job a worker holds right now cannot be removed: it finishes, and its result expires unread
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    this.watch.close();
    const closing = Promise.all([this.events.close(), this.queue.close()]).catch(() => undefined);
    // a Redis that is away would keep a graceful close waiting: give it a moment, then drop the sockets
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    for (const client of [this.client, this.eventsClient]) if (client.status !== 'end') client.disconnect();
  }
}

export async function openQueueExecutor(options: QueueExecutorOptions): Promise<QueueExecutor> {
  // the watch starts before the coordinator exists: its callbacks reach it once it does
  const target: { coordinator?: QueueCoordinator } = {};
  const watch = new RedisWatch({
    url: options.url,
    timeoutMs: options.timeoutMs,
    onDrop: (reason) => target.coordinator?.dropped(reason),
    onReconnect: () => target.coordinator?.reconnected(),
  });
  const client = watch.watch(connectRedis(options.url, 'sweep'));
  const eventsClient = watch.watch(connectRedis(options.url, 'sweep-events'));
  const queue = new Queue(QUEUE_NAME, { connection: client, prefix: QUEUE_PREFIX });
  const events = new QueueEvents(QUEUE_NAME, { connection: eventsClient, prefix: QUEUE_PREFIX });
  // errors while Redis is away are the watch's business (it fails the sweep if they last)
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  try {
    await Promise.race([Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), watch.lost]);
  } catch (error) {
    watch.close();
    client.disconnect();
    eventsClient.disconnect();
    throw error;
  }
  target.coordinator = new QueueCoordinator(options, watch, client, eventsClient, queue, events);
  return target.coordinator;
}
