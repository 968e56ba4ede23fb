/**
 * The replay thread's side of the tape worker: starts tape-worker.ts on a worker thread for one history
 * file, tells it where to start once it is up (`ready`, `start`) and hands out its trades in file order,
 * commit by commit, read in place from the shared ring
 * (trade-ring.ts) with the counts that came with each. An error in the worker (a bad line, an unknown
 * symbol, an unreadable file) comes back as the TradebotError it was, line number included, and a worker
 * that dies otherwise as BACKTEST_DATA_UNREADABLE; `close` ends the worker (abort, or the replay stopped
 * early).
 */
import { Worker } from 'node:worker_threads';
import { TradebotError } from '../../src/errors.ts';
import type { HistoryHeader } from '../history/format.ts';
import type { TapeWorkerData, TapeWorkerError, TapeWorkerStart } from './tape-thread-protocol.ts';
import { TradeBatch } from './trade-batch.ts';
import type { TapeStats } from './trade-extractor.ts';
import { scannerSpec } from './trade-line.ts';
import { createTradeRing, RingReader } from './trade-ring.ts';

export const TAPE_WORKER_ENTRY = new URL('./tape-worker.mjs', import.meta.url);

export interface TapeThreadOptions {
  readonly supersedeWindow: number;
  readonly chunkBytes?: number;
  /** Trades the shared ring holds (default 65 536). */
  readonly ringTrades?: number;
  /** Commits (chunks of lines) the worker may be ahead (default 64). */
  readonly ringCommits?: number;
}

export interface ThreadBatch {
  readonly batch: TradeBatch;
  readonly stats: TapeStats;
  readonly bytesRead: number;
}

const EMPTY = new TradeBatch(0);

export class TapeThread {
  private readonly worker: Worker;
  private readonly reader: RingReader;
  private readonly errorMessage: Promise<Error>;
  private readonly exit: Promise<void>;
  private failure: Error | undefined;
  private closed = false;
  private started = false;

  constructor(file: string, headerLine: string, header: HistoryHeader, options: TapeThreadOptions) {
    const ring = createTradeRing(options.ringTrades ?? 65_536, options.ringCommits ?? 64);
    const workerData: TapeWorkerData = {
      file,
      headerLine,
      scanner: scannerSpec(header.format ?? 'full', header.source, header.instruments),
      supersedeWindow: options.supersedeWindow,
      chunkBytes: options.chunkBytes ?? 1 << 20,
      ring,
    };
    this.reader = new RingReader(ring);
    this.worker = new Worker(TAPE_WORKER_ENTRY, { workerData });
    this.errorMessage = new Promise((resolve) => {
      this.worker.on('message', (m: TapeWorkerError) => resolve(new TradebotError(m.code, m.message, { kind: m.kind })));
    });
    this.exit = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('error', (error) => this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${file} failed: ${error.message}`, { kind: 'internal', cause: error })));
    this.worker.on('exit', (code) => {
      if (!this.closed) this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${file} stopped (exit code ${code}) before the end of the file`, { kind: 'internal' }));
    });
  }

  /** The worker has started up: it can be told where to start. */
  get ready(): boolean {
    return this.reader.ready;
  }

  /** Resolves once the worker has started up. */
  whenReady(): Promise<void> {
    return this.reader.whenReady();
  }

  /** Tells the worker where to start (once). */
  start(from: TapeWorkerStart): void {
    if (this.started) throw new Error('the tape worker has started already');
    this.started = true;
    this.worker.postMessage(from);
  }

  /** The worker's trades in file order after `start`, each batch valid until the next is requested. */
  async *batches(): AsyncGenerator<ThreadBatch, void, undefined> {
    for (;;) {
      const commit = await this.reader.next(
        () => this.errorMessage,
        () => this.failure,
      );
      if (commit === undefined) return;
      for (const batch of commit.batches) yield { batch, stats: commit.stats, bytesRead: commit.bytesRead };
      if (commit.batches.length === 0) yield { batch: EMPTY, stats: commit.stats, bytesRead: commit.bytesRead };
    }
  }

  /** Commits (chunks of lines) ready and not yet handed out. */
  get inFlight(): number {
    return this.reader.pending;
  }

  /** Resolves once the worker has stopped to wait for room `times` times in all. */
  waited(times = 1): Promise<void> {
    return this.reader.writerWaited(times);
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

  private fail(error: Error): void {
    this.failure ??= error;
    this.reader.wake();
  }
}
