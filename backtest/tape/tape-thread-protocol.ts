/**
 * What the replay thread hands the tape worker (tape-worker.ts): its start data, then where to start; and
 * the one message the worker may post: its error, with the stable code (trades and counts travel through
 * the shared ring, trade-ring.ts).
 */
import type { ErrorKind } from '../../src/errors.ts';
import type { ScannerSpec } from './line-scanner.ts';
import type { ExtractorState } from './trade-extractor.ts';
import type { TradeRingBuffers } from './trade-ring.ts';

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

export interface TapeWorkerError {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
  readonly kind: ErrorKind;
}
