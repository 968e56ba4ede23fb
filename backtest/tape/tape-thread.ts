/**
 * The replay thread's side of the tape worker: gets a worker thread for one history file from the pool
 * (tape-worker-pool.ts: a warm one left by an earlier replay of this process, else a new one started from
 * the esbuild bundle, worker-bundle.ts, up in ~25-40 ms, or through tape-worker.mjs and tsx, as a fallback),
 * posts it the job (file, fast path, supersede window, a new shared ring), tells it where to start once it
 * is up (`ready`, `start`) and hands out its trades in file order, commit by commit, read in place from the
 * ring (trade-ring.ts) with the counts that came with each. When the job ends cleanly (the ring's DONE) the
 * worker goes back to the pool for the next replay. An error in the worker (a bad line, an unknown symbol,
 * an unreadable file) comes back as the TradebotError it was, line number included, and a worker that dies
 * otherwise as BACKTEST_DATA_UNREADABLE; such a worker is never reused. `close` before the end (abort, or
 * the replay stopped early) terminates the worker.
 */
import type { Worker } from 'node:worker_threads';
import { TradebotError } from '../../src/errors.ts';
import type { HistoryHeader } from '../history/format.ts';
import type { TapeWorkerError, TapeWorkerJob, TapeWorkerStart, TapeWorkerStartMessage } from './tape-thread-protocol.ts';
import { acquireTapeWorker, discardTapeWorker, releaseTapeWorker, type TapeWorkerEntry } from './tape-worker-pool.ts';
import { TradeBatch } from './trade-batch.ts';
import type { TapeStats } from './trade-extractor.ts';
import { scannerSpec } from './trade-line.ts';
import { createTradeRing, RingReader } from './trade-ring.ts';
import { tapeWorkerBundle } from './worker-bundle.ts';

export { TAPE_WORKER_ENTRY } from './tape-worker-pool.ts';

export interface TapeThreadOptions {
  readonly supersedeWindow: number;
  readonly chunkBytes?: number;
  /** Trades the shared ring holds (default 65 536). */
  readonly ringTrades?: number;
  /** Commits (chunks of lines) the worker may be ahead (default 64). */
  readonly ringCommits?: number;
  /**
   * How the worker starts: 'bundle' (default: the esbuild bundle of tape-worker.ts, worker-bundle.ts; falls
   * back to 'tsx' when esbuild cannot bundle) or 'tsx' (tape-worker.mjs registers tsx in the worker thread).
   */
  readonly entry?: 'bundle' | 'tsx';
}

export interface ThreadBatch {
  readonly batch: TradeBatch;
  readonly stats: TapeStats;
  readonly bytesRead: number;
}

const EMPTY = new TradeBatch(0);

