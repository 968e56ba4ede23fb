/**
 * Reads a recording (`tradebot run --record`) for replay: the header, then, streamed line by line, the
 * book updates of the market stream (other market events and the order stream's events are counted and
 * skipped: in replay the bot's orders are simulated again). Each line is JSON-parsed and the book decoded
 * with the family A codec; recordings are small next to trade tapes, so no lazy path here.
 */
import type { BookEvent } from '../../src/exchange/gateway/stream-events.ts';
import { describeError } from '../../src/errors.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import type { HistoryHeader } from '../history/format.ts';
import type { LineBatch } from '../tape/line-reader.ts';
import { EventCodec, type Json } from './event-codec.ts';

export interface RecordedBookEvent {
  readonly time: number;
  readonly event: BookEvent;
  readonly line: number;
}

export interface RecordingStats {
  books: number;
  skipped: number;
}

export interface RecordedBatch {
  readonly events: readonly RecordedBookEvent[];
  readonly bytesRead: number;
}

/** The book events of the recording's remaining lines, batch by batch (the first batch's header line skipped). */
export async function* recordedBooks(file: string, header: HistoryHeader, first: LineBatch, rest: AsyncGenerator<LineBatch, void, undefined>, stats: RecordingStats): AsyncGenerator<RecordedBatch, void, undefined> {
  const codec = new EventCodec(header.instruments);
  let batch: LineBatch | undefined = first;
  let skip = 1;
  while (batch !== undefined) {
    const out: RecordedBookEvent[] = [];
    for (let i = skip; i < batch.count; i++) {
      const start = batch.starts[i] as number;
      const end = batch.ends[i] as number;
      if (end === start) continue;
      const line = batch.firstLine + i;
      let record: { type?: unknown; time?: unknown; event?: unknown };
      let event: BookEvent | undefined;
      try {
        record = JSON.parse(batch.buf.toString('utf8', start, end)) as typeof record;
        event = record.type === 'market' && typeof record.event === 'object' && record.event !== null ? codec.decodeBook(record.event as Json) : undefined;
      } catch (error) {
        throw backtestError(BacktestErrorCode.BAD_LINE, `${file}:${line}: not a recorded event: ${describeError(error)}`, { cause: error });
      }
      if (event === undefined || typeof record.time !== 'number') {
        stats.skipped++;
        continue;
      }
      stats.books++;
      out.push({ time: record.time, event, line });
    }
    skip = 0;
    yield { events: out, bytesRead: batch.bytesRead };
    const next: IteratorResult<LineBatch, void> = await rest.next();
    batch = next.done === true ? undefined : next.value;
  }
}
