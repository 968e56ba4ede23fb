/**
 * The replay thread's side of the tape worker: starts tape-worker.ts on a worker thread for one history
 * file and hands out its batches of released trades in order, with the counts that came with each. After
 * a batch is used, `take` tells the worker (shared counter + Atomics.notify) so it can read further; it
 * stays at most `ahead` batches in front. An error in the worker (a bad line, an unknown symbol, an
 * unreadable file) comes back as the TradebotError it was, line number included; `close` ends the
 * worker (abort, or the replay stopped early).
 */
import { Worker } from 'node:worker_threads';
import { TradebotError } from '../../src/errors.ts';
import type { HistoryHeader } from '../history/format.ts';
import type { TapeWorkerData, TapeWorkerMessage } from './tape-thread-protocol.ts';
import { TradeBatch } from './trade-batch.ts';
import type { TapeStats } from './trade-extractor.ts';

/** Atomics.waitAsync (Node >= 16; not in this TypeScript lib yet). */
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { value: Promise<string> | string } }).waitAsync;

export const TAPE_WORKER_ENTRY = new URL('./tape-worker.mjs', import.meta.url);

export interface TapeThreadOptions {
  readonly supersedeWindow: number;
  readonly chunkBytes?: number;
  readonly batchTrades?: number;
  readonly ahead?: number;
}

export interface ThreadBatch {
  readonly batch: TradeBatch;
  readonly stats: TapeStats;
  readonly bytesRead: number;
}

export class TapeThread {
  private readonly worker: Worker;
  private readonly taken = new Int32Array(new SharedArrayBuffer(8));
  private readonly queue: TapeWorkerMessage[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private ended = false;
  private closed = false;
  private readonly exit: Promise<void>;

  constructor(file: string, headerLine: string, header: HistoryHeader, options: TapeThreadOptions) {
    const workerData: TapeWorkerData = {
      file,
      headerLine,
      source: header.source,
      symbols: header.instruments.map((i) => i.symbol),
      supersedeWindow: options.supersedeWindow,
      chunkBytes: options.chunkBytes ?? 1 << 20,
      batchTrades: options.batchTrades ?? 1,
      ahead: options.ahead ?? 16,
      taken: this.taken.buffer as SharedArrayBuffer,
    };
    this.worker = new Worker(TAPE_WORKER_ENTRY, { workerData });
    this.exit = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (m: TapeWorkerMessage) => {
      this.queue.push(m);
      this.notify();
    });
    this.worker.on('error', (error) => this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${file} failed: ${error.message}`, { kind: 'internal', cause: error })));
    this.worker.on('exit', (code) => {
      this.ended = true;
      if (code !== 0 && !this.closed) this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${file} stopped (exit code ${code})`, { kind: 'internal' }));
      this.notify();
    });
  }

  /** The worker's batches in file order, each valid until the next is requested. */
  async *batches(): AsyncGenerator<ThreadBatch, void, undefined> {
    for (;;) {
      const m = await this.next();
      if (m === undefined) return;
      if (m.type === 'error') throw new TradebotError(m.code, m.message, { kind: m.kind });
      yield { batch: TradeBatch.fromMessage(m.batch), stats: m.stats, bytesRead: m.bytesRead };
      if (m.done) return;
      Atomics.add(this.taken, 0, 1);
      Atomics.notify(this.taken, 0);
    }
  }

  /** Batches received and not yet handed out. */
  get inFlight(): number {
    return this.queue.length;
  }

  /** Resolves once the worker has stopped to wait for the replay thread `times` times in all. */
  async waited(times = 1): Promise<void> {
    for (let seen = Atomics.load(this.taken, 1); seen < times; seen = Atomics.load(this.taken, 1)) await waitAsync(this.taken, 1, seen).value;
  }

  /** Resolves when the worker thread has ended. */
  get exited(): Promise<void> {
    return this.exit;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker.terminate();
  }

  private async next(): Promise<TapeWorkerMessage | undefined> {
    for (;;) {
      const m = this.queue.shift();
      if (m !== undefined) return m;
      if (this.failure !== undefined) throw this.failure;
      if (this.ended) throw new TradebotError('BACKTEST_DATA_UNREADABLE', 'the tape worker ended before the end of the file', { kind: 'internal' });
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