export class TapeThread {
  /** Undefined until the bundle is built (the worker then starts), for good when closed before, and again once back in the pool. */
  private worker: Worker | undefined;
  private entry: TapeWorkerEntry = 'bundle';
  private pendingStart: TapeWorkerStart | undefined;
  private readonly job: TapeWorkerJob;
  private readonly reader: RingReader;
  private readonly errorMessage: Promise<Error>;
  private readonly exit: Promise<void>;
  private readonly failed: Promise<void>;
  private onError!: (error: Error) => void;
  private onExit!: () => void;
  private onFailure!: () => void;
  private failure: Error | undefined;
  private closed = false;
  private started = false;
  /** The job ended cleanly and the worker went back to the pool. */
  private released = false;
  private readonly listeners = {
    message: (m: TapeWorkerError) => this.onError(new TradebotError(m.code, m.message, { kind: m.kind })),
    error: (error: Error) =>
      this.fail(
        new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${this.file} failed: ${error.message}`, {
          kind: 'internal',
          cause: error,
        }),
      ),
    exit: (exitCode: number) => {
      if (!this.closed)
        this.fail(
          new TradebotError(
            'BACKTEST_DATA_UNREADABLE',
            `the tape worker for ${this.file} stopped (exit code ${exitCode}) before the end of the file`,
            { kind: 'internal' },
          ),
        );
      this.onExit();
    },
  };

  constructor(
    private readonly file: string,
    headerLine: string,
    header: HistoryHeader,
    options: TapeThreadOptions,
  ) {
    const ring = createTradeRing(options.ringTrades ?? 65_536, options.ringCommits ?? 64);
    this.job = {
      type: 'job',
      data: {
        file,
        headerLine,
        scanner: scannerSpec(header.format ?? 'full', header.source, header.instruments),
        supersedeWindow: options.supersedeWindow,
        chunkBytes: options.chunkBytes ?? 1 << 20,
        ring,
      },
    };
    this.reader = new RingReader(ring);
    this.errorMessage = new Promise((resolve) => (this.onError = resolve));
    this.exit = new Promise((resolve) => (this.onExit = resolve));
    this.failed = new Promise((resolve) => (this.onFailure = resolve));
    if (options.entry === 'tsx') {
      this.launch('tsx', undefined);
    } else {
      tapeWorkerBundle()
        .then((code) => this.launch(code === undefined ? 'tsx' : 'bundle', code))
        .catch((error: unknown) =>
          this.fail(
            new TradebotError(
              'BACKTEST_DATA_UNREADABLE',
              `the tape worker for ${file} did not start: ${error instanceof Error ? error.message : String(error)}`,
              { kind: 'internal', cause: error },
            ),
          ),
        );
    }
  }

  /** Gets a worker from the pool (a warm one, or a new one from the bundled code or tape-worker.mjs) and posts it the job. */
  private launch(entry: TapeWorkerEntry, code: string | undefined): void {
    if (this.closed) {
      this.onExit();
      return;
    }
    let worker: Worker;
    try {
      worker = acquireTapeWorker(entry, code);
    } catch (error) {
      this.fail(
        new TradebotError(
          'BACKTEST_DATA_UNREADABLE',
          `the tape worker for ${this.file} did not start: ${error instanceof Error ? error.message : String(error)}`,
          { kind: 'internal', cause: error },
        ),
      );
      this.onExit();
      return;
    }
    this.worker = worker;
    this.entry = entry;
    worker.on('message', this.listeners.message);
    worker.on('error', this.listeners.error);
    worker.once('exit', this.listeners.exit);
    worker.postMessage(this.job);
    if (this.pendingStart !== undefined) this.postStart(worker, this.pendingStart);
  }

  private postStart(worker: Worker, from: TapeWorkerStart): void {
    const message: TapeWorkerStartMessage = { type: 'start', from };
    worker.postMessage(message);
  }

  /** The job ended cleanly (DONE): the worker goes back to the pool, waiting for the next job. */
  private release(): void {
    const worker = this.worker;
    if (worker === undefined || this.closed || this.released) return;
    this.released = true;
    this.worker = undefined;
    worker.off('message', this.listeners.message);
    worker.off('error', this.listeners.error);
    worker.off('exit', this.listeners.exit);
    releaseTapeWorker(worker, this.entry);
    this.onExit();
  }

  /**
   * The worker has started up (a pooled one: taken the job) and this tape is not closed: it can be told
   * where to start. (A warm worker may take the job even as the tape is closed before it starts.)
   */
  get ready(): boolean {
    return !this.closed && this.reader.ready;
  }

  /** The worker's first failure (or this side's close, which also ends it), if any. */
  get firstFailure(): Error | undefined {
    return this.failure;
  }

  /** Resolves once the worker has started up; rejects if it failed before. */
  async whenReady(): Promise<void> {
    await Promise.race([this.reader.whenReady(), this.failed]);
    if (!this.ready && this.failure !== undefined) throw this.failure;
  }

  /** Tells the worker where to start (once; kept until the worker exists). */
  start(from: TapeWorkerStart): void {
    if (this.started) throw new Error('the tape worker has started already');
    this.started = true;
    if (this.worker === undefined) this.pendingStart = from;
    else this.postStart(this.worker, from);
  }

  /** The worker's trades in file order after `start`, each batch valid until the next is requested. */
  async *batches(): AsyncGenerator<ThreadBatch, void, undefined> {
    for (;;) {
      const commit = await this.reader.next(
        () => this.errorMessage,
        () => this.failure,
      );
      if (commit === undefined) {
        this.release();
        return;
      }
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

  /** Resolves when this file's worker is done: back in the pool, or ended (or, closed before it started, will never start). */
  get exited(): Promise<void> {
    return this.exit;
  }

  /** Ends the job: a worker still on it (stopped early, or failed) is terminated, never reused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.released) return;
    const worker = this.worker;
    // A read or whenReady() still waiting (close from outside the replay loop: a signal handler, say) fails
    // at once instead of waiting for a worker that will never commit again; closed before the worker
    // existed, it never will.
    this.fail(
      new TradebotError(
        'BACKTEST_DATA_UNREADABLE',
        worker === undefined
          ? `the tape worker for ${this.file} was closed before it started`
          : `the tape of ${this.file} was closed before the end of the file`,
        { kind: 'internal' },
      ),
    );
    if (worker !== undefined) await discardTapeWorker(worker);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.onFailure();
    this.reader.wake();
  }
}
