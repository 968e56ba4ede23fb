/**
 * Reads a recording (`tradebot run --record`) for replay: after the header, streamed line by line, every
 * recorded event in the order it was received: market events (books, and the feed's connected /
 * disconnected, which mark the strategy's books stale as live), order stream events (the live bot's own
 * orders and fills: replay takes them out of the recorded market, see own-orders.ts), and the closing
 * `end` line of a version 2 recording (when the session stopped). Heartbeats and lines the live client
 * could not decode are counted and skipped. A recording cut off mid-line (the recording process died: no
 * end line, the last line partial) replays up to its last whole line (`cutLine` names the one left out); a
 * line that does not decode anywhere else is BACKTEST_BAD_LINE. Each line is JSON-parsed and decoded with the family A codecs;
 * recordings are small next to trade tapes, so there is no lazy path here.
 */
import type { MarketDataEvent, OrderStreamEvent } from '../../src/domain/stream-events.ts';
import { describeError } from '../../src/errors.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import type { HistoryHeader } from '../history/format.ts';
import type { LineBatch } from '../tape/line-reader.ts';
import { EventCodec, type Json } from './event-codec.ts';

export type RecordedItem =
  | { readonly kind: 'market'; readonly time: number; readonly line: number; readonly event: MarketDataEvent }
  | { readonly kind: 'orders'; readonly time: number; readonly line: number; readonly event: OrderStreamEvent }
  | { readonly kind: 'end'; readonly time: number; readonly line: number };

export interface RecordingStats {
  /** Recorded book updates. */
  books: number;
  /** Recorded order stream events used (the live bot's own orders and fills). */
  orderEvents: number;
  /** Lines skipped (heartbeats, invalid messages, unknown kinds). */
  skipped: number;
  /**
   * The line number of a last line that does not decode, in a recording without an end line: the file was
   * cut mid-line (the recording process died), and that line is left out. Undefined when none.
   */
  cutLine?: number;
}

export interface RecordedBatch {
  readonly items: readonly RecordedItem[];
  readonly bytesRead: number;
}

function decodeLine(codec: EventCodec, text: string): RecordedItem | undefined | 'skip' {
  const record = JSON.parse(text) as unknown;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new Error('not a JSON object');
  const { type, time, event } = record as { type?: unknown; time?: unknown; event?: unknown };
  if (typeof time !== 'number' || !Number.isFinite(time)) throw new Error('"time" is not a number of epoch milliseconds');
  if (type === 'end') return { kind: 'end', time, line: 0 };
  if (type !== 'market' && type !== 'orders') throw new Error(`"type" must be "market", "orders" or "end", got ${JSON.stringify(type)}`);
  if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new Error('"event" is not an object');
  if (type === 'market') {
    const decoded = codec.decodeMarket(event as Json);
    return decoded === undefined ? 'skip' : { kind: 'market', time, line: 0, event: decoded };
  }
  const decoded = codec.decodeOrders(event as Json);
  return decoded === undefined ? 'skip' : { kind: 'orders', time, line: 0, event: decoded };
}

/** The recording's remaining events, batch by batch (the first batch's header line skipped). */
export async function* recordedEvents(
  file: string,
  header: HistoryHeader,
  first: LineBatch,
  rest: AsyncGenerator<LineBatch, void, undefined>,
  stats: RecordingStats,
): AsyncGenerator<RecordedBatch, void, undefined> {
  const codec = new EventCodec(header.instruments);
  let batch: LineBatch | undefined = first;
  let skip = 1;
  // a line that does not decode is an error once another line follows it; the file's last one is a cut line
  let bad: { line: number; error: unknown } | undefined;
  const badLine = (b: { line: number; error: unknown }) =>
    backtestError(BacktestErrorCode.BAD_LINE, `${file}:${b.line}: not a recorded event: ${describeError(b.error)}`, { cause: b.error });
  while (batch !== undefined) {
    const out: RecordedItem[] = [];
    for (let i = skip; i < batch.count; i++) {
      const start = batch.starts[i] as number;
      const end = batch.ends[i] as number;
      if (end === start) continue;
      if (bad !== undefined) throw badLine(bad);
      const line = batch.firstLine + i;
      let item: RecordedItem | undefined | 'skip';
      try {
        item = decodeLine(codec, batch.buf.toString('utf8', start, end));
      } catch (error) {
        bad = { line, error };
        continue;
      }
      if (item === undefined || item === 'skip') {
        stats.skipped++;
        continue;
      }
      if (item.kind === 'market' && item.event.type === 'book') stats.books++;
      if (item.kind === 'orders') stats.orderEvents++;
      out.push({ ...item, line });
    }
    skip = 0;
    yield { items: out, bytesRead: batch.bytesRead };
    const next: IteratorResult<LineBatch, void> = await rest.next();
    batch = next.done === true ? undefined : next.value;
  }
  if (bad !== undefined) {
    // an end line would have come after it: a recording that ends in a bad line was cut off there
    stats.cutLine = bad.line;
    stats.skipped++;
  }
}
