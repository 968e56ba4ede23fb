/**
 * What the replay thread and the tape worker (tape-worker.ts) exchange: the worker's start data and its
 * messages (a batch of released trades with the running counts, or an error with its stable code).
 */
import type { ErrorKind } from '../../src/errors.ts';
import type { HistorySource } from '../history/format.ts';
import type { TradeBatchMessage } from './trade-batch.ts';
import type { TapeStats } from './trade-extractor.ts';

export interface TapeWorkerData {
  readonly file: string;
  /** Line 1 of the file (the full parser reads the instruments' scales from it). */
  readonly headerLine: string;
  readonly source: HistorySource;
  /** The header's symbols, in order: TradeBatch.sym indexes them. */
  readonly symbols: readonly string[];
  readonly supersedeWindow: number;
  readonly chunkBytes: number;
  /** A batch is posted once it holds this many trades, at the end of a chunk of lines (1: every chunk). */
  readonly batchTrades: number;
  /** Batches in flight at most. */
  readonly ahead: number;
  /**
   * Int32 [0]: batches the replay thread has taken (it adds 1 and notifies for each); [1]: times the
   * worker stopped to wait for that (it adds 1 and notifies before each wait).
   */
  readonly taken: SharedArrayBuffer;
}

export type TapeWorkerMessage =
  | { readonly type: 'batch'; readonly batch: TradeBatchMessage; readonly stats: TapeStats; readonly bytesRead: number; readonly done: boolean }
  | { readonly type: 'error'; readonly code: string; readonly message: string; readonly kind: ErrorKind };
