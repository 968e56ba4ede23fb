/**
 * A queue worker's view of a job: the checks before a backtest starts, and the SweepJob it then runs as a
 * local sweep would. The tape is read at the path the job names, or under `--data-dir` by its file name, and
 * must have the sha256 the coordinator saw; a plugin given by path must exist at that path with the same
 * sha256; a strategy given by name must be one this worker's tradebot has. Each refusal is a typed error that
 * names what the job expects and what this worker has, and how to fix it. A walk-forward window is cut from
 * the verified tape into this worker's slice cache.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { resolveStrategyPath } from '../../../src/engine/strategy/loader.ts';
import { isTradebotError, TradebotError } from '../../../src/errors.ts';
import type { SliceCache } from '../../walk-forward/slice-cache.ts';
import type { SweepJob } from '../types.ts';
import { hashFile } from './file-hash.ts';
import { PAYLOAD_VERSION, type QueueJob } from './payload.ts';

export interface WorkerContext {
  /** Where this worker reads tapes by file name instead of the job's path (`--data-dir`). */
  readonly dataDir?: string;
  /** `host:pid`, named in errors. */
  readonly worker: string;
  readonly slices: SliceCache;
  /** Folder for the runs' temporary folders. */
  readonly tmp: string;
}

export interface LocalJob {
  readonly job: SweepJob;
  release(): void;
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
}

/** The tape's path on this worker, checked against the job's sha256. */
async function tapeOf(job: QueueJob, ctx: WorkerContext): Promise<string> {
  const expected = job.data;
  const local = ctx.dataDir === undefined ? expected.path : path.join(ctx.dataDir, path.basename(expected.path));
  const fix =
    ctx.dataDir === undefined
      ? `put the same file at ${expected.path} on this machine (shared storage), ` +
        `or start the worker with --data-dir <folder holding ${path.basename(expected.path)}>`
      : `copy the sweep's ${path.basename(expected.path)} into ${ctx.dataDir}`;
  let actual;
  try {
    actual = await hashFile(local);
  } catch (error) {
    throw new TradebotError(
      'SWEEP_DATA_UNREADABLE',
      `worker ${ctx.worker} cannot read the sweep's tape ${expected.path} (sha256 ${expected.sha256}) ` +
        `at ${local}: ${reason(error)}; ${fix}`,
      { kind: 'config', cause: error },
    );
  }
  if (actual.sha256 !== expected.sha256) {
    throw new TradebotError(
      'SWEEP_DATA_MISMATCH',
      `worker ${ctx.worker} reads ${local} with sha256 ${actual.sha256} (${actual.bytes} bytes), but the sweep's tape ${expected.path} ` +
        `has sha256 ${expected.sha256} (${expected.bytes} bytes): ${fix}`,
      { kind: 'config' },
    );
  }
  return local;
}

/** The strategy as this worker loads it: the plugin's path (checked), or the name of one of its strategies. */
async function strategyOf(job: QueueJob, ctx: WorkerContext): Promise<string> {
  const file = job.strategy.file;
  if (file === undefined) {
    try {
      resolveStrategyPath(job.strategy.spec);
    } catch (error) {
      throw new TradebotError(
        'SWEEP_PLUGIN_MISSING',
        `worker ${ctx.worker} has no strategy named "${job.strategy.spec}" (${isTradebotError(error) ? error.message : reason(error)}): ` +
          'run the same tradebot version on every worker',
        { kind: 'config', cause: error },
      );
    }
    return job.strategy.spec;
  }
  if (!existsSync(file.path)) {
    throw new TradebotError(
      'SWEEP_PLUGIN_MISSING',
      `worker ${ctx.worker} has no strategy plugin at ${file.path} (the sweep's ${job.strategy.spec}): ` +
        'copy the plugin to the same path on this machine, or put it on shared storage',
      { kind: 'config' },
    );
  }
  const actual = await hashFile(file.path);
  if (actual.sha256 !== file.sha256) {
    throw new TradebotError(
      'SWEEP_PLUGIN_MISMATCH',
      `worker ${ctx.worker} has another version of the strategy plugin ${file.path} ` +
        `(sha256 ${actual.sha256}; the sweep's is ${file.sha256}): ` +
        'copy the coordinator’s file to this machine',
      { kind: 'config' },
    );
  }
  return file.path;
}

export async function localJob(job: QueueJob, ctx: WorkerContext): Promise<LocalJob> {
  if (job.v !== PAYLOAD_VERSION) {
    throw new TradebotError(
      'SWEEP_PAYLOAD_VERSION',
      `job of payload version ${job.v}; worker ${ctx.worker} reads version ${PAYLOAD_VERSION}: ` +
        'run the same tradebot version on the coordinator and every worker',
      { kind: 'config' },
    );
  }
  const strategy = await strategyOf(job, ctx);
  const tape = await tapeOf(job, ctx);
  const window = job.data.window;
  const slice = window === undefined ? undefined : await ctx.slices.acquire(tape, window, job.data.sha256);
  const dir = await mkdtemp(path.join(ctx.tmp, `${job.id}-`));
  return {
    job: {
      run: job.run,
      id: job.id,
      dir,
      strategy,
      data: slice?.file ?? tape,
      config: job.config.path,
      configText: job.config.text,
      combo: job.combo,
      params: job.params,
      ...(job.series === true ? { series: true } : {}),
    },
    release: () => slice?.release(),
  };
}
