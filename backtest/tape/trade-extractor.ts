/**
 * Lines -> trades for replay, the same in the replay thread and in the tape worker: each non-empty line
 * after the header is read into one reused TradeFields (fast path on its bytes, else the full parser),
 * records with a zero quantity are counted and dropped, the rest go through the supersede window, whose
 * releases land in a TradeBatch. Counts lines and records for the report (TapeStats).
 *
 * The full parser (src/domain's codecs) is optional: a worker loads it only when a line needs it, so
 * `process` stops before such a line and says where (the caller loads it and resumes there).
 */
import { BacktestErrorCode, backtestError } from '../errors.ts';
import type { LineBatch } from './line-reader.ts';
import type { SupersedeState, SupersedeStats, SupersedeWindow } from './supersede-window.ts';
import type { TradeBatch } from './trade-batch.ts';
import { newTradeFields, Scan, type LineScanner } from './trade-scan.ts';

export interface TapeStats extends SupersedeStats {
  lines: number;
  records: number;
  fullParses: number;
  /** Records with a zero quantity (ignored). */
  empty: number;
}

/** What the extractor needs of the full parser (trade-line.ts TradeLineParser). */
export interface FullLineParser {
  full(text: string, lineNo: number, out: ReturnType<typeof newTradeFields>): void;
}

/** Where an extractor stands, to carry on in another thread: its counts and its window. */
export interface ExtractorState {
  readonly stats: TapeStats;
  readonly window: SupersedeState;
}

export function emptyTapeStats(): TapeStats {
  return { lines: 0, records: 0, fullParses: 0, empty: 0, busted: 0, lateBusts: 0, duplicates: 0 };
}

export class TradeExtractor {
  readonly stats: TapeStats = emptyTapeStats();
  /** Loaded on demand (see `process`). */
  full: FullLineParser | undefined;
  private readonly fields = newTradeFields();

  constructor(
    private readonly scanner: LineScanner,
    private readonly window: SupersedeWindow,
    private readonly file: string,
    full?: FullLineParser,
  ) {
    this.full = full;
  }

  /**
   * Reads lines [from, batch.count) of `batch` (line 1 of the file, the header, is skipped), releasing
   * trades onto `out`. Returns the index of the first line not read: batch.count, or a line that needs
   * the full parser while none is loaded.
   */
  process(batch: LineBatch, from: number, out: TradeBatch): number {
    const i = this.readLines(batch, from, out);
    this.stats.lines = batch.firstLine + i - 1;
    this.windowStats();
    return i;
  }

  /**
   * The loop of `process`, on its own: V8 optimises a function inside its first long loop, before the code
   * after the loop ever ran, so that code would have no type feedback and deoptimise at the end of every
   * call (~150 times per million compact lines); nothing follows this loop but its return.
   */
  private readLines(batch: LineBatch, from: number, out: TradeBatch): number {
    const { buf, starts, ends, count, firstLine } = batch;
    const stats = this.stats;
    const scanner = this.scanner;
    const window = this.window;
    const fields = this.fields;
    let i = firstLine === 1 && from === 0 ? 1 : from;
    for (; i < count; i++) {
      const start = starts[i] as number;
      const end = ends[i] as number;
      if (end === start) continue;
      const line = firstLine + i;
      const scan = scanner.scan(buf, start, end, fields);
      if (scan !== Scan.OK) {
        if (scan === Scan.UNKNOWN_SYMBOL)
          throw backtestError(
            BacktestErrorCode.UNKNOWN_SYMBOL,
            `${this.file}:${line}: trade in ${scanner.unknownSymbol}, which has no instrument in the header`,
          );
        const full = this.full;
        if (full === undefined) break;
        full.full(buf.toString('utf8', start, end), line, fields);
        stats.fullParses++;
      }
      stats.records++;
      if (fields.qty <= 0) {
        stats.empty++;
        continue;
      }
      window.add(fields, line, out);
    }
    return i;
  }

  /** Its state (the extractor must not be used afterwards). */
  state(): ExtractorState {
    return { stats: { ...this.stats }, window: this.window.state() };
  }

  /** Carries on with the counts of `stats` (the window is restored by its owner). */
  restoreStats(stats: TapeStats): void {
    Object.assign(this.stats, stats);
  }

  /** Releases everything still waiting (end of the tape). */
  finish(out: TradeBatch): void {
    this.window.flush(out);
    this.windowStats();
  }

  private windowStats(): void {
    const s = this.window.stats;
    this.stats.busted = s.busted;
    this.stats.lateBusts = s.lateBusts;
    this.stats.duplicates = s.duplicates;
  }
}
