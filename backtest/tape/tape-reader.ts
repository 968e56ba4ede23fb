/**
 * Opens a history file (or a recording, see `recordings()`) for replay: reads and validates the header
 * (line 1), then streams the trades in
 * file order through the supersede window, one TradeBatch per batch of lines read, parsing each line
 * with the lazy TradeLineParser into one reused TradeFields. Memory: the read buffers, one batch and the
 * window, whatever the file length. Empty lines are skipped; a trade in a symbol the header has no
 * instrument for is an error (BACKTEST_UNKNOWN_SYMBOL) naming its line.
 */
import { stat } from 'node:fs/promises';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { parseHeader, type HistoryHeader } from '../history/format.ts';
import { readLineBatches, type LineBatch, type LineReader, type LineReaderOptions } from './line-reader.ts';
import { SupersedeWindow, TradeBatch, type SupersedeStats } from './supersede-window.ts';
import { newTradeFields, TradeLineParser } from './trade-line.ts';
import { recordedEvents, type RecordedBatch, type RecordingStats } from '../recording/recording-reader.ts';

/** Buffer#latin1Slice (what toString('latin1') ends in, without its argument handling; not in the typings). */
const latin1 = (buf: Buffer, start: number, end: number): string => (buf as unknown as { latin1Slice(start: number, end: number): string }).latin1Slice(start, end);

export interface TapeReaderOptions {
  /** Records a trade waits for a superseding record (default 10 000). */
  readonly supersedeWindow?: number;
  /** Line reader (tests pass a spy). */
  readonly reader?: LineReader;
  readonly readerOptions?: LineReaderOptions;
}

export interface TapeStats extends SupersedeStats {
  lines: number;
  records: number;
  fullParses: number;
  /** Records with a zero quantity (ignored). */
  empty: number;
}

export class TapeReader {
  readonly stats: TapeStats = { lines: 0, records: 0, fullParses: 0, empty: 0, busted: 0, lateBusts: 0, duplicates: 0 };
  /** Symbol of each instrument index used in TradeBatch.sym. */
  readonly symbols: readonly string[];
  bytesRead = 0;

  private constructor(
    readonly file: string,
    readonly header: HistoryHeader,
    readonly totalBytes: number,
    private readonly lines: AsyncGenerator<LineBatch, void, undefined>,
    private readonly first: LineBatch,
    private readonly window: SupersedeWindow,
  ) {
    this.symbols = header.instruments.map((i) => i.symbol);
  }

  static async open(file: string, options: TapeReaderOptions = {}): Promise<TapeReader> {
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (error) {
      throw backtestError(BacktestErrorCode.DATA_UNREADABLE, `cannot read the history file ${file}: ${(error as Error).message}`, { kind: 'config', cause: error });
    }
    const lines = (options.reader ?? readLineBatches)(file, options.readerOptions);
    const first = await lines.next();
    if (first.done === true || first.value.count === 0) throw backtestError(BacktestErrorCode.BAD_HEADER, `${file} is empty: expected a header line and trade lines`);
    const batch = first.value;
    const header = parseHeader(batch.buf.toString('utf8', batch.starts[0], batch.ends[0]), file);
    return new TapeReader(file, header, size, lines, batch, new SupersedeWindow(options.supersedeWindow ?? 10_000));
  }

  /** Trades released for replay, batch after batch, in file order (each batch valid until the next). */
  async *batches(): AsyncGenerator<TradeBatch, void, undefined> {
    if (this.header.kind !== 'history') throw backtestError(BacktestErrorCode.BAD_HEADER, `${this.file} is a recording: replay it as one`);
    const parser = new TradeLineParser(this.header.source, this.header.instruments, this.file);
    const index = new Map(this.symbols.map((s, i) => [s, i]));
    const fields = newTradeFields();
    const out = new TradeBatch();
    const stats = this.stats;
    let batch: LineBatch | undefined = this.first;
    let skip = 1;
    while (batch !== undefined) {
      const { buf, starts, ends, count, firstLine } = batch;
      this.bytesRead = batch.bytesRead;
      for (let i = skip; i < count; i++) {
        const start = starts[i] as number;
        const end = ends[i] as number;
        if (end === start) continue;
        stats.records++;
        const line = firstLine + i;
        parser.parse(latin1(buf, start, end), () => buf.toString('utf8', start, end), line, fields);
        const sym = index.get(fields.symbol);
        if (sym === undefined) throw backtestError(BacktestErrorCode.UNKNOWN_SYMBOL, `${this.file}:${line}: trade in ${fields.symbol}, which has no instrument in the header`);
        if (fields.qty <= 0) {
          stats.empty++;
          continue;
        }
        this.window.add(fields, sym, line, out);
      }
      stats.lines = firstLine + count - 1;
      stats.fullParses = parser.fullParses;
      Object.assign(stats, this.window.stats);
      skip = 0;
      if (out.count > 0) {
        yield out;
        out.clear();
      }
      const next: IteratorResult<LineBatch, void> = await this.lines.next();
      batch = next.done === true ? undefined : next.value;
    }
    this.window.flush(out);
    Object.assign(stats, this.window.stats);
    if (out.count > 0) yield out;
  }

  /** The events of a recording (header kind "recording"), batch by batch. */
  async *recordings(stats: RecordingStats): AsyncGenerator<RecordedBatch, void, undefined> {
    if (this.header.kind !== 'recording') throw backtestError(BacktestErrorCode.BAD_HEADER, `${this.file} is a trade history, not a recording`);
    for await (const batch of recordedEvents(this.file, this.header, this.first, this.lines, stats)) {
      this.bytesRead = batch.bytesRead;
      yield batch;
    }
  }

  async close(): Promise<void> {
    await this.lines.return(undefined);
  }
}
