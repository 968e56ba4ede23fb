/**
 * The body of `tradebot sweep` (declared in ../commands/sweep.ts, loaded only when the command runs): the
 * grid and base params checked before any run (sweep-inputs.ts), the runs on this machine's worker pool or,
 * with --queue, on `tradebot worker` processes through Redis (sweep-queue.ts), a plain sweep's ranking or a
 * walk-forward's windows (--walk-forward), and one summary line on stdout.
 */
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createLocalExecutor } from '../../../backtest/sweep/local-executor.ts';
import { createWorkerRunner } from '../../../backtest/sweep/pool.ts';
import { createSweepProgress, type SweepProgress } from '../../../backtest/sweep/progress.ts';
import { runSweep } from '../../../backtest/sweep/run-sweep.ts';
import type { SweepExecutor } from '../../../backtest/sweep/types.ts';
import { runWalkForward } from '../../../backtest/walk-forward/run-walk-forward.ts';
import { readTradeHeader } from '../../../backtest/walk-forward/slice.ts';
import { parseWalkForward, walkForwardWindows, type WalkForwardSpec } from '../../../backtest/walk-forward/spec.ts';
import { jsonMetric } from '../../../backtest/walk-forward/stitch.ts';
import { TradebotError } from '../../errors.ts';
import { invalidOption } from '../options.ts';
import { sweepInputs, type SweepInputs } from './sweep-inputs.ts';

export interface SweepCommandOptions {
  strategy: string;
  data: string;
  grid: string;
  out: string;
  config: string;
  workers?: number;
  rankBy: string;
  ascending?: boolean;
  force?: boolean;
  jobModule?: string;
  params?: string;
  queue?: string;
  queueTimeout: number;
  walkForward?: string;
}

interface Executor {
  readonly executor: SweepExecutor;
  /** Workers for the summary line (local threads), or the queue's sweep. */
  readonly summary: Readonly<Record<string, unknown>>;
  /** Runs already in --out belong to this sweep (a resumed queued sweep). */
  readonly keep: boolean;
  close(): Promise<void>;
}

function localExecutor(options: SweepCommandOptions, runs: number): Executor {
  const workers = Math.min(options.workers ?? availableParallelism(), runs);
  const runner = createWorkerRunner({
    workers,
    ...(options.jobModule === undefined ? {} : { jobModule: pathToFileURL(path.resolve(options.jobModule)).href }),
  });
  const executor = createLocalExecutor({ runner: runner.run, concurrency: workers });
  return {
    executor,
    summary: { workers },
    keep: false,
    close: async () => {
      await executor.close();
      await runner.close();
    },
  };
}

async function queueExecutor(options: SweepCommandOptions, inputs: SweepInputs, progress: SweepProgress): Promise<Executor> {
  // BullMQ and the Redis client load only for a queued sweep
  const { setUpQueue } = await import('./sweep-queue.ts');
  const setup = await setUpQueue({
    queue: options.queue as string,
    timeoutSeconds: options.queueTimeout,
    strategy: options.strategy,
    data: options.data,
    configFile: inputs.configFile,
    grid: inputs.grid,
    base: inputs.base,
    out: path.resolve(options.out),
    force: options.force === true,
    ...(options.walkForward === undefined ? {} : { walkForward: options.walkForward }),
  });
  if (setup.state.resumed) progress.note(`resuming sweep ${setup.state.sweepId} in ${options.out}`);
  if (setup.state.replaced !== undefined)
    progress.note(`replaced sweep ${setup.state.replaced} (${setup.discarded} of its jobs removed from the queue)`);
  return {
    executor: setup.executor,
    summary: { queue: setup.queue, sweep: setup.state.sweepId, resumed: setup.state.resumed },
    keep: true,
    close: () => setup.executor.close(),
  };
}

function failedRuns(failed: number, runs: number, where: string): void {
  if (failed > 0)
    throw new TradebotError(
      'SWEEP_RUNS_FAILED',
      `${failed} of ${runs} runs failed; their errors are in ${where} and error.txt of each failed run`,
    );
}

