/**
 * `tradebot worker --queue <url>`: takes the backtests of queued sweeps (`tradebot sweep --queue`) from Redis
 * and runs each as a local sweep runs it, `--concurrency` at a time on worker threads. Any number of workers,
 * on any number of machines, may serve one Redis. Prints one JSON line per event on stdout (`worker.ready`,
 * `worker.job` started / done / failed, `worker.redis` lost / back); SIGINT or SIGTERM finishes the runs in
 * progress and stops, a second one stops at once (their jobs then run again on another worker).
 */
import { Option, type Command } from 'commander';
import { TradebotError } from '../../errors.ts';
import type { WorkerCommandOptions } from '../actions/worker.ts';

function positiveInt(option: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1)
      throw new TradebotError('CLI_INVALID_OPTION', `${option} expects a whole number of at least 1, got "${text}"`, { kind: 'config' });
    return n;
  };
}

function parseLockSeconds(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0.5)
    throw new TradebotError('CLI_INVALID_OPTION', `--lock-seconds expects seconds of at least 0.5, got "${text}"`, { kind: 'config' });
  return n;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('Run the backtests of queued sweeps (tradebot sweep --queue) from Redis; start any number, on any machines')
    .requiredOption('--queue <url>', 'the Redis the sweeps queue their runs in, e.g. redis://10.0.0.5:6379/0')
    .option('--concurrency <n>', 'backtests at once on this machine (worker threads)', positiveInt('--concurrency'), 1)
    .option('--data-dir <dir>', "read each sweep's tape from this folder, by its file name, instead of the coordinator's path")
    .option(
      '--lock-seconds <s>',
      'how long a job stays with a worker that stopped answering before another worker runs it ' +
        '(also how often this worker looks for such jobs)',
      parseLockSeconds,
      30,
    )
    .addOption(new Option('--job-module <file>', 'module exporting runSweepJob(job), instead of the backtest (tests)').hideHelp())
    .action(async (options: WorkerCommandOptions) => (await import('../actions/worker.ts')).workerCommand(options));
}
