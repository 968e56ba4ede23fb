/**
 * `tradebot worker`'s engine: a BullMQ Worker on the sweep queue that runs each job as a local sweep runs
 * it: the job's checks (job-inputs.ts), then the backtest job (backtest-job.ts, or the test's job module) on
 * this process's worker-thread pool (pool.ts, one thread per `concurrency`), so the main thread stays free to
 * renew the jobs' locks. The run's folder (report.json, run.json, report.html) is packed into Redis under the
 * job's result key (result-files.ts) and the folder deleted. A failed check or run fails the job with
 * `CODE: message` (no retry: a backtest fails the same way twice). A worker killed mid-run loses nothing: its
 * lock lapses after `lockMs`, and another worker's stalled-job check puts the job back in the queue.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { z } from 'zod';
import { SliceCache } from '../../walk-forward/slice-cache.ts';
import { failureOf } from '../failure.ts';
import { createWorkerRunner } from '../pool.ts';
import { localJob, type LocalJob } from './job-inputs.ts';
import {
  failedReason,
  jobIdOf,
  QUEUE_NAME,
  QUEUE_PREFIX,
  queueJobSchema,
  RESULT_TTL_SECONDS,
  resultKey,
  type QueueReturn,
} from './payload.ts';
import type { QueueUrl } from './queue-url.ts';
import { connectRedis, RedisWatch } from './redis-link.ts';
import { packRunFolder } from './result-files.ts';

export type WorkerEvent =
  | { readonly event: 'worker.ready'; readonly worker: string; readonly queue: string; readonly concurrency: number }
  | {
      readonly event: 'worker.job';
      readonly state: 'started' | 'done' | 'failed';
      readonly worker: string;
      readonly sweep: string;
      readonly run: string;
      readonly job: string;
      readonly ms?: number;
      readonly code?: string;
      readonly message?: string;
    }
  | { readonly event: 'worker.redis'; readonly state: 'lost' | 'back'; readonly worker: string; readonly reason?: string };

export interface QueueWorkerOptions {
  readonly url: QueueUrl;
  readonly concurrency: number;
  readonly dataDir?: string;
  /** How long a job's lock lasts without renewal, and how often stalled jobs are looked for (ms). */
  readonly lockMs: number;
  /** file: URL of the module exporting runSweepJob (tests); default the backtest. */
  readonly jobModule?: string;
  readonly onEvent: (event: WorkerEvent) => void;
}

export interface QueueWorker {
  /** `host:pid` */
  readonly name: string;
  close(force?: boolean): Promise<void>;
}

/** A job may lose its worker this many times (killed, out of memory) before it fails. */
const MAX_STALLED = 3;

export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const name = `${hostname()}:${process.pid}`;
  const watch = new RedisWatch({
    url: options.url,
    onDrop: (reason) => options.onEvent({ event: 'worker.redis', state: 'lost', worker: name, reason }),
    onReconnect: () => options.onEvent({ event: 'worker.redis', state: 'back', worker: name }),
  });
  const client = watch.watch(connectRedis(options.url, 'worker'));
  const runner = createWorkerRunner({
    workers: options.concurrency,
    ...(options.jobModule === undefined ? {} : { jobModule: options.jobModule }),
  });
  const tmp = mkdtempSync(path.join(tmpdir(), 'tradebot-worker-'));
  const slices = new SliceCache(path.join(tmp, 'slices'));
  const ctx = { worker: name, slices, tmp, ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }) };

  const processor = async (bull: Job): Promise<QueueReturn> => {
    const started = performance.now();
    const parsed = queueJobSchema.safeParse(bull.data);
    if (!parsed.success) {
      throw new UnrecoverableError(failedReason('SWEEP_PAYLOAD_INVALID', `job ${bull.id ?? '?'}: ${z.prettifyError(parsed.error)}`));
    }
    const job = parsed.data;
    const jobId = bull.id ?? jobIdOf(job.sweep, job.key);
    const base = { worker: name, sweep: job.sweep, run: job.key, job: jobId };
    options.onEvent({ event: 'worker.job', state: 'started', ...base });
    let local: LocalJob | undefined;
    try {
      local = await localJob(job, ctx);
      await runner.run(local.job);
      const durationMs = performance.now() - started;
      const { packed, names } = await packRunFolder(local.job.dir, name, durationMs);
      await client.set(resultKey(jobId), packed, 'EX', RESULT_TTL_SECONDS);
      options.onEvent({ event: 'worker.job', state: 'done', ...base, ms: Math.round(durationMs) });
      return { worker: name, files: names, bytes: packed.length, durationMs };
    } catch (error) {
      const failure = failureOf(error);
      options.onEvent({ event: 'worker.job', state: 'failed', ...base, code: failure.code, message: failure.message });
      throw new UnrecoverableError(failedReason(failure.code, failure.message));
    } finally {
      local?.release();
      if (local !== undefined) await rm(local.job.dir, { recursive: true, force: true });
    }
  };

  const worker = new Worker(QUEUE_NAME, processor, {
    connection: client,
    prefix: QUEUE_PREFIX,
    name,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: options.lockMs,
    maxStalledCount: MAX_STALLED,
    // after a failed fetch (Redis away) try again in 2 s, not BullMQ's 15 s: a restarted Redis is served sooner
    runRetryDelay: 2000,
    autorun: false,
  });
  // connection errors are reported once per drop by the watch; BullMQ retries by itself
  worker.on('error', () => undefined);
  await worker.waitUntilReady();
  void worker.run();
  options.onEvent({ event: 'worker.ready', worker: name, queue: options.url.text, concurrency: options.concurrency });

  return {
    name,
    /** Graceful: the jobs in progress finish first. Forced: they are dropped (another worker runs them again). */
    async close(force = false) {
      watch.close();
      const closing = worker.close(force).catch(() => undefined);
      // a Redis that is away would keep even a forced close waiting: bounded, then the sockets are dropped
      await (force ? Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 2000).unref())]) : closing);
      await runner.close();
      await slices.close();
      await rm(tmp, { recursive: true, force: true });
      if (client.status !== 'end') client.disconnect();
    },
  };
}
