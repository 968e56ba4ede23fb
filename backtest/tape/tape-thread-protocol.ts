/**
 * The messages between the replay thread and a tape worker (tape-worker.ts), which serves one job after
 * another (kept alive between replays by tape-worker-pool.ts): a job (the file, its fast path and a ring),
 * then where to start it; and the one message the worker may post: its error, with the stable code (trades
 * and counts travel through the job's shared ring, trade-ring.ts, which also says when the job is done).
 */
import type { ErrorKind } from '../../src/errors.ts';
import type { ScannerSpec } from './line-scanner.ts';
import type { ExtractorState } from './trade-extractor.ts';
import type { TradeRingBuffers } from './trade-ring.ts';

/** What one job reads and where it hands the trades over. */
export interface TapeWorkerData {
  readonly file: string;
  /** Line 1 of the file (the full parser reads the instruments' scales from it). */
  readonly headerLine: string;
  /** The fast path for the file's format (its symbols, in order: TradeBatch.sym indexes them). */
  readonly scanner: ScannerSpec;
  readonly supersedeWindow: number;
  readonly chunkBytes: number;
  readonly ring: TradeRingBuffers;
}

/**
 * Where the worker starts, once it is up (it says so in the ring): a line's byte offset and number, and,
 * when the replay thread has read the lines before it, the extractor's state there (counts and supersede
 * window). Offset 0, line 1 and no state: the whole file.
 */
export interface TapeWorkerStart {
  readonly offset: number;
  readonly line: number;
  readonly state?: ExtractorState;
}

/** A job for the worker; it answers READY in the job's ring, then waits for its start. */
export interface TapeWorkerJob {
  readonly type: 'job';
  readonly data: TapeWorkerData;
}

/** Where the current job starts. */
export interface TapeWorkerStartMessage {
  readonly type: 'start';
  readonly from: TapeWorkerStart;
}

export type TapeWorkerMessage = TapeWorkerJob | TapeWorkerStartMessage;

export interface TapeWorkerError {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
  readonly kind: ErrorKind;
}