async function plainSweep(options: SweepCommandOptions, inputs: SweepInputs, exec: Executor, progress: SweepProgress): Promise<void> {
  const summary = await runSweep({
    strategy: options.strategy,
    data: options.data,
    config: inputs.configFile,
    grid: inputs.grid,
    baseParams: inputs.base,
    out: exec.keep ? path.resolve(options.out) : options.out,
    executor: exec.executor,
    rankBy: options.rankBy,
    ascending: options.ascending === true,
    overwrite: options.force === true,
    keepRuns: exec.keep,
    progress,
    ...(exec.keep ? { extra: exec.summary } : {}),
  });
  const best = summary.ranking[0];
  const line = {
    event: 'sweep.summary',
    runs: summary.runs,
    ok: summary.ok,
    failed: summary.failed,
    ...exec.summary,
    rankBy: options.rankBy,
    best:
      best?.outcome.ok === true
        ? { run: best.outcome.job.id, [options.rankBy]: jsonMetric(best.metric), params: best.outcome.job.combo }
        : null,
    ranking: { csv: summary.files.csv, html: summary.files.html },
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  failedRuns(summary.failed, summary.runs, summary.files.csv);
}

async function walkForward(
  options: SweepCommandOptions,
  spec: WalkForwardSpec,
  inputs: SweepInputs,
  exec: Executor,
  progress: SweepProgress,
): Promise<void> {
  const summary = await runWalkForward({
    strategy: options.strategy,
    data: options.data,
    config: inputs.configFile,
    grid: inputs.grid,
    baseParams: inputs.base,
    out: exec.keep ? path.resolve(options.out) : options.out,
    spec,
    executor: exec.executor,
    rankBy: options.rankBy,
    ascending: options.ascending === true,
    existing: exec.keep ? 'keep' : options.force === true ? 'replace' : 'refuse',
    progress,
    ...(exec.keep ? { extra: exec.summary } : {}),
  });
  const line = {
    event: 'walk-forward.summary',
    walkForward: spec.text,
    windows: summary.windows.length,
    runs: summary.runs,
    failed: summary.failed,
    ...exec.summary,
    rankBy: options.rankBy,
    outOfSample:
      summary.outOfSample === null
        ? null
        : { report: summary.outOfSample.report, html: summary.outOfSample.html, ...summary.outOfSample.figures },
    gaps: summary.windows.map((w) => ({
      window: w.window,
      params: w.params,
      inSample: jsonMetric(w.inSample),
      outOfSample: jsonMetric(w.outOfSample),
      gap: w.gap,
    })),
    files: summary.files,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  failedRuns(summary.failed, summary.runs, summary.files.csv);
}

export async function sweepCommand(options: SweepCommandOptions): Promise<void> {
  if (options.queue !== undefined && options.workers !== undefined)
    throw invalidOption(
      "--workers sets this machine's threads; with --queue the runs go to `tradebot worker` processes: give each its --concurrency",
    );
  if (options.queue !== undefined && options.jobModule !== undefined)
    throw invalidOption('--job-module is read by the workers with --queue: give it to `tradebot worker`');
  const spec = options.walkForward === undefined ? undefined : parseWalkForward(options.walkForward);
  const inputs = await sweepInputs(options);
  if (spec !== undefined) {
    // a spec that fits no window of this tape is refused before any worker or queue is set up
    const header = await readTradeHeader(options.data);
    walkForwardWindows(spec, header.from, header.to);
  }
  const ascending = options.ascending === true;
  const progress = createSweepProgress({ stream: process.stderr, tty: process.stderr.isTTY === true, rankBy: options.rankBy, ascending });
  const exec = options.queue === undefined ? localExecutor(options, inputs.runs) : await queueExecutor(options, inputs, progress);
  try {
    if (spec === undefined) await plainSweep(options, inputs, exec, progress);
    else await walkForward(options, spec, inputs, exec, progress);
  } finally {
    await exec.close();
  }
}
