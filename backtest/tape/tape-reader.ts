/**
 * Opens a history file (or a recording, see `recordings()`) for replay: reads and validates the header
 * (line 1), then streams the trades in file order through the supersede window, one TradeBatch at a
 * time (TradeExtractor: the fast path on each line's bytes, else the full parser). A large trade history
 * (16 MiB and more) is read on a worker thread by default (tape-thread.ts: reading and parsing overlap
 * the replay on another core). A new worker takes ~25-40 ms to start up (one left in the pool by an
 * earlier replay of the process, tape-worker-pool.ts, is up at once): meanwhile the replay thread reads the
 * first lines itself, then hands its supersede window and counts over and the worker carries on from the
 * next line. In the replay thread only when the file is smaller, when asked
 * (`thread: 'main'`), when a line reader is given (tests spy on it), or when already running in a worker
 * (a sweep's threads use every core already). All ways give the same batches and the same counts.
 * Memory: the read buffers, a few batches and the window, whatever the file length. Empty lines are
 * skipped; a trade in a symbol the header has no instrument for is an error (BACKTEST_UNKNOWN_SYMBOL)
 * naming its line.
 */
import { open, stat } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { parseHeader, type HistoryHeader } from '../history/format.ts';
import { readLineBatches, type LineBatch, type LineReader, type LineReaderOptions } from './line-reader.ts';
import { SupersedeWindow } from './supersede-window.ts';
import { TapeThread } from './tape-thread.ts';
import { TradeBatch } from './trade-batch.ts';
import { emptyTapeStats, TradeExtractor, type TapeStats } from './trade-extractor.ts';
import { TradeLineParser } from './trade-line.ts';
import { recordedEvents, type RecordedBatch, type RecordingStats } from '../recording/recording-reader.ts';

export type { TapeStats } from './trade-extractor.ts';

export interface TapeReaderOptions {
  /** Records a trade waits for a superseding record (default 10 000). */
  readonly supersedeWindow?: number;
  /** Line reader (tests pass a spy); implies thread 'main'. */
  readonly reader?: LineReader;
  readonly readerOptions?: LineReaderOptions;
  /** Where a trade history is read and parsed: 'worker', 'main', or 'auto' (the default: see above). */
  readonly thread?: 'worker' | 'main' | 'auto';
  /**
   * On a worker: the line from which the worker reads (the replay thread reads the lines before it,
   * waiting for the worker to be up if need be; 0: the worker reads them all). Default: the replay thread
   * reads until the worker is up, then hands over at the next chunk of lines.
   */
  readonly handover?: number;
}

/** Files from this size on are read on a worker thread under thread 'auto'. */
export const WORKER_MIN_BYTES = 16 * 1024 * 1024;

type Source =
  | { readonly kind: 'lines'; readonly lines: AsyncGenerator<LineBatch, void, undefined>; readonly first: LineBatch }
  | {
      readonly kind: 'thread';
      readonly thread: TapeThread;
      readonly readerOptions: LineReaderOptions;
      readonly handover: number | undefined;
    };

/** Line 1 of `file` (UTF-8, without its line break); undefined when the file is empty. */
async function readFirstLine(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const parts: Buffer[] = [];
    let position = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const { bytesRead } = await handle.read(buf, 0, buf.length, position);
      const nl = buf.subarray(0, bytesRead).indexOf(10);
      parts.push(buf.subarray(0, nl === -1 ? bytesRead : nl));
      position += bytesRead;
      if (nl !== -1 || bytesRead === 0) break;
    }
    if (position === 0) return undefined;
    const line = Buffer.concat(parts);
    return line.toString('utf8', 0, line.at(-1) === 13 ? line.length - 1 : line.length);
  } finally {
    await handle.close();
  }
}

export class TapeReader {
  readonly stats: TapeStats = emptyTapeStats();
  /** Symbol of each instrument index used in TradeBatch.sym. */
  readonly symbols: readonly string[];
  bytesRead = 0;

  private constructor(
    readonly file: string,
    readonly header: HistoryHeader,
    readonly totalBytes: number,
    private readonly source: Source,
    private readonly supersedeWindow: number,
  ) {
    this.symbols = header.instruments.map((i) => i.symbol);
  }

  /**
   * Why the worker that was to read this tape failed before it took over, in which case the replay thread read
   * the whole file itself (the same trades, slower); undefined otherwise.
   */
  workerFailure: string | undefined;

  /** True once a worker took the tape over (from its first line or from where the replay thread stopped). */
  private workerTookOver = false;

  /** Which thread parsed the tape's trades: the worker (after the replay thread's first lines, maybe) or the replay thread alone. */
  get parsedOn(): 'worker' | 'replay thread' {
    return this.workerTookOver ? 'worker' : 'replay thread';
  }

  /** Where the trades are read: 'worker' or 'main' (the replay thread). */
  get thread(): 'worker' | 'main' {
    return this.source.kind === 'thread' ? 'worker' : 'main';
  }

