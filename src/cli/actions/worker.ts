/**
 * The body of `tradebot worker` (declared in ../commands/worker.ts): starts the queue worker, prints its
 * events as JSON lines on stdout, and stops on SIGINT / SIGTERM (gracefully first: the runs in progress
 * finish; a second signal stops at once).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseQueueUrl } from '../../../backtest/sweep/queue/queue-url.ts';
import { startQueueWorker } from '../../../backtest/sweep/queue/queue-worker.ts';
import { TradebotError } from '../../errors.ts';

export interface WorkerCommandOptions {
  queue: string;
  concurrency: number;
  dataDir?: string;
  lockSeconds: number;
  jobModule?: string;
}

export async function workerCommand(options: WorkerCommandOptions): Promise<void> {
  const url = parseQueueUrl(options.queue);
  if (options.dataDir !== undefined && !existsSync(options.dataDir))
    throw new TradebotError('CLI_FILE_NOT_FOUND', `--data-dir: no folder at ${options.dataDir}`, { kind: 'config' });
  const print = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const worker = await startQueueWorker({
    url,
    concurrency: options.concurrency,
    lockMs: Math.round(options.lockSeconds * 1000),
    ...(options.dataDir === undefined ? {} : { dataDir: path.resolve(options.dataDir) }),
    ...(options.jobModule === undefined ? {} : { jobModule: pathToFileURL(path.resolve(options.jobModule)).href }),
    onEvent: print,
  });
  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    signals++;
    print({ event: 'worker.stopping', worker: worker.name, signal, force: signals > 1 });
    void worker.close(signals > 1).then(stopped);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await done;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  print({ event: 'worker.stopped', worker: worker.name });
}
