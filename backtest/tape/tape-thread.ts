/**
 * The replay thread's side of the tape worker: starts tape-worker.ts on a worker thread for one history
 * file (from its esbuild bundle, worker-bundle.ts, up in ~25-40 ms; or through tape-worker.mjs and tsx, as a
 * fallback), tells it where to start once it is up (`ready`, `start`) and hands out its trades in file order,
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
import { tapeWorkerBundle } from './worker-bundle.ts';

export const TAPE_WORKER_ENTRY = new URL('./tape-worker.mjs', import.meta.url);

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
  /** Undefined until the bundle is built (the worker then starts), or for good when closed before. */
  private worker: Worker | undefined;
  private pendingStart: TapeWorkerStart | undefined;
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

  constructor(
    private readonly file: string,
    headerLine: string,
    header: HistoryHeader,
    options: TapeThreadOptions,
  ) {
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
    this.errorMessage = new Promise((resolve) => (this.onError = resolve));
    this.exit = new Promise((resolve) => (this.onExit = resolve));
    this.failed = new Promise((resolve) => (this.onFailure = resolve));
    if (options.entry === 'tsx') {
      this.launch(undefined, workerData);
    } else {
      tapeWorkerBundle()
        .then((code) => this.launch(code, workerData))
        .catch((error: unknown) => this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${file} did not start: ${error instanceof Error ? error.message : String(error)}`, { kind: 'internal', cause: error })));
    }
  }

  /** Starts the worker: from the bundled code, or from tape-worker.mjs (tsx) without it. */
  private launch(code: string | undefined, workerData: TapeWorkerData): void {
    if (this.closed) {
      this.onExit();
      return;
    }
    let worker: Worker;
    try {
      worker = code === undefined ? new Worker(TAPE_WORKER_ENTRY, { workerData }) : new Worker(code, { eval: true, workerData });
    } catch (error) {
      this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${this.file} did not start: ${error instanceof Error ? error.message : String(error)}`, { kind: 'internal', cause: error }));
      this.onExit();
      return;
    }
    this.worker = worker;
    worker.on('message', (m: TapeWorkerError) => this.onError(new TradebotError(m.code, m.message, { kind: m.kind })));
    worker.on('error', (error) => this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${this.file} failed: ${error.message}`, { kind: 'internal', cause: error })));
    worker.once('exit', (exitCode) => {
      if (!this.closed) this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${this.file} stopped (exit code ${exitCode}) before the end of the file`, { kind: 'internal' }));
      this.onExit();
    });
    if (this.pendingStart !== undefined) worker.postMessage(this.pendingStart);
  }

  /** The worker has started up: it can be told where to start. */
  get ready(): boolean {
    return this.reader.ready;
  }

  /** Resolves once the worker has started up; rejects if it failed before. */
  async whenReady(): Promise<void> {
    await Promise.race([this.reader.whenReady(), this.failed]);
    if (!this.reader.ready && this.failure !== undefined) throw this.failure;
  }

  /** Tells the worker where to start (once; kept until the worker exists). */
  start(from: TapeWorkerStart): void {
    if (this.started) throw new Error('the tape worker has started already');
    this.started = true;
    if (this.worker === undefined) this.pendingStart = from;
    else this.worker.postMessage(from);
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

  /** Resolves when the worker thread has ended (or, closed before it started, will never start). */
  get exited(): Promise<void> {
    return this.exit;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.worker !== undefined) await this.worker.terminate();
    // closed before the worker existed: it never will, so whenReady() must not wait for it
    else this.fail(new TradebotError('BACKTEST_DATA_UNREADABLE', `the tape worker for ${this.file} was closed before it started`, { kind: 'internal' }));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.onFailure();
    this.reader.wake();
  }
}