  static async open(file: string, options: TapeReaderOptions = {}): Promise<TapeReader> {
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (error) {
      throw backtestError(BacktestErrorCode.DATA_UNREADABLE, `cannot read the history file ${file}: ${(error as Error).message}`, {
        kind: 'config',
        cause: error,
      });
    }
    const window = options.supersedeWindow ?? 10_000;
    const empty = () => backtestError(BacktestErrorCode.BAD_HEADER, `${file} is empty: expected a header line and trade lines`);
    const thread = options.thread ?? 'auto';
    const onWorker = thread === 'worker' || (thread === 'auto' && isMainThread && size >= WORKER_MIN_BYTES);
    if (onWorker && options.reader === undefined) {
      const headerLine = await readFirstLine(file);
      if (headerLine === undefined) throw empty();
      const header = parseHeader(headerLine, file);
      if (header.kind === 'history') {
        if (!Number.isInteger(window) || window < 1) throw new RangeError(`supersede window must be a positive integer, got ${window}`);
        const worker = new TapeThread(file, headerLine, header, {
          supersedeWindow: window,
          ...(options.readerOptions?.chunkBytes === undefined ? {} : { chunkBytes: options.readerOptions.chunkBytes }),
        });
        return new TapeReader(
          file,
          header,
          size,
          { kind: 'thread', thread: worker, readerOptions: options.readerOptions ?? {}, handover: options.handover },
          window,
        );
      }
    }
    const lines = (options.reader ?? readLineBatches)(file, options.readerOptions);
    const first = await lines.next();
    if (first.done === true || first.value.count === 0) throw empty();
    const batch = first.value;
    const header = parseHeader(batch.buf.toString('utf8', batch.starts[0], batch.ends[0]), file);
    return new TapeReader(file, header, size, { kind: 'lines', lines, first: batch }, window);
  }

  /** Trades released for replay, batch after batch, in file order (each batch valid until the next). */
  async *batches(): AsyncGenerator<TradeBatch, void, undefined> {
    if (this.header.kind !== 'history') throw backtestError(BacktestErrorCode.BAD_HEADER, `${this.file} is a recording: replay it as one`);
    const source = this.source;
    if (source.kind === 'lines') {
      yield* this.fromLines(source.lines, source.first);
      return;
    }
    const { thread, handover } = source;
    if (handover === 0) {
      thread.start({ offset: 0, line: 1 });
      this.workerTookOver = true;
    } else if (!(yield* this.fromLines(readLineBatches(this.file, source.readerOptions), undefined, thread, handover))) {
      this.workerFailure = thread.firstFailure?.message;
      await thread.close();
      return;
    }
    for await (const { batch, stats, bytesRead } of thread.batches()) {
      this.bytesRead = bytesRead;
      Object.assign(this.stats, stats);
      if (batch.count > 0) yield batch;
    }
  }

  /**
   * Reads and extracts lines in this thread. With a worker: after each chunk of lines, once the worker is
   * up (or at line `handover`, waiting for it), tells it to carry on from the next line with this
   * extractor's state, and returns true.
   */
  private async *fromLines(
    lines: AsyncGenerator<LineBatch, void, undefined>,
    first: LineBatch | undefined,
    thread?: TapeThread,
    handover?: number,
  ): AsyncGenerator<TradeBatch, boolean, undefined> {
    const parser = new TradeLineParser(this.header.source, this.header.instruments, this.file, this.header.format ?? 'full');
    const extractor = new TradeExtractor(parser.scanner, new SupersedeWindow(this.supersedeWindow), this.file, parser);
    const out = new TradeBatch();
    try {
      return yield* this.extract(lines, first, extractor, out, thread, handover);
    } finally {
      await lines.return(undefined);
    }
  }

  private async *extract(
    lines: AsyncGenerator<LineBatch, void, undefined>,
    first: LineBatch | undefined,
    extractor: TradeExtractor,
    out: TradeBatch,
    thread?: TapeThread,
    handover?: number,
  ): AsyncGenerator<TradeBatch, boolean, undefined> {
    let batch = first ?? (await lines.next()).value ?? undefined;
    while (batch !== undefined) {
      this.bytesRead = batch.bytesRead;
      extractor.process(batch, 0, out);
      Object.assign(this.stats, extractor.stats);
      if (out.count > 0) {
        yield out;
        out.clear();
      }
      const nextLine = batch.firstLine + batch.count;
      if (thread !== undefined && (handover === undefined || nextLine > handover)) {
        if (handover !== undefined) await thread.whenReady();
        if (thread.ready) {
          thread.start({ offset: batch.nextOffset, line: nextLine, state: extractor.state() });
          this.workerTookOver = true;
          return true;
        }
      }
      const next: IteratorResult<LineBatch, void> = await lines.next();
      batch = next.done === true ? undefined : next.value;
    }
    extractor.finish(out);
    Object.assign(this.stats, extractor.stats);
    if (out.count > 0) yield out;
    return false;
  }

  /** The events of a recording (header kind "recording"), batch by batch. */
  async *recordings(stats: RecordingStats): AsyncGenerator<RecordedBatch, void, undefined> {
    if (this.header.kind !== 'recording' || this.source.kind !== 'lines')
      throw backtestError(BacktestErrorCode.BAD_HEADER, `${this.file} is a trade history, not a recording`);
    for await (const batch of recordedEvents(this.file, this.header, this.source.first, this.source.lines, stats)) {
      this.bytesRead = batch.bytesRead;
      yield batch;
    }
  }

  async close(): Promise<void> {
    if (this.source.kind === 'thread') await this.source.thread.close();
    else await this.source.lines.return(undefined);
  }
}
